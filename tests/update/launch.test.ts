/**
 * The launch check of a source install, as an operator meets it: `assist` started from a copy of
 * this repository (no .git) against a local origin that is up with a new release, refusing
 * connections, hanging, signed with a pinned key, or private (token only). The token never
 * appears in any output or file under $ASSIST_HOME.
 */
import { VERSION } from "../../core/version.ts";
import { deepStrictEqual as assertEquals, match, ok as assert } from "node:assert/strict";
import { generateKeyPair } from "../../update/signature.ts";
import { makeRelease, snapshot, startOrigin, writeTree } from "../support/origin.ts";
import { launchSync } from "../../update/launch.ts";
import { runCommand, tempDir } from "../support/run_assist.ts";
import { copyInstall, denoDir, installedArgs, leftovers, nextRelease, runInstalled } from "./_install.ts";

const keys = await generateKeyPair();

async function fixture() {
  const dir = await tempDir("assist-launch-");
  const root = `${dir.path}/install`;
  const home = `${dir.path}/home`;
  await Deno.mkdir(home, { recursive: true });
  await copyInstall(root);
  await Deno.writeTextFile(`${home}/.origin-key`, `${keys.publicKey}\n`);
  await Deno.writeTextFile(`${home}/.last-sync-version`, `${VERSION}\n`);
  return { dir, root, home };
}

/** Starts the REPL with piped input (`/quit`) and returns what it printed. */
async function launchQuit(root: string, env: Record<string, string>) {
  return await runCommand(Deno.execPath(), installedArgs(root, []), {
    clearEnv: true,
    env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", NO_COLOR: "1", ...denoDir(), ...env },
    stdin: "/quit\n",
  });
}

Deno.test("launch: a new release is synced before the prompt, with heartbeat progress, and runs at the next start", async () => {
  const { dir, root, home } = await fixture();
  await using _d = dir;
  await using origin = startOrigin(await nextRelease(root, "0.99.0", keys.privatePem));
  const env = { ASSIST_HOME: home, ASSIST_BASE_URL: origin.baseUrl };
  const r = await launchQuit(root, env);
  assertEquals(r.code, 0, r.stderr);
  match(r.stderr, /^checking 10\/\d+ \S+$/m);
  match(r.stderr, /^updated to 0\.99\.0 \(5 file\(s\)\); restart assist to use it$/m);
  assert(!r.stderr.includes("unsigned"), "a pinned key: the origin is signed");
  assert(!r.stderr.includes("\x1b["), "no cursor control off a terminal");
  assertEquals((await runInstalled(root, ["--version"], env)).stdout, "assist 0.99.0\n");
  assertEquals(await leftovers(root), []);
  // The next start: one GET of VERSION, nothing printed about updates.
  origin.requests.length = 0;
  const again = await launchQuit(root, env);
  assert(!/updated|skipped|checking/.test(again.stderr), again.stderr);
  assertEquals(origin.requests.map((q) => q.path), ["/ops/assist/raw/branch/main/VERSION"]);
});

Deno.test("launch: an unreachable origin prints one line and the program goes on; files untouched", async () => {
  const { dir, root, home } = await fixture();
  await using _d = dir;
  const before = await snapshot(root);
  // A port nothing listens on: connection refused.
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = l.addr.port;
  l.close();
  const r = await launchQuit(root, {
    ASSIST_HOME: home,
    ASSIST_BASE_URL: `http://127.0.0.1:${port}/ops/assist`,
  });
  assertEquals(r.code, 0);
  match(
    r.stderr,
    /^auto-update skipped this launch: cannot reach http:\/\/127\.0\.0\.1:\d+\/ops\/assist\/raw\/branch\/main\/VERSION/m,
  );
  assertEquals(await snapshot(root), before);
});

Deno.test("launch: a hanging origin holds the start for the VERSION limit only", async () => {
  const { dir, root, home } = await fixture();
  await using _d = dir;
  await using origin = startOrigin(new Map(), { kind: "hang" });
  const r = await launchQuit(root, { ASSIST_HOME: home, ASSIST_BASE_URL: origin.baseUrl });
  assertEquals(r.code, 0);
  match(r.stderr, /^auto-update skipped this launch: .*VERSION: no complete answer within 3 s$/m);
});

