/**
 * The self-update of a compiled binary (update/binary.ts) against a local origin. The "binaries"
 * are small files with an ELF header and the version they report; the probe that stands in for
 * running `<file> --version` reads that version back (a real compiled binary cannot be built here:
 * `deno compile` needs a runtime download this machine cannot reach).
 */
import { deepStrictEqual as assertEquals, match, ok as assert, rejects } from "node:assert/strict";
import { checkBinary, runVersion, updateBinary, type VersionProbe } from "../../update/binary.ts";
import { generateKeyPair } from "../../update/signature.ts";
import { makeRelease, startOrigin } from "../support/origin.ts";
import { tempDir } from "../support/run_assist.ts";

const keys = await generateKeyPair();
const TARGET = "x86_64-linux";

/** An ELF header, then the version it "prints". */
function fakeBinary(version: string): Uint8Array {
  return new Uint8Array([0x7f, 0x45, 0x4c, 0x46, ...new TextEncoder().encode(`\nassist ${version}\n`)]);
}
const probe: VersionProbe = async (p) =>
  new TextDecoder().decode((await Deno.readFile(p)).subarray(5)).trim();

async function setup(body = fakeBinary("0.99.0")) {
  const dir = await tempDir("assist-bin-");
  const exe = `${dir.path}/bin/assist`;
  const home = `${dir.path}/home`;
  await Deno.mkdir(`${dir.path}/bin`);
  await Deno.mkdir(home);
  await Deno.writeFile(exe, fakeBinary("0.10.0"), { mode: 0o755 });
  const release = await makeRelease("0.99.0", { [`dist/${TARGET}/assist`]: body }, {
    privateKey: keys.privatePem,
  });
  return { dir, exe, home, release };
}

const base = (exe: string, home: string, baseUrl: string) => ({
  exe,
  home,
  client: { baseUrl },
  trustedKeys: [keys.publicKey],
  current: "0.10.0",
  os: "linux",
  target: TARGET,
  probe,
});

Deno.test("binary: a new release is checked, test-run, swapped in; .prev keeps the old one", async () => {
  const { dir, exe, home, release } = await setup();
  await using _d = dir;
  await using origin = startOrigin(release);
  const r = await updateBinary(base(exe, home, origin.baseUrl));
  assertEquals(r, { status: "updated", version: "0.99.0" });
  assertEquals(await Deno.readFile(exe), fakeBinary("0.99.0"));
  assertEquals(await Deno.readFile(`${exe}.prev`), fakeBinary("0.10.0"));
  assertEquals((await Deno.stat(exe)).mode! & 0o777, 0o755);
  assertEquals(await Deno.readTextFile(`${home}/.last-sync-version`), "0.99.0\n");
  assertEquals((await Array.fromAsync(Deno.readDir(`${dir.path}/bin`))).map((e) => e.name).sort(), [
    "assist",
    "assist.prev",
  ]);
  assertEquals(
    (await updateBinary({ ...base(exe, home, origin.baseUrl), current: "0.99.0" })).status,
    "current",
  );
});

for (
  const [name, body, re] of [
    [
      "a binary that reports another version",
      fakeBinary("0.98.0"),
      /says "assist 0\.98\.0", not "assist 0\.99\.0"/,
    ],
    [
      "a file that is not an executable",
      new TextEncoder().encode("#!/bin/sh\necho assist 0.99.0\n"),
      /not an executable/,
    ],
  ] as const
) {
  Deno.test(`binary: refused, the installed binary byte-identical: ${name}`, async () => {
    const { dir, exe, home, release } = await setup(body);
    await using _d = dir;
    await using origin = startOrigin(release);
    await rejects(updateBinary(base(exe, home, origin.baseUrl)), (e: Error) => {
      match(e.message, re);
      return true;
    });
    assertEquals(await Deno.readFile(exe), fakeBinary("0.10.0"));
    assertEquals((await Array.fromAsync(Deno.readDir(`${dir.path}/bin`))).map((e) => e.name), ["assist"]);
  });
}

Deno.test("binary: a wrong hash is refused before anything is written", async () => {
  const { dir, exe, home, release } = await setup();
  await using _d = dir;
  await using origin = startOrigin(release, {
    kind: "swap",
    path: `dist/${TARGET}/assist`,
    body: fakeBinary("0.66.6"),
  });
  await rejects(updateBinary(base(exe, home, origin.baseUrl)), /SHA-256 does not match/);
  assertEquals(await Deno.readFile(exe), fakeBinary("0.10.0"));
});

