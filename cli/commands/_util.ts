/** Small helpers the group files share (private to cli/commands). */
import { lazy } from "../../core/lazy.ts";
import { AssistError } from "../../core/errors.ts";
import type { HintFn } from "../../core/hint.ts";
import type { CommandContext, ReplHost } from "./types.ts";

/** The caller's hint function: the table puts it in the command's IO when it runs the command. */
export function hinter(ctx: CommandContext): Promise<HintFn> {
  const hint = ctx.io.hint;
  if (!hint) throw new AssistError("a command ran without the command table's hint", { level: "internal" });
  return Promise.resolve(hint);
}

/** The REPL host, or a one-line refusal when a REPL-only command runs elsewhere. */
export function needRepl(ctx: CommandContext, name: string): ReplHost {
  if (!ctx.repl) {
    throw new AssistError(`/${name} works only in the interactive assistant (run \`assist\`)`, {
      level: "usage",
    });
  }
  return ctx.repl;
}

/** `$ASSIST_HOME` exists with its private folders (the REPL made it already; the command line may not have). */
export async function home(ctx: CommandContext): Promise<string> {
  const { ensureHome } = await lazy<typeof import("../../core/home.ts")>(
    import.meta.url,
    "../../core/home.ts",
  );
  await ensureHome(ctx.config.home);
  return ctx.config.home;
}