Deno.test("launch: a refused release (HTML sign-in page) is reported and nothing changes", async () => {
  const { dir, root, home } = await fixture();
  await using _d = dir;
  await using origin = startOrigin(new Map(), { kind: "html200", contentType: false });
  const before = await snapshot(root);
  const r = await launchQuit(root, { ASSIST_HOME: home, ASSIST_BASE_URL: origin.baseUrl });
  assertEquals(r.code, 0);
  match(r.stderr, /^auto-update skipped this launch: .*HTML page.*set ASSIST_ORIGIN_TOKEN/m);
  assertEquals(await snapshot(root), before);
});

Deno.test("launch: an origin without a trusted key is named unsigned; a legacy github pin warns once", async () => {
  const { dir, root, home } = await fixture();
  await using _d = dir;
  await Deno.remove(`${home}/.origin-key`);
  await using origin = startOrigin(await nextRelease(root, "0.99.0"));
  await Deno.writeTextFile(`${home}/.origin`, `${origin.baseUrl}\n`);
  const r = await launchQuit(root, { ASSIST_HOME: home });
  match(
    r.stderr,
    new RegExp(
      `^update: origin ${
        origin.baseUrl.replace(/[./]/g, "\\$&")
      } is unsigned \\(no trusted key\\); files are checked by hash only$`,
      "m",
    ),
  );
  match(r.stderr, /^updated to 0\.99\.0/m);

  await Deno.writeTextFile(`${home}/.origin`, "github\n");
  const g = await launchQuit(root, { ASSIST_HOME: home });
  assertEquals(g.stderr.split("\n").filter((l) => l.includes('holds "github"')).length, 1, g.stderr);
  assertEquals(await Deno.readTextFile(`${home}/.origin`), "github\n", "the pin is not rewritten");
});

Deno.test("launch: a private origin syncs with ASSIST_ORIGIN_TOKEN; the token is in no output and no file", async () => {
  const token = "gitea-token-Zq81xK";
  const { dir, root, home } = await fixture();
  await using _d = dir;
  await using origin = startOrigin(await nextRelease(root, "0.99.0", keys.privatePem), {
    kind: "tokenOnly",
    token,
  });
  const env = { ASSIST_HOME: home, ASSIST_BASE_URL: origin.baseUrl };
  const without = await launchQuit(root, env);
  match(without.stderr, /auto-update skipped this launch: .*HTTP 404.*set ASSIST_ORIGIN_TOKEN/);
  const wrong = await launchQuit(root, { ...env, ORIGIN_TOKEN: `${token}-wrong` });
  assert(!wrong.stderr.includes(token) && !wrong.stdout.includes(token));
  const r = await launchQuit(root, { ...env, ASSIST_ORIGIN_TOKEN: token });
  match(r.stderr, /^updated to 0\.99\.0/m);
  const u = await runInstalled(root, ["update", "--force"], { ...env, ASSIST_ORIGIN_TOKEN: token });
  assertEquals(u.code, 0, u.stderr);
  for (const out of [without, wrong, r, u]) assert(!`${out.stdout}${out.stderr}`.includes(token));
  for (const [p, b] of await snapshot(home)) {
    assert(!new TextDecoder().decode(b).includes(token), `the token is in $ASSIST_HOME/${p}`);
  }
  assert(origin.requests.some((q) => q.authorization === `token ${token}`));
});

Deno.test("assist --check lists files that differ from MANIFEST and fails; passes on a clean install", async () => {
  const { dir, root, home } = await fixture();
  await using _d = dir;
  const env = { ASSIST_HOME: home };
  assertEquals((await runInstalled(root, ["--check"], env)).code, 0);
  await Deno.writeTextFile(`${root}/cli/help.ts`, "// changed\n");
  await Deno.remove(`${root}/prompts/system.md`);
  const r = await runInstalled(root, ["--check"], env);
  assertEquals(r.code, 1);
  match(r.stderr, /^size differs: cli\/help\.ts$/m);
  match(r.stderr, /^missing: prompts\/system\.md$/m);
  match(r.stderr, /2 of \d+ file\(s\) differ from MANIFEST; assist update --force repairs them/);
});

