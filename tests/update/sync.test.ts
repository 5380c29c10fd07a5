/**
 * The source-install sync against a real local origin (tests/support/origin.ts): a normal release,
 * a no-op second run, and every bad answer the issue lists, after each of which the installed files
 * are byte-identical and `.last-sync-version` unchanged.
 */
import { deepStrictEqual as assertEquals, match, ok as assert, rejects } from "node:assert/strict";
import { Secret } from "../../core/secret.ts";
import { UpdateError } from "../../update/fetch.ts";
import { generateKeyPair } from "../../update/signature.ts";
import { recover, stagedPath, syncSource } from "../../update/sync.ts";
import type { ProgressEvent } from "../../update/progress.ts";
import { makeRelease, snapshot, startOrigin, writeTree } from "../support/origin.ts";
import { tempDir } from "../support/run_assist.ts";

const OLD = {
  "main.ts": "/** old main */\nconsole.log(1);\n",
  "deno.json": '{ "tasks": {} }\n',
  "cli/util.ts": "export const util = 1;\n",
  "cli/help.ts": "export const help = 'old';\n",
  "prompts/system.md": "# system\nold prompt\n",
  "install.sh": "#!/bin/sh\necho old\n",
};
const NEW = {
  ...OLD,
  "cli/help.ts": "export const help = 'new';\n",
  "cli/added.ts": "export const added = true;\n",
};

const keys = await generateKeyPair();

async function setup(signed = true) {
  const dir = await tempDir("assist-sync-");
  const root = `${dir.path}/install`;
  const home = `${dir.path}/home`;
  await Deno.mkdir(home, { recursive: true });
  const old = await makeRelease("0.9.0", OLD, { privateKey: keys.privatePem });
  await writeTree(root, old);
  await Deno.writeTextFile(`${home}/.last-sync-version`, "0.9.0\n");
  const release = await makeRelease("0.9.1", NEW, signed ? { privateKey: keys.privatePem } : {});
  return { dir, root, home, release };
}

function opts(
  root: string,
  home: string,
  baseUrl: string,
  extra: Partial<Parameters<typeof syncSource>[0]> = {},
) {
  return { root, home, client: { baseUrl }, trustedKeys: [keys.publicKey], ...extra };
}

Deno.test("a release syncs: only changed files replaced, MANIFEST and .last-sync-version last; a rerun fetches VERSION only", async () => {
  const { dir, root, home, release } = await setup();
  await using _d = dir;
  await using origin = startOrigin(release);
  const mainIno = (await Deno.stat(`${root}/main.ts`)).ino;
  const events: ProgressEvent[] = [];
  const r = await syncSource(opts(root, home, origin.baseUrl, { progress: (e) => events.push(e) }));
  assertEquals(r.status, "updated");
  assertEquals(r.version, "0.9.1");
  assertEquals(r.changed.sort(), ["VERSION", "cli/added.ts", "cli/help.ts"]);
  const tree = await snapshot(root);
  for (const [p, b] of release) assertEquals(tree.get(p), b, p);
  assertEquals((await Deno.stat(`${root}/main.ts`)).ino, mainIno, "an unchanged file is not rewritten");
  assertEquals(await Deno.readTextFile(`${home}/.last-sync-version`), "0.9.1\n");
  assert(
    ![...tree.keys()].some((p) => p.endsWith(".assist-new") || p.includes("journal")),
    "no staging left",
  );
  assertEquals(events.filter((e) => e.phase === "downloading").map((e) => e.path).sort(), r.changed.sort());
  assertEquals(events.filter((e) => e.phase === "checking").length, 8);

  origin.requests.length = 0;
  const again = await syncSource(opts(root, home, origin.baseUrl));
  assertEquals(again.status, "current");
  assertEquals(origin.requests.map((q) => q.path), ["/ops/assist/raw/branch/main/VERSION"]);
});

