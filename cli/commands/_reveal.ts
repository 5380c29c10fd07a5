/**
 * `assist phi-reveal [FILE|-] [--output PATH]` (`/phi-reveal FILE [--output PATH]` in the REPL): the
 * operator reads a text that quotes tokens (a vendor's reply with `[[NAME_3]]`) with the values put
 * back from the local lookup table. Local only: it is no tool, so the model never has it in its list;
 * it refuses to run under a model's tool (bash_exec marks its children with ASSISTED_BY_MODEL), and
 * its output goes only to the operator's terminal or to a file they name outside `$ASSIST_HOME`.
 *
 * @module
 */
import { AssistError } from "../../core/errors.ts";
import { atomicWrite } from "../../core/atomic_write.ts";
import { readEnv } from "../../core/env.ts";
import { posix, win32 } from "node:path";
import { createPhiEngine } from "../../phi/mod.ts";
import type { CommandContext } from "./types.ts";

/** The variable bash_exec sets in its children: a command run by the model. */
export const UNDER_MODEL_ENV = "ASSISTED_BY_MODEL";

export interface RevealArgs {
  file?: string;
  output?: string;
}

/** `[FILE|-] [--output PATH]`. */
export function parseRevealArgs(args: readonly string[]): RevealArgs {
  const out: RevealArgs = {};
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--output" || a === "-o") {
      const v = args[++i];
      if (v === undefined || v === "") throw new AssistError("--output needs a path", { level: "usage" });
      out.output = v;
    } else if (a.startsWith("--output=")) out.output = a.slice(9);
    else if (out.file === undefined) out.file = a;
    else throw new AssistError(`phi-reveal takes one input (got "${a}" as well)`, { level: "usage" });
  }
  return out;
}

/** True when `path` is `home` or inside it (after resolving both against `cwd`). */
export function insideHome(path: string, home: string, cwd: string): boolean {
  const lib = Deno.build.os === "windows" ? win32 : posix;
  const norm = (p: string) => {
    let r = lib.resolve(cwd, p);
    try {
      r = Deno.realPathSync(r);
    } catch {
      try {
        r = lib.join(Deno.realPathSync(lib.dirname(r)), lib.basename(r));
      } catch { /* neither exists: compare as written */ }
    }
    return Deno.build.os === "windows" ? r.toLowerCase() : r;
  };
  const h = norm(home), p = norm(path);
  return p === h || p.startsWith(h.endsWith(lib.sep) ? h : h + lib.sep);
}

async function readAll(file: string | undefined, ctx: CommandContext): Promise<string> {
  if (file === undefined || file === "-") {
    if (ctx.io.front === "repl") {
      throw new AssistError("usage: /phi-reveal FILE [--output PATH] (standard input is the terminal here)", {
        level: "usage",
      });
    }
    return await new Response(Deno.stdin.readable).text();
  }
  try {
    return await Deno.readTextFile(file);
  } catch (err) {
    throw new AssistError(`cannot read ${file}: ${(err as Error).message}`, { level: "usage" });
  }
}

/** Runs the command; returns the line to show (the text itself when shown on the terminal). */
export async function reveal(args: readonly string[], ctx: CommandContext): Promise<string> {
  if ((readEnv(UNDER_MODEL_ENV) ?? "") !== "") {
    throw new AssistError("phi-reveal is for the operator only; it does not run under the model's tools", {
      level: "refused",
    });
  }
  const a = parseRevealArgs(args);
  const cwd = Deno.cwd();
  if (a.output !== undefined && insideHome(a.output, ctx.config.home, cwd)) {
    throw new AssistError(`refused: ${a.output} is inside $ASSIST_HOME; name a file outside it`, {
      level: "refused",
    });
  }
  if (a.output === undefined && ctx.io.front === "cli" && !Deno.stdout.isTerminal()) {
    throw new AssistError(
      "phi-reveal writes only to a terminal or to a file named with --output (standard output is redirected)",
      { level: "refused" },
    );
  }
  const text = await readAll(a.file, ctx);
  const engine = await createPhiEngine({
    config: { ...ctx.config, autoPhi: "off", phiNames: "off" },
    sidecar: false,
  });
  const d = engine.detokenize(text);
  const unknown = d.unknown.length ? `; ${new Set(d.unknown).size} token(s) not in the lookup table` : "";
  if (a.output === undefined) {
    ctx.io.out(d.text);
    return `phi-reveal: ${d.restored.length} token(s) restored${unknown}`;
  }
  await atomicWrite(a.output, d.text, { mode: 0o600 });
  return `phi-reveal: wrote ${a.output}; ${d.restored.length} token(s) restored${unknown}`;
}