/** A small install at 0.9.0 and a signed 0.9.1 release, for launchSync run in this process. */
async function smallFixture() {
  const dir = await tempDir("assist-launch-small-");
  const root = `${dir.path}/install`;
  const home = `${dir.path}/home`;
  await Deno.mkdir(home, { recursive: true });
  const files = {
    "main.ts": "console.log(1);\n",
    "deno.json": "{}\n",
    "cli/help.ts": "export const h = 'old';\n",
  };
  await writeTree(root, await makeRelease("0.9.0", files, { privateKey: keys.privatePem }));
  await Deno.writeTextFile(`${home}/.origin-key`, `${keys.publicKey}\n`);
  await Deno.writeTextFile(`${home}/.last-sync-version`, "0.9.0\n");
  const release = await makeRelease("0.9.1", {
    ...files,
    "cli/help.ts": "export const h = 'new';\n",
    "cli/big.ts": `export const s = "${"x".repeat(4000)}";\n`,
  }, { privateKey: keys.privatePem });
  return { dir, root, home, release };
}

for (const hung of ["MANIFEST", "MANIFEST.sig"]) {
  Deno.test(`launch: a hanging ${hung} is bounded by the metadata budget; skipped, files untouched`, async () => {
    const { dir, root, home, release } = await smallFixture();
    await using _d = dir;
    await using origin = startOrigin(release, { kind: "hangOn", paths: [hung] });
    const before = await snapshot(root);
    const lines: string[] = [];
    const r = await launchSync({
      home,
      root,
      baseUrl: origin.baseUrl,
      compiled: false,
      current: "0.9.0",
      metadataBudgetMs: 300,
      line: (s) => lines.push(s),
    });
    assertEquals(r, undefined);
    const skipped = lines.filter((l) => l.startsWith("auto-update skipped this launch: "));
    assertEquals(skipped.length, 1, lines.join("\n"));
    assert(skipped[0].includes(hung), skipped[0]);
    assertEquals(await snapshot(root), before);
    assertEquals((await Deno.readTextFile(`${home}/.last-sync-version`)).trim(), "0.9.0");
  });
}

Deno.test("launch: the whole-sync budget stops a slow download cleanly; the next launch converges", async () => {
  const { dir, root, home, release } = await smallFixture();
  await using _d = dir;
  await using origin = startOrigin(release, { kind: "slow", path: "cli/big.ts", bytesPerSec: 1000 });
  const before = await snapshot(root);
  const lines: string[] = [];
  const base = { home, root, baseUrl: origin.baseUrl, compiled: false, current: "0.9.0" };
  assertEquals(await launchSync({ ...base, budgetMs: 500, line: (s) => lines.push(s) }), undefined);
  assertEquals(
    lines.filter((l) => l.startsWith("auto-update skipped this launch: ")).length,
    1,
    lines.join("\n"),
  );
  assertEquals(await snapshot(root), before, "nothing replaced, no staging file left");
  origin.behaviour = { kind: "normal" };
  const r = await launchSync({ ...base, line: (s) => lines.push(s) });
  assertEquals(r?.status, "updated");
  assertEquals(await Deno.readTextFile(`${root}/cli/help.ts`), "export const h = 'new';\n");
});

Deno.test("launch: a hanging MANIFEST at a real start is skipped within the launch metadata budget", async () => {
  const { dir, root, home } = await fixture();
  await using _d = dir;
  await using origin = startOrigin(await nextRelease(root, "0.99.0", keys.privatePem), {
    kind: "hangOn",
    paths: ["MANIFEST"],
  });
  const r = await launchQuit(root, { ASSIST_HOME: home, ASSIST_BASE_URL: origin.baseUrl });
  assertEquals(r.code, 0);
  match(r.stderr, /^auto-update skipped this launch: .*MANIFEST: no complete answer within [1-5] s$/m);
});
