/** Small helpers the group files share (private to cli/commands). */
import { lazy } from "../../core/lazy.ts";
import { AssistError } from "../../core/errors.ts";
import type { HintFn } from "../../core/hint.ts";
import type { CommandContext, ReplHost } from "./types.ts";

/** The caller's hint function (loaded at call time: the table imports the group files). */
export async function hinter(ctx: CommandContext): Promise<HintFn> {
  const { hint } = await lazy<typeof import("./table.ts")>(import.meta.url, "./table.ts");
  const front = ctx.io.front;
  return (name, args) => hint(front, name, args ? [...args] : undefined);
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
