/**
 * The release side of the MANIFEST: which files ship, their `<path> <sha256> <size>` lines, and the
 * Ed25519 signature. Run through deno.json's tasks:
 *
 * - `deno task manifest` rewrites `MANIFEST` from the tree (after adding or removing a source file);
 *   tests/integration/manifest.test.ts fails when the committed MANIFEST disagrees with the tree.
 * - `deno task release` runs every `compile:*` task (a target that cannot be built is reported and
 *   left out), writes `MANIFEST` with the source files and `dist/<target>/assist[.exe]`, and signs it
 *   into `MANIFEST.sig` with the private key from the file named by `ASSIST_RELEASE_KEY_FILE` (PKCS#8
 *   PEM; never kept in the repository). Without a key it stops before writing MANIFEST.sig and says so.
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { formatManifest, type ManifestEntry, SHIPPED_DIRS, SHIPPED_TOP_FILES } from "./manifest.ts";
import { hashFile } from "./hash.ts";
import { signManifest } from "./signature.ts";

async function filesUnder(root: string, dir: string): Promise<string[]> {
  const out: string[] = [];
  let entries: Deno.DirEntry[];
  try {
    entries = await Array.fromAsync(Deno.readDir(`${root}/${dir}`));
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return out;
    throw err;
  }
  for (const e of entries) {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory) {
      if (e.name !== "__pycache__") out.push(...await filesUnder(root, rel));
    } else if (e.isFile && !e.name.endsWith(".new")) out.push(rel);
  }
  return out;
}

/** The shipped files of a tree (relative paths): the top files that exist and every file of the folders. */
export async function shippedFiles(root: string, includeDist = false): Promise<string[]> {
  const out: string[] = [];
  for (const f of SHIPPED_TOP_FILES) {
    if (await Deno.stat(`${root}/${f}`).then((i) => i.isFile, () => false)) out.push(f);
  }
  for (const d of SHIPPED_DIRS) out.push(...await filesUnder(root, d));
  if (includeDist) {
    out.push(...(await filesUnder(root, "dist")).filter((p) => /^dist\/[^/]+\/assist(\.exe)?$/.test(p)));
  }
  return out;
}

/**
 * The MANIFEST text of a tree.
 *
 * @example
 * ```ts
 * import { buildManifest } from "./release.ts";
 * const text: string = await buildManifest(".");
 * ```
 */
export async function buildManifest(root: string, includeDist = false): Promise<string> {
  const entries: ManifestEntry[] = [];
  for (const path of await shippedFiles(root, includeDist)) {
    const h = await hashFile(`${root}/${path}`);
    if (h) entries.push({ path, sha256: h.sha256, size: h.size });
  }
  return formatManifest(entries);
}

const TARGETS = ["x86_64-linux", "aarch64-linux", "x86_64-macos", "aarch64-macos", "x86_64-windows"];

async function main(args: string[]): Promise<number> {
  const root = fileURLToPath(new URL("../", import.meta.url)).replace(/[\\/]$/, "");
  const cmd = args[0];
  if (cmd === "manifest") {
    await Deno.writeTextFile(`${root}/MANIFEST`, await buildManifest(root));
    console.log(`MANIFEST written (${(await shippedFiles(root)).length} files)`);
    return 0;
  }
  if (cmd === "release") {
    const keyFile = Deno.env.get("ASSIST_RELEASE_KEY_FILE");
    const built: string[] = [];
    for (const t of TARGETS) {
      const out = await new Deno.Command("deno", {
        args: ["task", "-q", `compile:${t}`],
        cwd: root,
        stdout: "inherit",
        stderr: "piped",
      }).output();
      if (out.success) built.push(t);
      else {
        // deno's own error lines (ANSI colours removed): the first and its innermost cause.
        // deno-lint-ignore no-control-regex -- ESC starts the colour codes removed here
        const lines = new TextDecoder().decode(out.stderr).replace(new RegExp("\\x1b\\[[0-9;]*m", "g"), "")
          .split("\n")
          .map((l) => l.trim()).filter((l) => /error/i.test(l));
        const why = [...new Set([lines[0], lines.at(-1)])].filter(Boolean).join(" / ");
        console.error(`release: compile:${t} failed, left out (${why})`);
      }
    }
    const text = await buildManifest(root, true);
    await Deno.writeTextFile(`${root}/MANIFEST`, text);
    console.log(`MANIFEST written; binaries: ${built.length ? built.join(", ") : "none"}`);
    if (!keyFile) {
      console.error(
        "release: ASSIST_RELEASE_KEY_FILE is unset; MANIFEST.sig not written (the release is unsigned)",
      );
      return 1;
    }
    const { sigLine, publicKey } = await signManifest(
      new TextEncoder().encode(text),
      await Deno.readTextFile(keyFile),
    );
    await Deno.writeTextFile(`${root}/MANIFEST.sig`, sigLine);
    console.log(`MANIFEST.sig written (public key ${publicKey})`);
    return built.length === TARGETS.length ? 0 : 1;
  }
  console.error("usage: deno run -P=release update/release.ts manifest|release");
  return 2;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