Deno.test("a local file that no longer matches its MANIFEST is repaired even when the version is current", async () => {
  const { dir, root, home, release } = await setup();
  await using _d = dir;
  await using origin = startOrigin(release);
  await syncSource(opts(root, home, origin.baseUrl));
  await Deno.writeTextFile(`${root}/cli/help.ts`, "tampered\n");
  const r = await syncSource(opts(root, home, origin.baseUrl));
  assertEquals(r.changed, ["cli/help.ts"]);
  assertEquals(await Deno.readFile(`${root}/cli/help.ts`), release.get("cli/help.ts"));
  // Same size, other bytes: the launch check compares sizes only; --force compares every hash.
  await Deno.writeTextFile(`${root}/cli/help.ts`, "export const help = 'bad';\n");
  assertEquals((await syncSource(opts(root, home, origin.baseUrl))).changed, []);
  assertEquals((await syncSource(opts(root, home, origin.baseUrl, { force: true }))).changed, [
    "cli/help.ts",
  ]);
  assertEquals(await Deno.readFile(`${root}/cli/help.ts`), release.get("cli/help.ts"));
});

/** Runs a sync that must fail; the installed tree and the marker stay byte-identical. */
function refused(
  name: string,
  build: (release: Map<string, Uint8Array>) => Promise<Map<string, Uint8Array>> | Map<string, Uint8Array>,
  behaviour: Parameters<typeof startOrigin>[1],
  message: RegExp,
  extra: Partial<Parameters<typeof syncSource>[0]> = {},
) {
  Deno.test(`refused, nothing written: ${name}`, async () => {
    const { dir, root, home, release } = await setup();
    await using _d = dir;
    await using origin = startOrigin(await build(release), behaviour);
    const before = await snapshot(root);
    await rejects(syncSource(opts(root, home, origin.baseUrl, extra)), (err: Error) => {
      assert(err instanceof UpdateError, String(err));
      match(err.message, message);
      return true;
    });
    assertEquals(await snapshot(root), before);
    assertEquals(await Deno.readTextFile(`${home}/.last-sync-version`), "0.9.0\n");
    const lock = await Deno.open(`${home}/.update.lock`, { read: true, write: true });
    assert(await lock.tryLock(true), "the lock was released");
    lock.close();
  });
}

