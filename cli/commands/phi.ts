/**
 * PHI commands: `/phi-auto` (the session's auto-PHI mode), `/phi-sidecar` (`assist phi-sidecar`
 * on the command line), the lifecycle of the tier-5 redaction sidecar, and `/phi-reveal`
 * (`assist phi-reveal`), the operator's local reversal of tokens (cli/commands/_reveal.ts).
 *
 * @module
 */
import { lazy } from "../../core/lazy.ts";
import { AssistError, EXIT } from "../../core/errors.ts";
import type { AutoPhiMode } from "../../core/config.ts";
import type { Command } from "./types.ts";
import { hinter, home, needRepl } from "./_util.ts";

const MODES: Record<string, string> = {
  on: "every automatic tier tokenizes what it finds",
  off: "only manual markers and the HL7 sanitizer tokenize",
  confirm: "each value found automatically is asked about (Y/n)",
  strict: "as on, and a turn aborts when content cannot be sanitized",
};

/** The sidecar's subcommands, as phi/sidecar/lifecycle.ts defines them. */
const SIDECAR = "start|stop|status|health|ensure";

export const PHI_COMMANDS: readonly Command[] = [
  {
    name: "phi-auto",
    args: "on|off|confirm|strict|status",
    summary: "set or show the auto-PHI mode",
    group: "phi",
    minArgs: 0,
    maxArgs: 1,
    run(a, ctx) {
      const repl = needRepl(ctx, "phi-auto");
      const want = a[0]?.toLowerCase();
      if (want === undefined || want === "status") {
        ctx.io.out(`auto-PHI: ${repl.phiMode} (${MODES[repl.phiMode]})`);
        if (want === undefined) ctx.io.out("usage: /phi-auto on|off|confirm|strict|status");
        return Promise.resolve();
      }
      if (!(want in MODES)) {
        throw new AssistError(
          `unknown auto-PHI mode "${a[0]}" (usage: /phi-auto on|off|confirm|strict|status)`,
          {
            level: "usage",
          },
        );
      }
      repl.phiMode = want as AutoPhiMode;
      ctx.io.out(`auto-PHI: ${want} (${MODES[want]})`);
      return Promise.resolve();
    },
  },
  {
    name: "phi-sidecar",
    cli: ["phi-sidecar"],
    args: SIDECAR,
    summary: "the local PHI redaction sidecar (tier 5): start, stop, status, health, ensure",
    group: "phi",
    minArgs: 1,
    maxArgs: 1,
    async run(a, ctx) {
      const hint = await hinter(ctx);
      const { runSidecarCommand, SIDECAR_SUBCOMMANDS } = await lazy<
        typeof import("../../phi/sidecar/lifecycle.ts")
      >(import.meta.url, "../../phi/sidecar/lifecycle.ts");
      if (!(SIDECAR_SUBCOMMANDS as readonly string[]).includes(a[0])) {
        throw new AssistError(`usage: ${hint("phi-sidecar", [SIDECAR])} (got "${a[0]}")`, { level: "usage" });
      }
      await home(ctx);
      if (a[0] === "ensure") {
        // Building the venv takes minutes: say first which interpreter builds it, and where.
        const found = onPath("python3");
        ctx.io.out(
          `interpreter: python3 (${found ?? "not found on PATH"}); venv: ${ctx.config.phiVenv}`,
        );
      }
      const r = await runSidecarCommand(a[0], { config: ctx.config, hint });
      ctx.io.out(r.text);
      return r.ok ? EXIT.ok : EXIT.failure;
    },
  },
  {
    name: "phi-reveal",
    cli: ["phi-reveal"],
    args: "[FILE|-] [--output PATH]",
    summary: "put the values back into a text that quotes tokens (terminal or a file outside $ASSIST_HOME)",
    group: "phi",
    minArgs: 0,
    maxArgs: 3,
    completeArgs: "path",
    async run(a, ctx) {
      await home(ctx);
      const { reveal } = await lazy<typeof import("./_reveal.ts")>(import.meta.url, "./_reveal.ts");
      ctx.io.warn(await reveal(a, ctx));
      return EXIT.ok;
    },
  },
];

/** The file `name` runs as from PATH (with PATHEXT on Windows), or undefined. */
function onPath(name: string): string | undefined {
  const windows = Deno.build.os === "windows";
  const env = (n: string) => {
    try {
      return Deno.env.get(n);
    } catch {
      return undefined;
    }
  };
  const exts = windows ? (env("PATHEXT") ?? ".EXE;.CMD;.BAT").split(";") : [""];
  for (const dir of (env("PATH") ?? "").split(windows ? ";" : ":")) {
    if (dir === "") continue;
    for (const ext of exts) {
      const path = `${dir.replace(/[\\/]+$/, "")}${windows ? "\\" : "/"}${name}${ext}`;
      try {
        if (Deno.statSync(path).isFile) return path;
      } catch { /* not here */ }
    }
  }
  return undefined;
}
