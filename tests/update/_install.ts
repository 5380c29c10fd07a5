/**
 * Test helpers for whole-program update runs: a source install copied from this repository (its
 * shipped files and a MANIFEST, no .git), the next release of it, and the program run from the copy
 * under the shipped permission set.
 */
import { buildManifest, shippedFiles } from "../../update/release.ts";
import { makeRelease } from "../support/origin.ts";
import { REPO_ROOT, runCommand, type RunResult } from "../support/run_assist.ts";

const ROOT = REPO_ROOT.replace(/[\\/]$/, "");

/** Copies the shipped files of this repository into `dst` with a fresh MANIFEST. */
export async function copyInstall(dst: string): Promise<void> {
  for (const p of await shippedFiles(ROOT)) {
    const to = `${dst}/${p}`;
    await Deno.mkdir(to.slice(0, to.lastIndexOf("/")), { recursive: true });
    await Deno.copyFile(`${ROOT}/${p}`, to);
  }
  await Deno.writeTextFile(`${dst}/MANIFEST`, await buildManifest(dst));
}

/** The release after the installed one: three files changed, one added, VERSION and core/version.ts bumped. */
export async function nextRelease(installed: string, version: string, privateKey?: string) {
  const files: Record<string, Uint8Array> = {};
  for (const p of await shippedFiles(installed)) {
    if (p !== "VERSION") files[p] = await Deno.readFile(`${installed}/${p}`);
  }
  const enc = new TextEncoder();
  const dec = new TextDecoder();
  files["core/version.ts"] = enc.encode(
    dec.decode(files["core/version.ts"]).replace(/VERSION = "[^"]+"/, `VERSION = "${version}"`),
  );
  files["cli/help.ts"] = enc.encode(dec.decode(files["cli/help.ts"]) + `\n// release ${version}\n`);
  files["update/fetch.ts"] = enc.encode(dec.decode(files["update/fetch.ts"]) + `\n// release ${version}\n`);
  files["prompts/release-notes.md"] = enc.encode(`# ${version}\n`);
  return await makeRelease(version, files, { privateKey });
}

/** Runs the copied program (`deno run -P=assist` from the copy) with a clean environment. */
export function runInstalled(root: string, args: string[], env: Record<string, string>): Promise<RunResult> {
  return runCommand(Deno.execPath(), installedArgs(root, args), {
    clearEnv: true,
    env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", NO_COLOR: "1", ...denoDir(), ...env },
  });
}

export function installedArgs(root: string, args: string[]): string[] {
  return [
    "run",
    "-q",
    "--no-prompt",
    "-P=assist",
    "--config",
    `${root}/deno.json`,
    `${root}/main.ts`,
    ...args,
  ];
}

/** The test's own module cache, so the child does not download anything. */
export function denoDir(): Record<string, string> {
  const d = Deno.env.get("DENO_DIR");
  const home = Deno.env.get("HOME");
  return { ...(d ? { DENO_DIR: d } : {}), ...(home ? { HOME: home } : {}) };
}

/** Files under `root` whose name marks them as update leftovers (staging files, journals). */
export async function leftovers(root: string): Promise<string[]> {
  const out: string[] = [];
  async function walk(dir: string) {
    for await (const e of Deno.readDir(dir)) {
      const p = `${dir}/${e.name}`;
      if (e.isDirectory) await walk(p);
      else if (e.name.endsWith(".assist-new") || e.name.startsWith(".assist-update-journal")) out.push(p);
    }
  }
  await walk(root);
  return out;
}
