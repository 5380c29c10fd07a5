/**
 * install.sh as a new user meets it: a fresh HOME, a local origin serving this repository as a
 * signed release, `sh install.sh --source` (a compiled binary cannot be built on this machine:
 * `deno compile` downloads its runtime, which is unreachable here), then `assist` found on PATH, and
 * the next release on the origin picked up at the next start.
 */
import { VERSION } from "../../core/version.ts";
import { deepStrictEqual as assertEquals, match, ok as assert } from "node:assert/strict";
import { dirname } from "node:path";
import { generateKeyPair } from "../../update/signature.ts";
import { shippedFiles } from "../../update/release.ts";
import { makeRelease, startOrigin } from "../support/origin.ts";
import { REPO_ROOT, runCommand, tempDir } from "../support/run_assist.ts";
import { leftovers, nextRelease } from "./_install.ts";

const ROOT = REPO_ROOT.replace(/[\\/]$/, "");
const keys = await generateKeyPair();
const SYSTEM_PATH = `${dirname(Deno.execPath())}:/usr/local/bin:/usr/bin:/bin`;

async function thisRelease(privateKey?: string) {
  const files: Record<string, Uint8Array> = {};
  for (const p of await shippedFiles(ROOT)) {
    if (p !== "VERSION") files[p] = await Deno.readFile(`${ROOT}/${p}`);
  }
  return await makeRelease((await Deno.readTextFile(`${ROOT}/VERSION`)).trim(), files, { privateKey });
}

function sh(script: string, args: string[], env: Record<string, string>, cwd?: string) {
  return runCommand("sh", [script, ...args], {
    clearEnv: true,
    cwd,
    env: { PATH: SYSTEM_PATH, ...denoCache(), ...env },
  });
}

function denoCache(): Record<string, string> {
  const d = Deno.env.get("DENO_DIR") ?? `${Deno.env.get("HOME")}/.cache/deno`;
  return { DENO_DIR: d };
}

Deno.test("install.sh --source on a fresh HOME: assist on PATH, signed release verified; the next release arrives at the next start", async () => {
  await using tmp = await tempDir("assist-install-");
  const home = `${tmp.path}/home`;
  await Deno.mkdir(home);
  await using origin = startOrigin(await thisRelease(keys.privatePem));
  const env = { HOME: home, ASSIST_BASE_URL: origin.baseUrl, ASSIST_ORIGIN_KEY: keys.publicKey };
  const r = await sh(`${ROOT}/install.sh`, ["--source"], env, tmp.path);
  assertEquals(r.code, 0, r.stderr + r.stdout);
  match(r.stdout, /install: MANIFEST signature verified/);
  match(
    r.stdout,
    new RegExp(`install: assist ${VERSION.replaceAll(".", "\\.")} installed at .*/home/\\.local/bin/assist`),
  );
  match(r.stdout, /is not on PATH; add it: export PATH=/);

  // A new shell with the folder on PATH finds it.
  const bin = `${home}/.local/bin`;
  const withPath = { ...env, PATH: `${bin}:${SYSTEM_PATH}` };
  const v = await runCommand("sh", ["-c", "assist --version"], {
    clearEnv: true,
    env: { ...withPath, ...denoCache() },
  });
  assertEquals(v.stdout, `assist ${VERSION}\n`, v.stderr);
  assertEquals(
    (await runCommand("sh", ["-c", "assist --check"], {
      clearEnv: true,
      env: { ...withPath, ...denoCache() },
    })).code,
    0,
  );
  assertEquals((await Deno.readTextFile(`${home}/.assist/.origin-key`)).trim(), keys.publicKey);

  // The next release on the origin: the next start syncs it, the one after runs it.
  origin.files = await nextRelease(`${home}/.local/share/assist`, "0.99.0", keys.privatePem);
  const start = await runCommand("sh", ["-c", "assist"], {
    clearEnv: true,
    env: { ...withPath, ...denoCache(), ASSIST_BASE_URL: origin.baseUrl },
    stdin: "/quit\n",
  });
  assertEquals(start.code, 0, start.stderr);
  match(start.stderr, /^updated to 0\.99\.0 \(5 file\(s\)\); restart assist to use it$/m);
  const v2 = await runCommand("sh", ["-c", "assist --version"], {
    clearEnv: true,
    env: { ...withPath, ...denoCache() },
  });
  assertEquals(v2.stdout, "assist 0.99.0\n");
  assertEquals(await leftovers(`${home}/.local/share/assist`), []);
});

