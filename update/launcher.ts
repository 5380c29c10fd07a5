/**
 * `deno task install`: writes an `assist` launcher into `ASSIST_BIN_DIR` (default `~/.local/bin`;
 * `%USERPROFILE%\.local\bin` on Windows) that starts this checkout with the pinned Deno directly, so
 * every later start asks no registry. README's `npx -y deno@... task ...` form is for the first run on
 * a fresh machine: npx asks the npm registry at every launch (about 0.5 s on a quiet machine, and with
 * the registry unreachable it fails after a minute although Deno is cached).
 *
 * What it writes:
 * - `<bin>/.assist-deno/deno` (`deno.exe`): a copy of the Deno that runs this task (npx keeps its own
 *   copy in a cache that `npm cache clean` may empty);
 * - `<bin>/assist` (a POSIX shell script) or `<bin>/assist.cmd` (Windows): runs that Deno with
 *   `run -q --no-prompt -P=assist --config <checkout>/deno.json <checkout>/main.ts "$@"`, with the
 *   copy's folder first on PATH (the SSH master re-runs `deno`, which the permission set names) and
 *   `DENO_DIR` set to the module cache this task used (so the npm packages are found offline).
 *
 * Each file is written whole (a temporary file renamed into place), the script with mode 0755.
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { atomicWrite } from "../core/atomic_write.ts";

/** What the launcher needs to know. */
export interface LauncherFacts {
  os: typeof Deno.build.os;
  /** The checkout (the folder of deno.json and main.ts). */
  checkout: string;
  /** The copied Deno's path. */
  deno: string;
  /** The module cache to use. */
  denoDir: string;
}

/**
 * The launcher script's text.
 *
 * @example
 * ```ts
 * import { launcherScript } from "./launcher.ts";
 * launcherScript({ os: "linux", checkout: "/src/assist", deno: "/b/.assist-deno/deno", denoDir: "/c/deno" });
 * ```
 */
export function launcherScript(f: LauncherFacts): string {
  if (f.os === "windows") {
    // `%` starts a variable in a .cmd file, also inside quotes: written `%%`.
    const c = (s: string) => s.replaceAll("%", "%%");
    f = { ...f, checkout: c(f.checkout), deno: c(f.deno), denoDir: c(f.denoDir) };
    const dir = f.deno.slice(0, f.deno.lastIndexOf("\\"));
    return [
      "@echo off",
      "rem assist launcher written by `deno task install`: runs this checkout with the pinned Deno.",
      "setlocal",
      `set "PATH=${dir};%PATH%"`,
      `set "DENO_DIR=${f.denoDir}"`,
      `"${f.deno}" run -q --no-prompt -P=assist --config "${f.checkout}\\deno.json" "${f.checkout}\\main.ts" %*`,
      "",
    ].join("\r\n");
  }
  const q = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;
  const dir = f.deno.slice(0, f.deno.lastIndexOf("/"));
  return [
    "#!/bin/sh",
    "# assist launcher written by `deno task install`: runs this checkout with the pinned Deno,",
    "# asking no registry at start.",
    `PATH=${q(dir)}:"$PATH"`,
    `DENO_DIR=${q(f.denoDir)}`,
    "export PATH DENO_DIR",
    `exec ${q(f.deno)} run -q --no-prompt -P=assist --config ${q(`${f.checkout}/deno.json`)} ${
      q(`${f.checkout}/main.ts`)
    } "$@"`,
    "",
  ].join("\n");
}

function binDir(os: typeof Deno.build.os): string {
  const set = Deno.env.get("ASSIST_BIN_DIR");
  if (set) return set;
  const home = os === "windows" ? Deno.env.get("USERPROFILE") : Deno.env.get("HOME");
  if (!home) throw new Error("neither ASSIST_BIN_DIR nor the home folder is set");
  return os === "windows" ? `${home}\\.local\\bin` : `${home}/.local/bin`;
}

/** Deno's module cache: `DENO_DIR`, else where Deno puts it by default on this system. */
function denoDirOf(os: typeof Deno.build.os): string {
  const env = (n: string) => Deno.env.get(n);
  const set = env("DENO_DIR");
  if (set) return set;
  if (os === "windows") return `${env("LOCALAPPDATA") ?? `${env("USERPROFILE")}\\AppData\\Local`}\\deno`;
  if (os === "darwin") return `${env("HOME")}/Library/Caches/deno`;
  return `${env("XDG_CACHE_HOME") ?? `${env("HOME")}/.cache`}/deno`;
}

if (import.meta.main) {
  const os = Deno.build.os;
  const sep = os === "windows" ? "\\" : "/";
  // The checkout's own path (spaces and other characters decoded; a drive letter on Windows).
  const root = fileURLToPath(new URL(".", new URL("..", import.meta.url))).replace(/[\\/]$/, "");
  try {
    const bin = binDir(os);
    const denoHome = `${bin}${sep}.assist-deno`;
    const deno = `${denoHome}${sep}deno${os === "windows" ? ".exe" : ""}`;
    await Deno.mkdir(denoHome, { recursive: true });
    if (Deno.execPath() !== deno) {
      const tmp = `${deno}.new-${Deno.pid}`;
      await Deno.copyFile(Deno.execPath(), tmp);
      if (os !== "windows") await Deno.chmod(tmp, 0o755);
      await Deno.rename(tmp, deno);
    }
    const denoDir = denoDirOf(os);
    const script = launcherScript({ os, checkout: root, deno, denoDir });
    const path = `${bin}${sep}assist${os === "windows" ? ".cmd" : ""}`;
    await atomicWrite(path, script, { mode: 0o755 });
    console.log(`assist: launcher written to ${path} (runs ${root} with Deno ${Deno.version.deno})`);
    const onPath = (Deno.env.get("PATH") ?? "").split(os === "windows" ? ";" : ":").includes(bin);
    if (!onPath) console.log(`assist: add ${bin} to PATH to run it as \`assist\``);
  } catch (err) {
    console.error(`assist: the launcher was not written: ${(err as Error).message}`);
    Deno.exit(1);
  }
}