Deno.test("binary: where the permissions forbid running the staged file, it is checked after the swap and rolled back", async () => {
  const { dir, exe, home, release } = await setup();
  await using _d = dir;
  await using origin = startOrigin(release);
  const denied: VersionProbe = () => Promise.reject(new Deno.errors.NotCapable("Requires run access"));
  // `assist` on PATH answers with the old version: the swap is undone.
  await rejects(
    updateBinary({
      ...base(exe, home, origin.baseUrl),
      probe: denied,
      probeAfter: () => Promise.resolve("assist 0.10.0"),
    }),
    /did not answer "assist 0\.99\.0".*previous one is back/,
  );
  assertEquals(await Deno.readFile(exe), fakeBinary("0.10.0"));
  // It answers with the new one: kept.
  const r = await updateBinary({
    ...base(exe, home, origin.baseUrl),
    probe: denied,
    probeAfter: () => probe(exe),
  });
  assertEquals(r.status, "updated");
  assert((await Deno.readFile(exe)).length > 0);
  assertEquals(await Deno.readFile(exe), fakeBinary("0.99.0"));
});

Deno.test("binary --check: the running file against this platform's MANIFEST entry", async () => {
  const { dir, exe, release } = await setup(fakeBinary("0.10.0"));
  await using _d = dir;
  const same = await makeRelease("0.10.0", { [`dist/${TARGET}/assist`]: fakeBinary("0.10.0") }, {
    privateKey: keys.privatePem,
  });
  await using origin = startOrigin(same);
  const o = {
    exe,
    client: { baseUrl: origin.baseUrl },
    trustedKeys: [keys.publicKey],
    current: "0.10.0",
    target: TARGET,
  };
  assertEquals((await checkBinary(o)).status, "match");
  await Deno.writeFile(exe, fakeBinary("0.10.x"));
  assertEquals((await checkBinary(o)).status, "mismatch");
  origin.files = release;
  assertEquals(await checkBinary(o), {
    status: "other-release",
    version: "0.99.0",
    path: `dist/${TARGET}/assist`,
  });
});

Deno.test("binary: an older signed release (a replay) is refused unless forced", async () => {
  const { dir, exe, home } = await setup();
  await using _d = dir;
  const old = await makeRelease("0.9.0", { [`dist/${TARGET}/assist`]: fakeBinary("0.9.0") }, {
    privateKey: keys.privatePem,
  });
  await using origin = startOrigin(old);
  await rejects(
    updateBinary(base(exe, home, origin.baseUrl)),
    /the origin offers 0\.9\.0, older than the running 0\.10\.0 .*run assist update --force/,
  );
  assertEquals(await Deno.readFile(exe), fakeBinary("0.10.0"));
  const r = await updateBinary({ ...base(exe, home, origin.baseUrl), force: true });
  assertEquals(r, { status: "updated", version: "0.9.0" });
});

Deno.test("binary: an unsigned origin's older release is installed, as its sync would mirror it", async () => {
  const { dir, exe, home } = await setup();
  await using _d = dir;
  const old = await makeRelease("0.9.0", { [`dist/${TARGET}/assist`]: fakeBinary("0.9.0") });
  await using origin = startOrigin(old);
  const r = await updateBinary({ ...base(exe, home, origin.baseUrl), trustedKeys: [] });
  assertEquals(r, { status: "updated", version: "0.9.0" });
  assertEquals(await Deno.readFile(exe), fakeBinary("0.9.0"));
});

Deno.test("binary: the --version probe runs without the origin token or the API key in its environment", async () => {
  await using tmp = await tempDir("assist-probe-");
  const script = `${tmp.path}/fake-assist`;
  await Deno.writeTextFile(
    script,
    '#!/bin/sh\necho "assist ${ASSIST_ORIGIN_TOKEN:-no}-${ORIGIN_TOKEN:-no}-${ASSIST_API_KEY:-no}-${PATH:+path}"\n',
    { mode: 0o755 },
  );
  const names = ["ASSIST_ORIGIN_TOKEN", "ORIGIN_TOKEN", "ASSIST_API_KEY"];
  const saved = names.map((n) => Deno.env.get(n));
  names.forEach((n) => Deno.env.set(n, "s3cret"));
  try {
    assertEquals(await runVersion(script), "assist no-no-no-path");
  } finally {
    names.forEach((n, i) => saved[i] === undefined ? Deno.env.delete(n) : Deno.env.set(n, saved[i]!));
  }
});
