/**
 * Manual tools mode: `assist tools list`, `assist tools <name> [args]`, `assist tools <name> --help`.
 * Runs the registry's tools with no model API; output goes to stdout, a failed tool's one-line
 * message to stderr. Exit codes: 0 ok, 1 the tool failed or refused (or, with --exit-code, the diff tools found
 * differences), 2 usage (bad arguments, or input naming nothing: a site, thread or path), 130
 * interrupted. With --exit-code (as git diff) every failure exits 2 or higher, so 1 means only
 * "the sides differ".
 */
import { AssistError, describeError, EXIT, exitCodeOf } from "../core/errors.ts";
import { stripCr } from "../core/clean.ts";
import { closestNames } from "../core/suggest.ts";
import { stylerFor, writeText } from "../core/term.ts";
import { lazy } from "../core/lazy.ts";
import { loadTool, TOOL_NAMES } from "../tools/by_name.ts";
import { parseManualArgs, toolHelp } from "../tools/args.ts";
import { errorMessage, type ToolContext } from "../tools/types.ts";
import { readEnv } from "../core/env.ts";
import type { HintFn } from "../core/hint.ts";
// Small core modules, imported statically: one module graph to load for `tools <name>` instead of
// three (each lazy load is a graph load of its own).
import { loadConfig } from "../core/config.ts";
import { ensureHome } from "../core/home.ts";

const writeOut = (text: string) => writeText("stdout", text);
const writeErr = (text: string) => writeText("stderr", text);
/** `assist:` in red on a terminal (never under NO_COLOR or when redirected). */
const errPrefix = () => stylerFor("stderr").red("assist:");

/** `tools list`: names and one-line summaries, aligned (the only form that loads every definition). */
export async function toolsListText(): Promise<string> {
  const { TOOLS } = await lazy<typeof import("../tools/registry.ts")>(
    import.meta.url,
    "../tools/registry.ts",
  );
  const width = Math.max(...TOOLS.map((t) => t.name.length)) + 2;
  return TOOLS.map((t) => t.name.padEnd(width) + t.summary).join("\n");
}

/** Prints the one-line error of a thrown value and returns its exit code. */
export function reportFailure(err: unknown): number {
  const debug = stripCr(readEnv("ASSIST_DEBUG") ?? "").trim() === "1";
  writeErr(`${errPrefix()} ${describeError(err, debug)}\n`);
  return exitCodeOf(err);
}

export function usageFailure(message: string): number {
  return reportFailure(new AssistError(message, { level: "usage" }));
}

/** Standard input's bytes; tools/input.ts reads them as text (hl7/charset.ts). */
async function readAllStdin(): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  for await (const c of Deno.stdin.readable) chunks.push(c);
  const all = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let off = 0;
  for (const c of chunks) all.set(c, off), off += c.length;
  return all;
}

/** The command line's form of a command hint (cli/commands/table.ts). */
async function cliHint(): Promise<HintFn> {
  const { hint } = await lazy<typeof import("./commands/table.ts")>(import.meta.url, "./commands/table.ts");
  return (name, args) => hint("cli", name, args ? [...args] : undefined);
}

export async function runTools(args: string[]): Promise<number> {
  const [name, ...rest] = args;
  if (name === "list" && rest.length > 0 && rest.every((a) => a === "--help" || a === "-h")) {
    writeOut("usage: assist tools list\n  every helper tool with its one-line summary\n");
    return EXIT.ok;
  }
  if (name === undefined || name === "list") {
    if (rest.length > 0) return usageFailure(`tools list takes no arguments (got "${rest[0]}")`);
    writeOut(await toolsListText() + "\n");
    return EXIT.ok;
  }
  if (name === "--help" || name === "-h" || name === "help") {
    writeOut(
      "usage: assist tools list\n       assist tools <name> [args...]\n       assist tools <name> --help\n\n" +
        await toolsListText() + "\n",
    );
    return EXIT.ok;
  }
  // Only this tool loads, its definition and body in one graph: tools/by_name.ts.
  const tool = await loadTool(name);
  if (!tool) {
    const near = closestNames(name, [...TOOL_NAMES]);
    const hint = near.length ? `; did you mean ${near.join(", ")}?` : "";
    return usageFailure(`unknown tool: ${name} (run \`assist tools list\`${hint})`);
  }
  const def = tool.def;
  if (rest.includes("--help") || rest.includes("-h")) {
    writeOut(toolHelp(def) + "\n");
    return EXIT.ok;
  }
  const input = parseManualArgs(def, rest, !Deno.stdin.isTerminal());
  /** --exit-code: 1 is "the sides differ", so a failure must not exit 1 as well. */
  const failed = input.exit_code === true ? EXIT.usage : EXIT.failure;
  const config = loadConfig();
  await ensureHome(config.home);

  const abort = new AbortController();
  const onInt = () => abort.abort();
  let listening = false;
  try {
    Deno.addSignalListener("SIGINT", onInt);
    listening = true;
  } catch { /* no signal support here */ }
  const ctx: ToolContext = {
    config,
    cwd: Deno.cwd(),
    caller: "manual",
    signal: abort.signal,
    readStdin: readAllStdin,
    terminal: Deno.stdout.isTerminal(),
    progress: Deno.stderr.isTerminal()
      ? (line: string) => writeErr(line === "" ? "\r\x1b[K" : `\r${line}\x1b[K`)
      : undefined,
    notice: (line: string) => writeErr(`${line}\n`),
    // Hints in the command line's form (`assist ssh add ...`). Only SSH alias messages name commands
    // here, so the command table loads only when an alias is given.
    ...(Object.keys(input).some((k) => k.endsWith("alias")) ? { hint: await cliHint() } : {}),
  };
  try {
    const result = await tool.run(input, ctx);
    if (abort.signal.aborted) return EXIT.interrupted;
    if (result.isError) {
      // A message that names a command (`/ssh-setup e1`) is shown in the command line's form.
      let message = errorMessage(result);
      if (/(^|[\s(`'"])\/[a-z]/.test(message)) {
        const { cliForms } = await lazy<typeof import("./commands/table.ts")>(
          import.meta.url,
          "./commands/table.ts",
        );
        message = cliForms(message);
      }
      writeErr(`${errPrefix()} ${def.name}: ${message}\n`);
      return result.usage ? EXIT.usage : failed;
    }
    writeOut(result.text.endsWith("\n") || result.text === "" ? result.text : `${result.text}\n`);
    for (const n of result.notes ?? []) writeErr(`${errPrefix()} ${def.name}: note: ${n}\n`);
    return result.exitCode ?? EXIT.ok;
  } catch (err) {
    if (failed === EXIT.failure) throw err;
    return Math.max(reportFailure(err), failed);
  } finally {
    if (listening) Deno.removeSignalListener("SIGINT", onInt);
  }
}