const same = (r: Map<string, Uint8Array>) => r;
// Issue 26 item 13: an origin answering a version string for every path served a one-line MANIFEST
// ("0.12.9") that parsed as a path-only entry, so the sync wrote a file named 0.12.9 into the root
// and replaced MANIFEST with it. Unsigned, as such an origin is.
refused(
  "an origin answering a version string for every path (unsigned)",
  same,
  { kind: "sameForEvery", body: "0.12.9\n" },
  /MANIFEST lists none of VERSION, main\.ts, deno\.json: not a release of assist/,
  { trustedKeys: [] },
);
refused(
  "a MANIFEST without the program's entry files",
  () =>
    makeRelease("0.9.1", { "cli/help.ts": "export const help = 'x';\n" }, { privateKey: keys.privatePem }),
  { kind: "normal" },
  /MANIFEST does not list main\.ts, deno\.json: not a release of assist/,
);
refused(
  "a signed release that would leave out most of the installed files",
  () =>
    makeRelease("0.9.1", { "main.ts": OLD["main.ts"], "deno.json": OLD["deno.json"] }, {
      privateKey: keys.privatePem,
    }),
  { kind: "normal" },
  /MANIFEST leaves out 4 of the 7 files installed; refused, nothing written/,
);
refused(
  "an HTML sign-in page at 200 with text/html",
  same,
  { kind: "html200", contentType: true },
  /HTML page.*ASSIST_ORIGIN_TOKEN/,
);
refused(
  "an HTML sign-in page at 200 without text/html",
  same,
  { kind: "html200", contentType: false },
  /HTML page.*ASSIST_ORIGIN_TOKEN/,
);
refused(
  "a 302 to /user/login",
  same,
  { kind: "login302" },
  /redirected to a sign-in page .*\/user\/login.*set ASSIST_ORIGIN_TOKEN/,
);
refused("404", same, { kind: "notFound" }, /not found \(HTTP 404\).*ASSIST_BASE_URL.*ASSIST_ORIGIN_TOKEN/);
refused(
  "a truncated body",
  same,
  { kind: "truncated", path: "cli/help.ts" },
  /cli\/help\.ts.*(cut off|truncated)/,
);
refused(
  "a wrong hash",
  same,
  { kind: "swap", path: "cli/help.ts", body: new TextEncoder().encode("export const help = 'bad';\n") },
  /cli\/help\.ts: the SHA-256 does not match/,
);
refused(
  "a wrong size",
  same,
  { kind: "swap", path: "cli/help.ts", body: new TextEncoder().encode("x\n") },
  /cli\/help\.ts: 2 bytes where the MANIFEST says/,
);
refused(
  "a bad signature",
  async (_r) => {
    const other = await generateKeyPair();
    const forged = await makeRelease("0.9.1", { ...NEW, "cli/help.ts": "evil\n" }, {
      privateKey: other.privatePem,
    });
    return forged;
  },
  { kind: "normal" },
  /signature does not verify with a trusted key/,
);
refused(
  "a MANIFEST altered after signing",
  (r) => {
    const m = new Map(r);
    m.set(
      "MANIFEST",
      new TextEncoder().encode(
        new TextDecoder().decode(r.get("MANIFEST")!).replace("cli/added.ts", "cli/addee.ts"),
      ),
    );
    return m;
  },
  { kind: "normal" },
  /signature does not verify/,
);
refused(
  "a missing signature",
  (r) => {
    const m = new Map(r);
    m.delete("MANIFEST.sig");
    return m;
  },
  { kind: "normal" },
  /MANIFEST is not signed .*refused: this origin has a trusted key/,
);
refused(
  "a body slower than the per-file limit",
  same,
  { kind: "slow", path: "cli/help.ts", bytesPerSec: 20 },
  /cli\/help\.ts: no complete answer within 1 s/,
  { perFileMs: () => 1000 },
);
for (
  const [label, bad] of [["../x", "../x"], ["/etc/x", "/etc/x"], ["C:\\x", "C:\\x"], [
    "a/../../x",
    "a/../../x",
  ]]
) {
  refused(
    `a MANIFEST entry ${label} that leaves the root`,
    (r) => {
      const m = new Map(r);
      m.set(
        "MANIFEST",
        new TextEncoder().encode(
          new TextDecoder().decode(r.get("MANIFEST")!) + `${bad} ${"0".repeat(64)} 1\n`,
        ),
      );
      return m;
    },
    { kind: "normal" },
    /MANIFEST is refused: MANIFEST line \d+: the path .* (leaves the install root|is absolute|holds a backslash)/,
    {
      trustedKeys: [],
    },
  );
}
refused(
  "a Git LFS pointer (a path-only MANIFEST, checked by kind)",
  (r) => {
    const m = new Map(r);
    const lfs = "version https://git-lfs.github.com/spec/v1\noid sha256:abc\nsize 12\n";
    m.set("cli/help.ts", new TextEncoder().encode(lfs));
    m.set(
      "MANIFEST",
      new TextEncoder().encode(
        [...r.keys()].filter((p) => !p.startsWith("MANIFEST")).sort().join("\n") + "\n",
      ),
    );
    return m;
  },
  { kind: "normal" },
  /cli\/help\.ts is a Git LFS pointer/,
  { trustedKeys: [] },
);
refused(
  "a VERSION that is not a semantic version",
  (r) => {
    const m = new Map(r);
    m.set("VERSION", new TextEncoder().encode("latest\n"));
    return m;
  },
  { kind: "normal" },
  /VERSION.*not a semantic version/,
);

