/**
 * `deno task install` (issue #26 item 1): the launcher it writes starts the program with the pinned
 * Deno directly, with no registry reachable, and prints no `Task ...` line.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { launcherScript } from "../../update/launcher.ts";
import { CONFIG, REPO_ROOT, tempDir } from "../support/run_assist.ts";

Deno.test("launcher: written by the install task, runs a tool with every registry refused", async () => {
  if (Deno.build.os === "windows") return; // the .cmd form is checked by its text below
  await using tmp = await tempDir();
  const bin = `${tmp.path}/bin`;
  const install = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-q", "--no-prompt", "-P=install", "--config", CONFIG, `${REPO_ROOT}/update/launcher.ts`],
    env: { ASSIST_BIN_DIR: bin },
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert(install.success, new TextDecoder().decode(install.stderr));
  assertEquals((await Deno.stat(`${bin}/assist`)).mode! & 0o777, 0o755);
  await Deno.writeTextFile(`${tmp.path}/m.hl7`, "MSH|^~\\&|A|B|C|D|2024||ADT^A01|MSG1|P|2.5\rPID|1||123\r");
  // A fresh home (no Deno cache of its own), every registry refused, a PATH without deno.
  const run = await new Deno.Command(`${bin}/assist`, {
    args: ["tools", "hl7_field", `${tmp.path}/m.hl7`, "MSH.10"],
    cwd: tmp.path,
    clearEnv: true,
    env: {
      HOME: `${tmp.path}/home`,
      PATH: "/usr/bin:/bin",
      NPM_CONFIG_REGISTRY: "http://127.0.0.1:9/",
      npm_config_registry: "http://127.0.0.1:9/",
      HTTPS_PROXY: "http://127.0.0.1:9/",
      HTTP_PROXY: "http://127.0.0.1:9/",
    },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stderr = new TextDecoder().decode(run.stderr);
  assertEquals(run.code, 0, stderr);
  assert(new TextDecoder().decode(run.stdout).includes("MSG1"));
  assert(!/\bTask\b/.test(stderr), stderr);
});

Deno.test("launcher: the script names the pinned Deno, the permission set, the checkout; .cmd on Windows", () => {
  const sh = launcherScript({
    os: "linux",
    checkout: "/src/it's here",
    deno: "/home/op/.local/bin/.assist-deno/deno",
    denoDir: "/home/op/.cache/deno",
  });
  assert(sh.startsWith("#!/bin/sh\n"));
  assert(sh.includes(`PATH='/home/op/.local/bin/.assist-deno':"$PATH"`), sh);
  assert(sh.includes("DENO_DIR='/home/op/.cache/deno'"), sh);
  assert(
    sh.includes(
      `exec '/home/op/.local/bin/.assist-deno/deno' run -q --no-prompt -P=assist --config '/src/it'\\''s here/deno.json' '/src/it'\\''s here/main.ts' "$@"`,
    ),
    sh,
  );
  const pct = launcherScript({
    os: "windows",
    checkout: "C:\\Users\\Ann 100%\\assist",
    deno: "C:\\Users\\Ann 100%\\bin\\.assist-deno\\deno.exe",
    denoDir: "C:\\cache",
  });
  assert(pct.includes('"C:\\Users\\Ann 100%%\\assist\\main.ts" %*'), pct);
  const cmd = launcherScript({
    os: "windows",
    checkout: "C:\\src\\assist",
    deno: "C:\\Users\\op\\.local\\bin\\.assist-deno\\deno.exe",
    denoDir: "C:\\Users\\op\\AppData\\Local\\deno",
  });
  assert(cmd.includes('set "PATH=C:\\Users\\op\\.local\\bin\\.assist-deno;%PATH%"\r\n'), cmd);
  assert(
    cmd.includes(
      '"C:\\Users\\op\\.local\\bin\\.assist-deno\\deno.exe" run -q --no-prompt -P=assist --config "C:\\src\\assist\\deno.json" "C:\\src\\assist\\main.ts" %*',
    ),
    cmd,
  );
});
