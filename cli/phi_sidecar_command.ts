/**
 * `assist phi-sidecar <start|stop|status|health|ensure>`: the command-line form of /phi-sidecar, so
 * the tier-5 sidecar can be run on a jump box without the REPL. One line (or a few) on stdout;
 * exit 0 when the operation succeeded, 1 when not, 2 for bad usage.
 */
import { AssistError, EXIT } from "../core/errors.ts";
import { loadConfig } from "../core/config.ts";
import { ensureHome } from "../core/home.ts";
import { runSidecarCommand, SIDECAR_SUBCOMMANDS } from "../phi/sidecar/lifecycle.ts";

export async function runPhiSidecar(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  const usage = `usage: assist phi-sidecar ${SIDECAR_SUBCOMMANDS.join("|")}`;
  if (sub === undefined || !(SIDECAR_SUBCOMMANDS as readonly string[]).includes(sub) || rest.length > 0) {
    throw new AssistError(sub === undefined ? usage : `${usage} (got "${[sub, ...rest].join(" ")}")`, {
      level: "usage",
    });
  }
  const config = loadConfig();
  await ensureHome(config.home);
  const r = await runSidecarCommand(sub, { config });
  console.log(r.text);
  return r.ok ? EXIT.ok : EXIT.failure;
}