Deno.test("an unsigned origin without a trusted key still syncs, checked by hash", async () => {
  const { dir, root, home, release } = await setup(false);
  await using _d = dir;
  await using origin = startOrigin(release);
  const r = await syncSource(opts(root, home, origin.baseUrl, { trustedKeys: [] }));
  assertEquals(r.status, "updated");
  assertEquals(r.signed, false);
});

Deno.test("an unsigned origin offering an older version is mirrored, as the spec's sync does", async () => {
  const { dir, root, home } = await setup();
  await using _d = dir;
  // The origin serves 0.8.20 (no key, so nothing tells a replay from the origin's own choice).
  const older = await makeRelease("0.8.20", { ...OLD, "cli/help.ts": "export const help = 'origin';\n" });
  await using origin = startOrigin(older);
  const r = await syncSource(opts(root, home, origin.baseUrl, { trustedKeys: [] }));
  assertEquals([r.status, r.version, r.signed], ["updated", "0.8.20", false]);
  assertEquals(await Deno.readTextFile(`${root}/VERSION`), "0.8.20\n");
  assertEquals(await Deno.readTextFile(`${root}/cli/help.ts`), "export const help = 'origin';\n");
  // Only what differed was replaced, and a rerun finds it current.
  assertEquals(r.changed.sort(), ["VERSION", "cli/help.ts"]);
  assertEquals((await syncSource(opts(root, home, origin.baseUrl, { trustedKeys: [] }))).status, "current");
});

Deno.test("a token-only origin: 404 without the token, synced with it; the token stays on the origin's host", async () => {
  const token = "tok-SECRET-4242";
  const { dir, root, home, release } = await setup();
  await using _d = dir;
  await using origin = startOrigin(release, { kind: "tokenOnly", token });
  const before = await snapshot(root);
  await rejects(syncSource(opts(root, home, origin.baseUrl)), (e: Error) => {
    match(e.message, /HTTP 404.*set ASSIST_ORIGIN_TOKEN/);
    assert(!e.message.includes(token));
    return true;
  });
  assertEquals(await snapshot(root), before);
  const client = { baseUrl: origin.baseUrl, token: new Secret(token) };
  const r = await syncSource({ ...opts(root, home, origin.baseUrl), client });
  assertEquals(r.status, "updated");
  assert(origin.requests.filter((q) => q.authorization).every((q) => q.authorization === `token ${token}`));

  // A redirect to another origin: followed without the token.
  await using other = startOrigin(release);
  await using hop = startOrigin(release, { kind: "redirectTo", base: new URL(other.baseUrl).origin });
  await Deno.writeTextFile(`${home}/.last-sync-version`, "0.0.1\n");
  await syncSource({
    ...opts(root, home, hop.baseUrl),
    client: { baseUrl: hop.baseUrl, token: new Secret(token) },
  });
  assert(hop.requests.every((q) => q.authorization === `token ${token}`));
  assert(
    other.requests.length > 0 && other.requests.every((q) => q.authorization === null),
    "token crossed origins",
  );
});

Deno.test("a held lock: a second sync is busy and touches nothing; a lock file nobody holds is no lock", async () => {
  const { dir, root, home, release } = await setup();
  await using _d = dir;
  await using origin = startOrigin(release);
  // Another process holds the lock (as a running updater would).
  const holder = new Deno.Command(Deno.execPath(), {
    args: [
      "eval",
      `const f = await Deno.open(${JSON.stringify(`${home}/.update.lock`)}, { write: true, create: true });
      await f.lock(true); await f.write(new TextEncoder().encode('{"pid":' + Deno.pid + ',"version":"x","at":1}'));
      console.log("held"); await new Promise((r) => setTimeout(r, 60000));`,
    ],
    stdout: "piped",
  }).spawn();
  const reader = holder.stdout.getReader();
  await reader.read();
  const r = await syncSource(opts(root, home, origin.baseUrl));
  assertEquals(r.status, "busy");
  assertEquals(r.holder?.pid, holder.pid);
  assertEquals(origin.requests.length, 0);
  holder.kill("SIGKILL");
  await holder.status;
  reader.releaseLock();
  await holder.stdout.cancel();
  // Its process is gone, the file stays: the OS lock went with the process.
  assertEquals((await syncSource(opts(root, home, origin.baseUrl))).status, "updated");
});

