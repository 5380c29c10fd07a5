/**
 * The file tools' shared entry: one PathGuard per home, the structured refusal, and the checked
 * opening of a file for reading. Every tool that reads a file the model names goes through here
 * (read_file, the HL7 tools, the engine tools' local paths), so there is one door to guard.
 */
import { decodeBytes, type DecodedText } from "../../hl7/charset.ts";
import { comparable, PathGuard } from "./protect.ts";
import { type ToolContext, toolError, type ToolResult } from "../types.ts";

const guards = new Map<string, Promise<PathGuard>>();

/** The guard for the context's home (built once per home and working directory). */
export function guardFor(ctx: ToolContext): Promise<PathGuard> {
  const key = `${ctx.config.home}\0${ctx.cwd}`;
  let g = guards.get(key);
  if (!g) {
    g = PathGuard.create(ctx.config.home, ctx.cwd);
    guards.set(key, g);
  }
  return g;
}

export type Checked =
  | { ok: true; literal: string; real: string }
  | { ok: false; result: ToolResult };

/** Checks a path the model (or operator) named; a protected one gives the refusal result. */
export async function checkPath(path: string, ctx: ToolContext): Promise<Checked> {
  if (path.includes("\0")) return { ok: false, result: toolError("bad_path", "path contains a NUL byte") };
  const guard = await guardFor(ctx);
  const c = await guard.check(path, ctx.cwd);
  if (c.place) {
    return {
      ok: false,
      result: toolError("protected_path", guard.refusal(path, c.place), { path, protected: c.place }),
    };
  }
  return { ok: true, literal: c.literal, real: c.real };
}

/**
 * Checks a path the model (or operator) named as a place to WRITE: besides the protected places,
 * nothing anywhere under $ASSIST_HOME (a pull or a de-identified copy must never overwrite the
 * assistant's own state: host registry, host keys, settings).
 */
export async function checkWriteTarget(path: string, ctx: ToolContext): Promise<Checked> {
  const c = await checkPath(path, ctx);
  if (!c.ok) return c;
  const guard = await guardFor(ctx);
  for (const form of [c.literal, c.real]) {
    const p = comparable(form, guard.flavor);
    for (const h of guard.homes) {
      const home = comparable(h, guard.flavor);
      if (p === home || p.startsWith(home.endsWith("/") ? home : `${home}/`)) {
        return {
          ok: false,
          result: toolError("protected_path", `refused: ${path} is inside the assistant's home folder`, {
            path,
          }),
        };
      }
    }
  }
  return c;
}

/** A structured result for a failed file-system call on `path` (not found, a directory, denied). */
export function fsError(path: string, err: unknown): ToolResult {
  if (err instanceof Deno.errors.NotFound) {
    return toolError("not_found", `no such file or folder: ${path}`, { path });
  }
  if (err instanceof Deno.errors.PermissionDenied) {
    return toolError("permission_denied", `permission denied: ${path}`, { path });
  }
  if (err instanceof Deno.errors.IsADirectory) {
    return toolError("is_directory", `${path} is a folder (use list_dir)`, { path });
  }
  return toolError("io_error", `cannot read ${path}: ${(err as Error).message}`, { path });
}

/** Files up to this size are read synchronously (readCheckedText). */
const SYNC_READ_LIMIT = 1 << 20;

/** Size of the binary-detection window (spec: first 8 KB). */
export const BINARY_WINDOW = 8192;

/** A NUL byte in the first 8 KB marks a file as binary. */
export function looksBinary(head: Uint8Array): boolean {
  return head.subarray(0, BINARY_WINDOW).indexOf(0) !== -1;
}

/**
 * Reads a whole text file the model or operator named, after the protection check: the one way
 * tools read an input file. Binary files and folders are refused with structured errors. The bytes
 * are read in the HL7 character set they declare, else UTF-8, else Windows-1252 (hl7/charset.ts);
 * `decoded.notes` says when a fallback was taken.
 */
export async function readCheckedText(
  path: string,
  ctx: ToolContext,
): Promise<
  { ok: true; text: string; real: string; decoded: DecodedText } | { ok: false; result: ToolResult }
> {
  const c = await checkPath(path, ctx);
  if (!c.ok) return c;
  try {
    const info = Deno.statSync(c.real);
    if (info.isDirectory) return { ok: false, result: fsError(path, new Deno.errors.IsADirectory()) };
    // A small file is read in one synchronous call (the first asynchronous read of a process costs
    // ~0.4 ms, a tenth of a tool's start-up); a large one asynchronously, so the REPL stays live.
    const bytes = info.size <= SYNC_READ_LIMIT ? Deno.readFileSync(c.real) : await Deno.readFile(c.real);
    if (looksBinary(bytes)) {
      return { ok: false, result: toolError("binary_file", `${path} is a binary file; not read`, { path }) };
    }
    const decoded = decodeBytes(bytes);
    return { ok: true, text: decoded.text, real: c.real, decoded };
  } catch (err) {
    return { ok: false, result: fsError(path, err) };
  }
}
