import { deepStrictEqual as assertEquals, ok as assert, rejects } from "node:assert/strict";
import { isUnder, listSites, parseEnvirons, parseSiteInfo, siteNameOf } from "../../../tools/engine/sites.ts";
import { EngineFsError, localEngineFs } from "../../../tools/engine/engine_fs.ts";
import { Engine, engineRoot, failure, openEngine } from "../../../tools/engine/engine.ts";
import { EngineInputError } from "../../../tools/engine/errors.ts";
import { tempDir } from "../../support/run_assist.ts";
import { contextFor } from "../support.ts";

const NC = "prologue\n    type:\tnet\nend_prologue\nprocess p { { HUBNAME h } } \n";

Deno.test("parseEnvirons, siteNameOf, parseSiteInfo", () => {
  assertEquals(parseEnvirons("\n[exports]\r\nenvirons=/hci/i/adt; /hci/i/lab ;;\r\n"), [
    "/hci/i/adt",
    "/hci/i/lab",
  ]);
  assertEquals(parseEnvirons("[exports]\nother=1\n"), undefined);
  assertEquals(parseEnvirons("ENVIRONS = C:\\cl\\integrator\\adt"), ["C:\\cl\\integrator\\adt"]);
  assertEquals(siteNameOf("C:\\cl\\integrator\\adt\\"), "adt");
  assertEquals(siteNameOf("/hci/i/lab/"), "lab");
  const info = parseSiteInfo('# header\nreleasenum=20.1\r\nsitedescription="ADT feeds"\nmastersite=\n=bad\n');
  assertEquals([...info], [["releasenum", "20.1"], ["sitedescription", "ADT feeds"], ["mastersite", ""]]);
});

Deno.test("listSites: environs, a folder listed elsewhere found under the root, a missing one noted", async () => {
  await using tmp = await tempDir();
  const root = `${tmp.path}/integrator`;
  for (const s of ["adt", "lab"]) {
    await Deno.mkdir(`${root}/${s}`, { recursive: true });
    await Deno.writeTextFile(`${root}/${s}/NetConfig`, NC);
  }
  await Deno.mkdir(`${root}/server`);
  await Deno.writeTextFile(
    `${root}/server/server.ini`,
    `[exports]\nenvirons=${root}/adt;/hci/elsewhere/lab;/hci/elsewhere/gone\n`,
  );
  const ctx = contextFor(`${tmp.path}/home`, tmp.path);
  const list = await listSites(localEngineFs(ctx), root);
  assertEquals(list.source, "server.ini");
  assertEquals(list.sites.map((s) => [s.name, s.dir, s.hasNetConfig]), [
    ["adt", `${root}/adt`, true],
    ["lab", `${root}/lab`, true],
    ["gone", "/hci/elsewhere/gone", false],
  ]);
  assertEquals(list.notes, [
    `site lab: server.ini lists /hci/elsewhere/lab, outside ${root}; using ${root}/lab`,
    "site gone: listed in server.ini as /hci/elsewhere/gone, but no such folder",
  ]);
});

Deno.test("listSites: a copied root whose server.ini names the original uses its own site folders", async () => {
  await using tmp = await tempDir();
  for (const r of ["orig", "copy"]) {
    await Deno.mkdir(`${tmp.path}/${r}/adt`, { recursive: true });
    await Deno.mkdir(`${tmp.path}/${r}/server`);
    await Deno.writeTextFile(`${tmp.path}/${r}/adt/NetConfig`, NC);
    await Deno.writeTextFile(
      `${tmp.path}/${r}/server/server.ini`,
      `environs=${tmp.path}/orig/adt;${tmp.path}/elsewhere/x\n`,
    );
  }
  await Deno.mkdir(`${tmp.path}/elsewhere/x`, { recursive: true });
  const fs = localEngineFs(contextFor(`${tmp.path}/home`, tmp.path));
  const copy = await listSites(fs, `${tmp.path}/copy`);
  // The root's own adt; a site that lives only outside the root is still found where it is listed.
  assertEquals(copy.sites.map((s) => s.dir), [`${tmp.path}/copy/adt`, `${tmp.path}/elsewhere/x`]);
  const orig = await listSites(fs, `${tmp.path}/orig/`);
  assertEquals(orig.sites[0].dir, `${tmp.path}/orig/adt`);
  assertEquals(orig.notes, []);
  assertEquals([isUnder("C:\\cl\\adt", "C:\\cl\\"), isUnder("/a/bc", "/a/b"), isUnder("/a/b", "/a/b")], [
    true,
    false,
    true,
  ]);
});

