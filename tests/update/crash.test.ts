/**
 * Crash safety of the whole program: `assist update` run from a source install copied from this
 * repository, against a local origin holding the next release, killed with SIGKILL at every step of
 * the sync (a test-only crash point, update/crash.ts) and at random while the origin trickles a
 * file. After every kill the program runs, the tree is the old release or the new one (or a
 * journal that the next run completes), and the next run converges on the new release with no
 * staging file left.
 */
import { VERSION } from "../../core/version.ts";
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { generateKeyPair } from "../../update/signature.ts";
import { snapshot, startOrigin } from "../support/origin.ts";
import { tempDir } from "../support/run_assist.ts";
import { copyInstall, denoDir, installedArgs, leftovers, nextRelease, runInstalled } from "./_install.ts";

const keys = await generateKeyPair();

async function fixture() {
  const dir = await tempDir("assist-crash-");
  const root = `${dir.path}/install`;
  const home = `${dir.path}/home`;
  await Deno.mkdir(home, { recursive: true });
  await copyInstall(root);
  await Deno.writeTextFile(`${home}/.origin-key`, `${keys.publicKey}\n`);
  await Deno.writeTextFile(
    `${home}/.last-sync-version`,
    (await Deno.readTextFile(`${root}/VERSION`)).trim() + "\n",
  );
  const old = await snapshot(root);
  const release = await nextRelease(root, "0.99.0", keys.privatePem);
  return { dir, root, home, old, release };
}

/** Whether the tree holds exactly the release's files (extra files of the old tree allowed). */
function holds(tree: Map<string, Uint8Array>, files: Map<string, Uint8Array>): boolean {
  for (const [p, b] of files) {
    const t = tree.get(p);
    if (!t || t.length !== b.length || !t.every((x, i) => x === b[i])) return false;
  }
  return true;
}

/** The tree without staging files (which hold nothing live; the next run sweeps them). */
function live(tree: Map<string, Uint8Array>): Map<string, Uint8Array> {
  return new Map([...tree].filter(([p]) => !p.split("/").at(-1)!.endsWith(".assist-new")));
}

function sameTree(a: Map<string, Uint8Array>, b: Map<string, Uint8Array>): boolean {
  const l = live(a);
  return l.size === b.size && holds(l, b);
}

/** Runs `assist update` until it announces the crash point, then SIGKILLs it. */
async function killAt(root: string, env: Record<string, string>, step: string): Promise<void> {
  const child = new Deno.Command(Deno.execPath(), {
    args: installedArgs(root, ["update"]),
    clearEnv: true,
    env: {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      NO_COLOR: "1",
      ...denoDir(),
      ...env,
      ASSIST_TEST_CRASH_AT: step,
    },
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  let seen = "";
  const dec = new TextDecoder();
  for await (const chunk of child.stderr) {
    seen += dec.decode(chunk);
    if (seen.includes(`crash-point ${step}`)) break;
  }
  child.kill("SIGKILL");
  const status = await child.status;
  assert(seen.includes(`crash-point ${step}`), `never reached ${step}: ${seen}`);
  assertEquals(status.signal, "SIGKILL");
}

const STEPS = [
  "locked",
  "staged",
  "staged#3",
  "journal",
  "rename",
  "rename#3",
  "renamed",
  "journal-removed",
  "committed",
];

for (const step of STEPS) {
  Deno.test(`SIGKILL at ${step}: the program runs, then the next run converges with no staging left`, async () => {
    const { dir, root, home, old, release } = await fixture();
    await using _d = dir;
    await using origin = startOrigin(release);
    const env = { ASSIST_HOME: home, ASSIST_BASE_URL: origin.baseUrl };
    await killAt(root, env, step);

    const tree = await snapshot(root);
    const journal = tree.has(".assist-update-journal");
    assert(
      sameTree(tree, old) || holds(tree, release) || journal,
      `after ${step}: neither the old release, the new one, nor a journal to finish`,
    );
    const v = await runInstalled(root, ["--version"], env);
    assertEquals(v.code, 0, v.stderr);
    assert([`assist ${VERSION}\n`, "assist 0.99.0\n"].includes(v.stdout), v.stdout);

    const again = await runInstalled(root, ["update"], env);
    assertEquals(again.code, 0, again.stderr);
    const after = await snapshot(root);
    assert(holds(after, release), "converged on the new release");
    assertEquals(await leftovers(root), []);
    assertEquals(await Deno.readTextFile(`${home}/.last-sync-version`), "0.99.0\n");
    assertEquals((await runInstalled(root, ["--version"], env)).stdout, "assist 0.99.0\n");
    assertEquals((await runInstalled(root, ["--check"], env)).code, 0);
  });
}

Deno.test("SIGKILL at random points while the origin trickles a file: always old or new, always converges", async () => {
  const { dir, root, home, old, release } = await fixture();
  await using _d = dir;
  // cli/help.ts (one of the changed files, some 8 KB) trickles in over about a second.
  await using origin = startOrigin(release, { kind: "slow", path: "cli/help.ts", bytesPerSec: 8_000 });
  const env = { ASSIST_HOME: home, ASSIST_BASE_URL: origin.baseUrl };
  // Deterministic "random" delays (ms) spread over the run.
  const states = new Set<string>();
  for (const delay of [300, 700, 1100, 1500, 1900, 2500]) {
    await Deno.writeTextFile(`${home}/.last-sync-version`, `${VERSION}\n`);
    const child = new Deno.Command(Deno.execPath(), {
      args: installedArgs(root, ["update"]),
      clearEnv: true,
      env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", NO_COLOR: "1", ...denoDir(), ...env },
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
    await new Promise((r) => setTimeout(r, delay));
    try {
      child.kill("SIGKILL");
    } catch { /* already done */ }
    await child.status;
    const tree = await snapshot(root);
    assert(
      sameTree(tree, old) || holds(tree, release) || tree.has(".assist-update-journal"),
      `after a kill at ${delay} ms: a state the next run cannot repair`,
    );
    states.add(
      sameTree(tree, old) ? (live(tree).size === tree.size ? "old" : "old+staging") : "new or journal",
    );
    assertEquals((await runInstalled(root, ["--version"], env)).code, 0);
  }
  assert(states.has("old+staging"), `no kill landed mid-download: ${[...states]}`);
  origin.behaviour = { kind: "normal" };
  const again = await runInstalled(root, ["update"], env);
  assertEquals(again.code, 0, again.stderr);
  assert(holds(await snapshot(root), release));
  assertEquals(await leftovers(root), []);
});