Deno.test("install.sh: an unreachable origin fails naming ASSIST_BASE_URL; refusals install nothing", async () => {
  await using tmp = await tempDir("assist-install-");
  const home = `${tmp.path}/home`;
  await Deno.mkdir(home);
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = l.addr.port;
  l.close();
  const down = await sh(`${ROOT}/install.sh`, ["--source"], {
    HOME: home,
    ASSIST_BASE_URL: `http://127.0.0.1:${port}/x`,
  });
  assertEquals(down.code, 1);
  match(
    down.stderr,
    /install: cannot reach the update origin http:\/\/127\.0\.0\.1:\d+\/x .*set ASSIST_BASE_URL/,
  );

  const cases: Array<[NonNullable<Parameters<typeof startOrigin>[1]>, RegExp, string?]> = [
    [{ kind: "html200", contentType: false }, /HTML page \(a sign-in page\?\): set ASSIST_ORIGIN_TOKEN/],
    [{ kind: "html200", contentType: true }, /HTML page/],
    // A page that opens with a comment (no content type, no sign-in title) is still a page.
    [
      {
        kind: "html200",
        contentType: false,
        body: "<!-- portal -->\n<HTML><head><title>Gitea</title></head></HTML>\n",
      },
      /HTML page \(a sign-in page\?\)/,
    ],
    [{ kind: "login302" }, /redirected to a sign-in page .*user\/login.*set ASSIST_ORIGIN_TOKEN/],
    [{ kind: "notFound" }, /not found \(HTTP 404\).*ASSIST_ORIGIN_TOKEN/],
    [
      { kind: "swap", path: "cli/help.ts", body: new TextEncoder().encode("// altered\n") },
      /cli\/help\.ts: size or SHA-256 does not match/,
    ],
    [{ kind: "normal" }, /signature does not verify with a trusted key; refused/, "wrong-key"],
  ];
  const other = await generateKeyPair();
  for (const [behaviour, re, variant] of cases) {
    await using origin = startOrigin(await thisRelease(keys.privatePem), behaviour);
    const r = await sh(`${ROOT}/install.sh`, ["--source"], {
      HOME: home,
      ASSIST_BASE_URL: origin.baseUrl,
      ASSIST_ORIGIN_KEY: variant === "wrong-key" ? other.publicKey : keys.publicKey,
    });
    assertEquals(r.code, 1, `${behaviour.kind}: ${r.stdout}${r.stderr}`);
    match(r.stderr, re);
    await Deno.stat(`${home}/.local/bin/assist`).then(() => assert(false, "installed anyway"), () => {});
  }
  // Binary mode on a release without this platform's binary says what to do.
  await using origin = startOrigin(await thisRelease(keys.privatePem));
  const b = await sh(`${ROOT}/install.sh`, [], {
    HOME: home,
    ASSIST_BASE_URL: origin.baseUrl,
    ASSIST_ORIGIN_KEY: keys.publicKey,
  });
  assertEquals(b.code, 1);
  match(b.stderr, /has no dist\/x86_64-linux\/assist \(no binary for this platform\); try --source/);
});

