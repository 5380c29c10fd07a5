/**
 * Engine commands: `/sites` and `/paths` run the registry tools list_sites and nc_paths by hand
 * (the manual-mode argument parser of `assist tools`, output to the operator only), and the
 * templated model prompts `/nc-diff-env` and `/nc-regression-env` (cli/agent/templates.ts).
 *
 * @module
 */
import { lazy } from "../../core/lazy.ts";
import { AssistError } from "../../core/errors.ts";
import type { Command, CommandContext } from "./types.ts";
import { needRepl } from "./_util.ts";

async function tool(name: string, args: string[], ctx: CommandContext): Promise<number> {
  const { runTool } = await lazy<typeof import("./_tool.ts")>(import.meta.url, "./_tool.ts");
  return await runTool(name, args, ctx);
}

/**
 * A templated prompt: its placeholders from positional arguments in order, or `name=value`; a
 * missing one prints the usage line. The rendered prompt is submitted as a model turn (it passes the
 * PHI gate there like any prompt).
 */
function template(name: "nc-diff-env" | "nc-regression-env", args: string, summary: string): Command {
  const count = args.split(" ").length;
  return {
    name,
    args,
    summary,
    group: "engine",
    minArgs: 0,
    maxArgs: count,
    async run(a, ctx) {
      const repl = needRepl(ctx, name);
      const { placeholders, renderTemplate } = await lazy<typeof import("../agent/templates.ts")>(
        import.meta.url,
        "../agent/templates.ts",
      );
      const names = placeholders(name);
      const values: Record<string, string> = {};
      const positional: string[] = [];
      for (const arg of a) {
        const m = /^(\w+)=(.*)$/.exec(arg);
        if (m && names.includes(m[1])) values[m[1]] = m[2];
        else positional.push(arg);
      }
      for (const n of names) {
        if (values[n] === undefined && positional.length) values[n] = positional.shift()!;
      }
      const missing = names.filter((n) => !values[n]?.trim());
      if (missing.length || positional.length) {
        throw new AssistError(
          `usage: /${name} ${args} (or name=value; ${
            missing.length ? `missing ${missing.join(", ")}` : `unexpected "${positional[0]}"`
          })`,
          { level: "usage" },
        );
      }
      await repl.submit(renderTemplate(name, values));
    },
  };
}

export const ENGINE_COMMANDS: readonly Command[] = [
  {
    name: "sites",
    args: "[alias] [--hciroot <path>]",
    summary: "list engine sites, locally or on a remote alias (list_sites)",
    group: "engine",
    minArgs: 0,
    maxArgs: Infinity,
    run: (a, ctx) => tool("list_sites", a, ctx),
  },
  {
    name: "paths",
    args: "<site> [thread] [--to <thread>] [--max-hops N] [--all-sites] [--alias A] ...",
    summary: "route chains from a thread across sites (nc_paths; `assist tools nc_paths --help`)",
    group: "engine",
    minArgs: 1,
    maxArgs: Infinity,
    run: (a, ctx) => tool("nc_paths", a, ctx),
  },
  template(
    "nc-diff-env",
    "<site> <source> <target>",
    "templated prompt: compare a site's NetConfig between two environments (SSH aliases)",
  ),
  template(
    "nc-regression-env",
    "<thread> <site> <source> <target> <count>",
    "templated prompt: cross-environment regression of a thread (SSH aliases, message count)",
  ),
];