Deno.test("listSites: without server.ini, the folders that hold a NetConfig, sorted", async () => {
  await using tmp = await tempDir();
  const root = tmp.path;
  for (const s of ["zeta", "alpha", "nonsite"]) await Deno.mkdir(`${root}/${s}`);
  await Deno.writeTextFile(`${root}/zeta/NetConfig`, NC);
  await Deno.writeTextFile(`${root}/alpha/NetConfig`, NC);
  const list = await listSites(localEngineFs(contextFor(`${tmp.path}/.home`, tmp.path)), root);
  assertEquals([list.source, list.sites.map((s) => s.name)], ["walk", ["alpha", "zeta"]]);
});

Deno.test("Engine: root from the argument or HCIROOT, site by name, HCISITE or the only one", async () => {
  await using tmp = await tempDir();
  const ctx = contextFor(`${tmp.path}/home`, tmp.path);
  const env = (vars: Record<string, string>) => (name: string) => vars[name];
  assertEquals(engineRoot("rel/root", ctx, env({ HCIROOT: "/elsewhere" })), `${tmp.path}/rel/root`);
  let err: unknown;
  try {
    engineRoot(undefined, ctx, env({ HCIROOT: " \r" }));
  } catch (e) {
    err = e;
  }
  assert(
    err instanceof EngineInputError && err.message === "no engine root: pass --hciroot <path> or set HCIROOT",
  );
  assertEquals(engineRoot(undefined, ctx, env({ HCIROOT: `${tmp.path}\r` })), tmp.path);
  for (const s of ["one", "two"]) {
    await Deno.mkdir(`${tmp.path}/${s}`);
    await Deno.writeTextFile(`${tmp.path}/${s}/NetConfig`, NC);
  }
  const engine = openEngine(undefined, ctx, undefined, env({ HCIROOT: tmp.path }));
  await rejects(engine.site(), /which site\? name one \(sites: one, two\), or set HCISITE/);
  assertEquals((await engine.site("TWO")).name, "two");
  assertEquals((await new Engine(engine.fs, tmp.path, env({ HCISITE: "one" })).site()).name, "one");
  await rejects(engine.site("three"), /no site "three" under .* \(sites: one, two\)/);
  const { nc } = await engine.load("one");
  assertEquals(nc.processes[0].name, "p");
});

Deno.test("EngineFs (local): protected places under $ASSIST_HOME are refused, however reached", async () => {
  await using tmp = await tempDir();
  const home = `${tmp.path}/home`;
  await Deno.mkdir(`${home}/log`, { recursive: true });
  await Deno.writeTextFile(`${home}/log/NetConfig`, NC);
  await Deno.mkdir(`${tmp.path}/root`);
  await Deno.symlink(`${home}/log`, `${tmp.path}/root/site`);
  const ctx = contextFor(home, tmp.path);
  const fs = localEngineFs(ctx);
  for (const path of [`${home}/log/NetConfig`, `${tmp.path}/root/site/NetConfig`]) {
    await rejects(
      fs.readText(path),
      (e: unknown) => e instanceof EngineFsError && e.kind === "protected_path",
    );
    await rejects(
      fs.localFile(path),
      (e: unknown) => e instanceof EngineFsError && e.kind === "protected_path",
    );
  }
  // Listing leaves the protected entry out; a site walk therefore never sees it.
  assertEquals(await fs.list(`${tmp.path}/root`), []);
  const engine = openEngine(`${tmp.path}/root`, ctx);
  // With the one site left out, the folder is no engine root.
  await rejects(
    engine.sites(),
    (e: unknown) => e instanceof EngineInputError && e.kind === "not_engine_root",
  );
  const r = failure(new EngineFsError("protected_path", "refused", "/x"));
  assertEquals([r.isError, JSON.parse(r.text).error], [true, "protected_path"]);
  // Plain files read, ranges read, a missing file is undefined for stat and not_found for reads.
  await Deno.writeTextFile(`${tmp.path}/root/f.txt`, "0123456789");
  assertEquals(new TextDecoder().decode(await fs.readRange(`${tmp.path}/root/f.txt`, 3, 4)), "3456");
  assertEquals(new TextDecoder().decode(await fs.readRange(`${tmp.path}/root/f.txt`, 8, 10)), "89");
  assertEquals(await fs.stat(`${tmp.path}/root/missing`), undefined);
  await rejects(
    fs.readText(`${tmp.path}/root/missing`),
    (e: unknown) => e instanceof EngineFsError && e.kind === "not_found",
  );
});