Deno.test("stray staging files and a leftover journal are cleaned up by the next sync", async () => {
  const { dir, root, home, release } = await setup();
  await using _d = dir;
  await using origin = startOrigin(release);
  await Deno.writeTextFile(stagedPath(`${root}/cli/help.ts`), "half");
  const r = await syncSource(opts(root, home, origin.baseUrl));
  assertEquals(r.status, "updated");
  const tree = await snapshot(root);
  assert(![...tree.keys()].some((p) => p.endsWith(".assist-new")), [...tree.keys()].join(" "));
});

Deno.test("a shipped file that quotes a sign-in page syncs: its hash vouches for it", async () => {
  const { dir, root, home } = await setup();
  await using _d = dir;
  const page = "<!DOCTYPE html><html><title>Sign In</title></html>\n";
  const release = await makeRelease("0.9.1", { ...NEW, "prompts/page.md": page }, {
    privateKey: keys.privatePem,
  });
  await using origin = startOrigin(release);
  const r = await syncSource(opts(root, home, origin.baseUrl));
  assert(r.changed.includes("prompts/page.md"));
  assertEquals(await Deno.readTextFile(`${root}/prompts/page.md`), page);
});

Deno.test("a symbolic link inside the install root is refused before anything is written", async () => {
  const { dir, root, home, release } = await setup();
  await using _d = dir;
  await using origin = startOrigin(release);
  const outside = `${dir.path}/outside`;
  await Deno.mkdir(outside);
  // A folder of the release replaced by a link to a folder outside the root.
  await Deno.remove(`${root}/cli`, { recursive: true });
  await Deno.symlink(outside, `${root}/cli`);
  const before = await snapshot(root);
  await rejects(syncSource(opts(root, home, origin.baseUrl)), (e: Error) => {
    match(
      e.message,
      /^refused, nothing written: cli\/\S+: \S+\/cli is a symbolic link inside the install root/,
    );
    return true;
  });
  assertEquals([...Deno.readDirSync(outside)], [], "nothing written outside the root");
  assertEquals(await snapshot(root), before);
  assertEquals((await Deno.readTextFile(`${home}/.last-sync-version`)).trim(), "0.9.0");
  // A linked file (the target itself) is refused the same way.
  await Deno.remove(`${root}/cli`);
  await Deno.mkdir(`${root}/cli`);
  await Deno.writeTextFile(`${outside}/victim`, "keep\n");
  await Deno.symlink(`${outside}/victim`, `${root}/cli/help.ts`);
  await rejects(syncSource(opts(root, home, origin.baseUrl)), /cli\/help\.ts: \S+ is a symbolic link/);
  assertEquals(await Deno.readTextFile(`${outside}/victim`), "keep\n");
});

Deno.test("recover never renames through a symbolic link a journal names", async () => {
  const { dir, root, home: _h } = await setup();
  await using _d = dir;
  const outside = `${dir.path}/outside`;
  await Deno.mkdir(outside);
  await Deno.writeTextFile(`${outside}/victim.ts`, "keep\n");
  await Deno.writeTextFile(`${outside}/.victim.ts.assist-new`, "evil\n");
  await Deno.symlink(outside, `${root}/lib`);
  const t = `${root}/lib/victim.ts`;
  await Deno.writeTextFile(`${root}/.assist-update-journal`, JSON.stringify({ moves: [[stagedPath(t), t]] }));
  const r = await recover(root);
  assertEquals(r.rolledForward, 0);
  assertEquals(await Deno.readTextFile(`${outside}/victim.ts`), "keep\n");
});