Deno.test("install.sh --source: a symbolic link inside the install folder is refused, nothing written through it", async () => {
  await using tmp = await tempDir("assist-install-");
  const home = `${tmp.path}/home`;
  const dir = `${home}/.local/share/assist`;
  const outside = `${tmp.path}/outside`;
  await Deno.mkdir(dir, { recursive: true });
  await Deno.mkdir(outside);
  await Deno.symlink(outside, `${dir}/cli`);
  await using origin = startOrigin(await thisRelease(keys.privatePem));
  const r = await sh(`${ROOT}/install.sh`, ["--source"], {
    HOME: home,
    ASSIST_BASE_URL: origin.baseUrl,
    ASSIST_ORIGIN_KEY: keys.publicKey,
  });
  assertEquals(r.code, 1, r.stdout + r.stderr);
  match(
    r.stderr,
    /install: refused, nothing written: cli\/\S+: \S+\/cli is a symbolic link inside the install folder/,
  );
  assertEquals([...Deno.readDirSync(outside)], []);
  assertEquals([...Deno.readDirSync(dir)].map((e) => e.name), ["cli"]);
});

Deno.test("install.sh --source: the installed program's --version check runs without the origin token", async () => {
  await using tmp = await tempDir("assist-install-");
  const home = `${tmp.path}/home`;
  await Deno.mkdir(home);
  // A tiny release whose main.ts says "leaked" when it can see a secret in its environment.
  const release = await makeRelease("1.2.3", {
    "deno.json": '{ "permissions": { "assist": { "env": true } } }\n',
    "main.ts":
      'const s = ["ASSIST_ORIGIN_TOKEN", "ORIGIN_TOKEN", "ASSIST_API_KEY"].some((n) => Deno.env.get(n));\n' +
      'console.log(s ? "leaked" : "assist 1.2.3");\n',
  }, { privateKey: keys.privatePem });
  await using origin = startOrigin(release, { kind: "tokenOnly", token: "tok-123" });
  const r = await sh(`${ROOT}/install.sh`, ["--source"], {
    HOME: home,
    ASSIST_BASE_URL: origin.baseUrl,
    ASSIST_ORIGIN_KEY: keys.publicKey,
    ASSIST_ORIGIN_TOKEN: "tok-123",
    ASSIST_API_KEY: "key-456",
  });
  assertEquals(r.code, 0, r.stdout + r.stderr);
  match(r.stdout, /install: assist 1\.2\.3 installed at/);
});

Deno.test("install.sh --source into a HOME with a space; a download failing mid-way leaves no staging file", async () => {
  await using tmp = await tempDir("assist-install-");
  const home = `${tmp.path}/my home`;
  await Deno.mkdir(home);
  const dir = `${home}/.local/share/assist`;
  await using origin = startOrigin(await thisRelease(keys.privatePem), {
    kind: "truncated",
    path: "cli/help.ts",
  });
  const env = { HOME: home, ASSIST_BASE_URL: origin.baseUrl, ASSIST_ORIGIN_KEY: keys.publicKey };
  const bad = await sh(`${ROOT}/install.sh`, ["--source"], env);
  assertEquals(bad.code, 1, bad.stdout + bad.stderr);
  match(bad.stderr, /cli\/help\.ts/);
  assertEquals(await leftovers(dir), []);
  assertEquals(await leftovers(`${home}/.local/bin`), []);
  await Deno.stat(`${home}/.local/bin/assist`).then(() => assert(false, "installed anyway"), () => {});

  origin.behaviour = { kind: "normal" };
  const r = await sh(`${ROOT}/install.sh`, ["--source"], env);
  assertEquals(r.code, 0, r.stdout + r.stderr);
  match(r.stdout, /installed at .*\/my home\/\.local\/bin\/assist/);
  assertEquals(await Deno.readFile(`${dir}/cli/help.ts`), await Deno.readFile(`${ROOT}/cli/help.ts`));
  assertEquals(await leftovers(dir), []);
  const v = await runCommand(`${home}/.local/bin/assist`, ["--version"], {
    clearEnv: true,
    env: { PATH: SYSTEM_PATH, HOME: home, ...denoCache() },
  });
  assertEquals(v.stdout, `assist ${VERSION}\n`, v.stderr);
});
