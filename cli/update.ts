/**
 * The command-line side of self-update: the launch check before the REPL (`launchCheck`),
 * `assist update` (sync a source install, or swap a compiled binary, now) and `assist --check`
 * (the installed files against the MANIFEST; mismatches listed, exit 1). Output goes to stderr; the
 * origin token is handed to the fetch as a Secret and never printed.
 *
 * @module
 */
import { loadConfig } from "../core/config.ts";
import { lazy } from "../core/lazy.ts";
import { ensureHome } from "../core/home.ts";
import { describeError, EXIT } from "../core/errors.ts";
import { writeText } from "../core/term.ts";
import { VERSION } from "../core/version.ts";
import { progressPrinter } from "../update/progress.ts";
import {
  effectiveOrigin,
  isCheckout,
  isCompiled,
  launchSync,
  sourceRoot,
  trustedKeys,
} from "../update/launch.ts";
import { localManifest, localMismatches, syncSource } from "../update/sync.ts";

function err(s: string): void {
  try {
    writeText("stderr", s);
  } catch { /* no terminal */ }
}

function printers() {
  const p = progressPrinter(err, Deno.stderr.isTerminal());
  return { line: (s: string) => err(`${s}\n`), progress: p.report, progressDone: p.done };
}

/** The launch check before the REPL starts (update/launch.ts says what it does and why). */
export async function launchCheck(): Promise<void> {
  let config;
  try {
    config = loadConfig();
    await ensureHome(config.home);
  } catch {
    return; // a bad setting is reported by the REPL itself, with its fix
  }
  await launchSync({ home: config.home, baseUrl: config.baseUrl, token: config.originToken, ...printers() });
}

/** The text of `assist update --help`. */
export const UPDATE_HELP = [
  "usage: assist update [--force]",
  "",
  "Updates assist from the update origin now: a source install syncs its changed files (checked",
  "against the signed MANIFEST), a compiled binary is replaced by the release's binary.",
  "",
  "  --force      check every file by hash, and accept a release older than the installed one",
  "  --help, -h   print this help",
].join("\n") + "\n";

/** `assist update [--force]`. */
export async function runUpdate(args: string[]): Promise<number> {
  if (args.some((a) => a === "--help" || a === "-h")) {
    writeText("stdout", UPDATE_HELP);
    return EXIT.ok;
  }
  const force = args.includes("--force");
  if (args.some((a) => a !== "--force")) {
    err("usage: assist update [--force]\n");
    return EXIT.usage;
  }
  const config = loadConfig();
  await ensureHome(config.home);
  const origin = await effectiveOrigin(config.home, config.baseUrl);
  const out = printers();
  if (origin.warning) out.line(`assist: ${origin.warning}`);
  const keys = await trustedKeys(config.home, origin);
  const client = { baseUrl: origin.baseUrl, token: config.originToken };
  try {
    if (isCompiled()) {
      const { updateBinary, runVersion } = await lazy<typeof import("../update/binary.ts")>(
        import.meta.url,
        "../update/binary.ts",
      );
      const r = await updateBinary({
        exe: Deno.execPath(),
        home: config.home,
        client,
        trustedKeys: keys,
        force,
        probeAfter: runVersion,
        onDownload: (p, size) => out.line(`downloading ${p}${size ? ` (${Math.round(size / 1e6)} MB)` : ""}`),
      });
      if (r.status === "busy") {
        out.line("another assist is updating; try again in a moment");
        return EXIT.failure;
      }
      out.line(
        r.status === "updated"
          ? `updated to ${r.version}; restart assist to use it`
          : `assist ${VERSION} is current`,
      );
      return EXIT.ok;
    }
    const root = sourceRoot();
    if (await isCheckout(root)) {
      out.line(`${root} is a git checkout: update it with git (assist update syncs installed copies only)`);
      return EXIT.failure;
    }
    if (keys.length === 0) {
      out.line(
        `update: origin ${origin.baseUrl} is unsigned (no trusted key); files are checked by hash only`,
      );
    }
    const r = await syncSource({ root, home: config.home, client, trustedKeys: keys, force, ...out })
      .finally(out.progressDone);
    if (r.status === "busy") {
      out.line(`another assist (pid ${r.holder?.pid}) is updating; try again in a moment`);
      return EXIT.failure;
    }
    out.line(
      r.status === "updated"
        ? `updated to ${r.version} (${r.changed.length} file(s)); restart assist to use it`
        : `up to date with ${origin.baseUrl} (${r.version})`,
    );
    return EXIT.ok;
  } catch (e) {
    out.line(`assist update: ${describeError(e, config.debug)}`);
    return EXIT.failure;
  }
}

/** `assist --check`: the installed files against the install's MANIFEST. */
export async function runCheck(): Promise<number> {
  if (isCompiled()) {
    const config = loadConfig();
    const origin = await effectiveOrigin(config.home, config.baseUrl);
    const { checkBinary } = await lazy<typeof import("../update/binary.ts")>(
      import.meta.url,
      "../update/binary.ts",
    );
    try {
      const r = await checkBinary({
        exe: Deno.execPath(),
        client: { baseUrl: origin.baseUrl, token: config.originToken },
        trustedKeys: await trustedKeys(config.home, origin),
      });
      if (r.status === "match") {
        err(`assist --check: ${Deno.execPath()} matches ${r.path} of ${r.version} in the MANIFEST\n`);
        return EXIT.ok;
      }
      err(
        r.status === "mismatch"
          ? `hash differs: ${Deno.execPath()} (not ${r.path} of ${r.version}); assist update --force repairs it\n`
          : `assist --check: the origin has ${r.version}, this is ${VERSION}; assist update installs it\n`,
      );
    } catch (e) {
      err(`assist --check: ${describeError(e)}\n`);
    }
    return EXIT.failure;
  }
  const root = sourceRoot();
  const entries = await localManifest(root);
  if (entries.length === 0) {
    err(`assist --check: ${root}/MANIFEST is missing or unreadable; run assist update --force\n`);
    return EXIT.failure;
  }
  const bad = await localMismatches(root);
  for (const m of bad) err(`${m.problem === "missing" ? "missing" : `${m.problem} differs`}: ${m.path}\n`);
  const hashed = entries.filter((e) => e.sha256).length;
  if (bad.length) {
    err(
      `assist --check: ${bad.length} of ${entries.length} file(s) differ from MANIFEST; assist update --force repairs them\n`,
    );
    return EXIT.failure;
  }
  err(`assist --check: ${entries.length} file(s) match MANIFEST (${hashed} by hash)\n`);
  return EXIT.ok;
}
