/**
 * What the self-update costs.
 *
 * - "launch": a REPL start (`assist` with `/quit` piped in) from a source install copied from this
 *   repository, against the same start where the check is skipped (a `.git` beside main.ts: the
 *   baseline), with the origin up and current, down (connection refused), and hanging (the 3 s
 *   VERSION limit is the bound).
 * - "sync": a generated 48-file install against a local origin: the launch check when current
 *   (VERSION plus the local size check), a full sync with nothing changed (MANIFEST fetched, 48
 *   hashes compared, no download), and a sync of one changed file, against one plain GET of VERSION
 *   from the same origin (the baseline).
 */
import { syncSource } from "../update/sync.ts";
import { generateKeyPair } from "../update/signature.ts";
import { makeRelease, startOrigin, writeTree } from "../tests/support/origin.ts";
import { copyInstall, denoDir, installedArgs } from "../tests/update/_install.ts";

const keys = await generateKeyPair();
const tmp = await Deno.makeTempDir({ prefix: "assist-bench-update-" });

// ---- launch ---------------------------------------------------------------------------------
const checked = `${tmp}/checked`;
const skipped = `${tmp}/skipped`;
await copyInstall(checked);
await copyInstall(skipped);
await Deno.mkdir(`${skipped}/.git`);
const home = `${tmp}/home`;
await Deno.mkdir(home);
await Deno.writeTextFile(`${home}/.origin-key`, keys.publicKey);
const version = (await Deno.readTextFile(`${checked}/VERSION`)).trim();
await Deno.writeTextFile(`${home}/.last-sync-version`, `${version}\n`);
const current = new Map<string, Uint8Array>([["VERSION", new TextEncoder().encode(`${version}\n`)]]);
const up = startOrigin(current);
const hang = startOrigin(new Map(), { kind: "hang" });
const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
const downUrl = `http://127.0.0.1:${l.addr.port}/ops/assist`;
l.close();

async function start(root: string, baseUrl: string): Promise<void> {
  const child = new Deno.Command(Deno.execPath(), {
    args: installedArgs(root, []),
    clearEnv: true,
    env: {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      NO_COLOR: "1",
      ...denoDir(),
      ASSIST_HOME: home,
      ASSIST_BASE_URL: baseUrl,
    },
    stdin: "piped",
    stdout: "null",
    stderr: "null",
  }).spawn();
  const w = child.stdin.getWriter();
  await w.write(new TextEncoder().encode("/quit\n"));
  await w.close();
  const s = await child.status;
  if (!s.success) throw new Error(`exit ${s.code}`);
}

Deno.bench(
  "REPL start, check skipped (git checkout)",
  { group: "launch", baseline: true, n: 20 },
  async () => {
    await start(skipped, up.baseUrl);
  },
);
Deno.bench("REPL start, origin up and current", { group: "launch", n: 20 }, async () => {
  await start(checked, up.baseUrl);
});
Deno.bench("REPL start, origin down (refused)", { group: "launch", n: 20 }, async () => {
  await start(checked, downUrl);
});
Deno.bench(
  "REPL start, origin hanging (3 s VERSION limit)",
  { group: "launch", n: 2, warmup: 0 },
  async () => {
    await start(checked, hang.baseUrl);
  },
);

// ---- sync -----------------------------------------------------------------------------------
/** 48 generated source files of 2–8 KB. */
function files48(seed: number): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < 48; i++) {
    const size = 2048 + ((i * 7919) % 6144);
    out[`src/mod${String(i).padStart(2, "0")}.ts`] = `// module ${i}\n` +
      `export const v${i} = ${seed};\n`.repeat(size / 24);
  }
  return out;
}
const syncRoot = `${tmp}/sync-root`;
const syncHome = `${tmp}/sync-home`;
await Deno.mkdir(syncHome);
const base = files48(1);
const release1 = await makeRelease("1.0.0", base, { privateKey: keys.privatePem });
await writeTree(syncRoot, release1);
await Deno.writeTextFile(`${syncHome}/.last-sync-version`, "1.0.0\n");
const changedOne = await makeRelease("1.0.1", {
  ...base,
  "src/mod07.ts": base["src/mod07.ts"] + "// changed\n",
}, {
  privateKey: keys.privatePem,
});
const syncOrigin = startOrigin(release1);
const opts = {
  root: syncRoot,
  home: syncHome,
  client: { baseUrl: syncOrigin.baseUrl },
  trustedKeys: [keys.publicKey],
};

Deno.bench("one GET of VERSION", { group: "sync", baseline: true }, async () => {
  const r = await fetch(`${syncOrigin.baseUrl}/raw/branch/main/VERSION`);
  await r.arrayBuffer();
});
Deno.bench("launch check, current: VERSION + 48 local sizes", { group: "sync" }, async () => {
  syncOrigin.files = release1;
  const r = await syncSource(opts);
  if (r.status !== "current") throw new Error(r.status);
});
Deno.bench("48-file sync, nothing changed (MANIFEST, 48 hash compares)", { group: "sync" }, async () => {
  syncOrigin.files = release1;
  const r = await syncSource({ ...opts, force: true });
  if (r.changed.length !== 0) throw new Error("changed");
});
Deno.bench("48-file sync, one file changed", { group: "sync" }, async (b) => {
  // Put the old file back first (not timed), so each run replaces exactly one file.
  await Deno.writeFile(`${syncRoot}/src/mod07.ts`, release1.get("src/mod07.ts")!);
  await Deno.writeFile(`${syncRoot}/VERSION`, release1.get("VERSION")!);
  await Deno.writeTextFile(`${syncHome}/.last-sync-version`, "1.0.0\n");
  syncOrigin.files = changedOne;
  b.start();
  const r = await syncSource(opts);
  b.end();
  if (r.changed.join() !== "VERSION,src/mod07.ts") throw new Error(`changed ${r.changed}`);
});

globalThis.addEventListener("unload", () => {
  try {
    Deno.removeSync(tmp, { recursive: true });
  } catch { /* gone */ }
});