Deno.test("an older signed release (a replay) is refused unless forced", async () => {
  const { dir, root, home } = await setup();
  await using _d = dir;
  const old = await makeRelease("0.8.5", { ...OLD, "cli/help.ts": "export const help = 'vulnerable';\n" }, {
    privateKey: keys.privatePem,
  });
  await using origin = startOrigin(old);
  const before = await snapshot(root);
  await rejects(syncSource(opts(root, home, origin.baseUrl)), (e: Error) => {
    assertEquals(
      e.message,
      "the origin offers 0.8.5, older than the running 0.9.0 (a replayed old release?); " +
        "refused: run assist update --force to install it anyway",
    );
    return true;
  });
  assertEquals(await snapshot(root), before);
  assertEquals(origin.requests.map((q) => q.path), ["/ops/assist/raw/branch/main/VERSION"]);
  const r = await syncSource(opts(root, home, origin.baseUrl, { force: true }));
  assertEquals(r.status, "updated");
  assertEquals(await Deno.readTextFile(`${root}/cli/help.ts`), "export const help = 'vulnerable';\n");
});

Deno.test("two syncs of one install root from two homes: one syncs, the other is busy", async () => {
  const { dir, root, home, release } = await setup();
  await using _d = dir;
  const home2 = `${dir.path}/home2`;
  await Deno.mkdir(home2);
  const big = await makeRelease("0.9.1", { ...NEW, "cli/big.ts": `// ${"x".repeat(3000)}\n` }, {
    privateKey: keys.privatePem,
  });
  await using origin = startOrigin(big, { kind: "slow", path: "cli/big.ts", bytesPerSec: 6000 });
  const [a, b] = await Promise.all([
    syncSource(opts(root, home, origin.baseUrl)),
    syncSource(opts(root, home2, origin.baseUrl)),
  ]);
  assertEquals([a.status, b.status].sort(), ["busy", "updated"]);
  assert(release.size > 0);
  assertEquals(await Deno.readTextFile(`${root}/cli/big.ts`), `// ${"x".repeat(3000)}\n`);
});

Deno.test("the spec's MANIFEST form (paths only, no signature): each file fetched, only changed ones replaced", async () => {
  const { dir, root, home, release } = await setup(false);
  await using _d = dir;
  // What an origin built from the spec serves: VERSION, a MANIFEST of paths, the files.
  const pathsOnly = new Map(release);
  pathsOnly.set(
    "MANIFEST",
    new TextEncoder().encode([...release.keys()].filter((p) => p !== "MANIFEST").join("\n") + "\n"),
  );
  await using origin = startOrigin(pathsOnly);
  const mainIno = (await Deno.stat(`${root}/main.ts`)).ino;
  const r = await syncSource(opts(root, home, origin.baseUrl, { trustedKeys: [] }));
  assertEquals(r.status, "updated");
  assertEquals(r.changed.sort(), ["VERSION", "cli/added.ts", "cli/help.ts"]);
  const tree = await snapshot(root);
  for (const [p, b] of pathsOnly) assertEquals(tree.get(p), b, p);
  assertEquals((await Deno.stat(`${root}/main.ts`)).ino, mainIno, "an unchanged file is not rewritten");
  // Every listed file was downloaded and compared (the spec: "each file is downloaded and compared").
  const fetched = new Set(origin.requests.map((q) => q.path.replace(/^.*\/raw\/branch\/main\//, "")));
  for (const p of release.keys()) if (p !== "MANIFEST.sig") assert(fetched.has(p), `not fetched: ${p}`);
  assertEquals(await Deno.readTextFile(`${home}/.last-sync-version`), "0.9.1\n");
});
