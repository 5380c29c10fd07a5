/**
 * `assist phi-reveal [FILE|-] [--output PATH]` (`/phi-reveal FILE [--output PATH]` in the REPL): the
 * operator reads a text that quotes tokens (a vendor's reply with `[[NAME_3]]`) with the values put
 * back from the local lookup table. Local only: it is no tool, so the model never has it in its list;
 * it refuses to run under a model's tool (bash_exec marks its children with ASSISTED_BY_MODEL), and
 * its output goes only to the operator's terminal or to a file they name outside `$ASSIST_HOME`.
 *
 * @module
 */
import { ioErrorLine } from "../../core/io_error.ts";
import { AssistError } from "../../core/errors.ts";
import { atomicWrite } from "../../core/atomic_write.ts";
import { readEnv } from "../../core/env.ts";
import { expandTilde } from "../../core/tilde.ts";
import { crToNewlines } from "../../hl7/screen.ts";
import { CharsetError, decodeBytes, type DecodedText, encodeText } from "../../hl7/charset.ts";
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

/**
 * The input read through the one decoder (hl7/charset.ts): by its MSH-18, else UTF-8, else
 * Windows-1252, so the output can be written back in the same set(s) byte for byte.
 */
async function readAll(file: string | undefined, ctx: CommandContext): Promise<DecodedText> {
  if (file === undefined || file === "-") {
    if (ctx.io.front === "repl") {
      throw new AssistError("usage: /phi-reveal FILE [--output PATH] (standard input is the terminal here)", {
        level: "usage",
      });
    }
    return decodeBytes(new Uint8Array(await new Response(Deno.stdin.readable).arrayBuffer()));
  }
  try {
    return decodeBytes(await Deno.readFile(expandTilde(file)));
  } catch (err) {
    throw new AssistError(fileProblem("read", file, err), { level: "usage" });
  }
}

/** One line for a failed read or write of `path`, in the words the file tools use. */
function fileProblem(verb: "read" | "write", path: string, err: unknown): string {
  if (err instanceof Deno.errors.NotFound) {
    return verb === "read"
      ? `no such file or folder: ${path}`
      : `cannot write ${path}: its folder does not exist`;
  }
  if (err instanceof Deno.errors.PermissionDenied) return `permission denied: ${path}`;
  if (err instanceof Deno.errors.IsADirectory) return `${path} is a folder`;
  // A full disk or a read-only file system: the reason in plain words and the next step.
  return ioErrorLine(err, path, { action: verb, retry: "run phi-reveal again" });
}

/** Runs the command; returns the line to show (the text itself when shown on the terminal). */
export async function reveal(args: readonly string[], ctx: CommandContext): Promise<string> {
  if ((readEnv(UNDER_MODEL_ENV) ?? "") !== "") {
    throw new AssistError("phi-reveal is for the operator only; it does not run under the model's tools", {
      level: "refused",
    });
  }
  const a = parseRevealArgs(args);
  if (a.output !== undefined) a.output = expandTilde(a.output);
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
  const input = await readAll(a.file, ctx);
  const engine = await createPhiEngine({
    config: { ...ctx.config, autoPhi: "off", phiNames: "off" },
    sidecar: false,
  });
  const d = engine.detokenize(input.text);
  const unknown = d.unknown.length ? `; ${new Set(d.unknown).size} token(s) not in the lookup table` : "";
  if (a.output === undefined) {
    // Only ever a terminal or the REPL here: a bare CR (an HL7 segment end) would overwrite the line.
    ctx.io.out(crToNewlines(d.text));
    return `phi-reveal: ${d.restored.length} token(s) restored${unknown}`;
  }
  // Written in the input's own character set(s): bytes outside the tokens come back unchanged.
  let bytes: Uint8Array;
  try {
    bytes = encodeText(d.text, input);
  } catch (err) {
    if (err instanceof CharsetError) throw new AssistError(`${a.output}: ${err.message}`, { level: "input" });
    throw err;
  }
  try {
    await atomicWrite(a.output, bytes, { mode: 0o600 });
  } catch (err) {
    throw new AssistError(fileProblem("write", a.output, err), { level: "io" });
  }
  return `phi-reveal: wrote ${a.output}; ${d.restored.length} token(s) restored${unknown}`;
}
