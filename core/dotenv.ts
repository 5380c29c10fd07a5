/**
 * `$ASSIST_HOME/.env`: persisted settings as `KEY=VALUE` lines (spec, Environment and local layout).
 * This module is the only reader and writer of the file. Model tools never read it
 * (tools/files/protect.ts). An update is a locked read-modify-write at mode 0600
 * (core/state_file.ts) and keeps every line it was not asked to change byte for byte: comments,
 * blank lines, keys of other features, lines it does not understand and bytes that are not UTF-8
 * stay as they were, in their order.
 *
 * Values are taken literally: no quotes, no escapes, no `export` prefix; the value is everything
 * after the first `=` (a trailing CR is dropped). A value holding a line break is refused.
 *
 * @module
 */
import { updateStateFile } from "./state_file.ts";

const KEY_RE = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The line's key when it is a `KEY=VALUE` line, else undefined. */
function keyOf(line: string): string | undefined {
  const eq = line.indexOf("=");
  if (eq <= 0) return undefined;
  const key = line.slice(0, eq).trim();
  return KEY_RE.test(key) ? key : undefined;
}

/**
 * The settings a `.env` text holds; a key given twice takes its last value. Pure.
 *
 * @example
 * ```ts
 * import { parseDotenv } from "./dotenv.ts";
 * parseDotenv("# note\nA=1\nB=x=y\n"); // { A: "1", B: "x=y" }
 * ```
 */
export function parseDotenv(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const raw of text.split("\n")) {
    const line = raw.replace(/\r$/, "");
    const key = keyOf(line);
    if (key !== undefined) out[key] = line.slice(line.indexOf("=") + 1);
  }
  return out;
}

/**
 * The text with `changes` applied: a key's first line is replaced in place (later duplicates are
 * dropped), a new key is appended, `undefined` removes the key. Every other line is kept. Pure.
 *
 * @example
 * ```ts
 * import { applyDotenv } from "./dotenv.ts";
 * applyDotenv("# keep\nA=1\nOTHER=z\n", { A: "2", B: "3" }); // "# keep\nA=2\nOTHER=z\nB=3\n"
 * ```
 */
export function applyDotenv(text: string, changes: Record<string, string | undefined>): string {
  const lines = text === "" ? [] : text.replace(/\n$/, "").split("\n");
  const out = plan(lines, changes).map((x) => typeof x === "number" ? lines[x] : x);
  return out.length === 0 ? "" : out.join("\n") + "\n";
}

/**
 * {@link applyDotenv} on the file's bytes: every line it keeps is kept byte for byte, so bytes that
 * are not UTF-8 (a value typed in another encoding) stay what they were. Pure.
 *
 * @example
 * ```ts
 * import { applyDotenvBytes } from "./dotenv.ts";
 * applyDotenvBytes(new Uint8Array([0x4e, 0x3d, 0xe9, 0x0a]), { A: "1" }); // bytes of "N=\xe9\nA=1\n"
 * ```
 */
export function applyDotenvBytes(bytes: Uint8Array, changes: Record<string, string | undefined>): Uint8Array {
  const raw: Uint8Array[] = [];
  const end = bytes.length > 0 && bytes[bytes.length - 1] === 0x0a ? bytes.length - 1 : bytes.length;
  if (bytes.length > 0) {
    let from = 0;
    for (let i = 0; i <= end; i++) {
      if (i === end || bytes[i] === 0x0a) {
        raw.push(bytes.subarray(from, i));
        from = i + 1;
      }
    }
  }
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  const out = plan(raw.map((l) => decoder.decode(l)), changes)
    .map((x) => typeof x === "number" ? raw[x] : encoder.encode(x));
  if (out.length === 0) return new Uint8Array(0);
  const size = out.reduce((n, l) => n + l.length + 1, 0);
  const result = new Uint8Array(size);
  let at = 0;
  for (const l of out) {
    result.set(l, at);
    result[at + l.length] = 0x0a;
    at += l.length + 1;
  }
  return result;
}

/** The output lines: the index of a line kept as it was, or the text of a new line. */
function plan(lines: string[], changes: Record<string, string | undefined>): Array<number | string> {
  for (const [k, v] of Object.entries(changes)) {
    if (!KEY_RE.test(k)) throw new Error(`.env: invalid key ${JSON.stringify(k)}`);
    if (v !== undefined && /[\r\n]/.test(v)) throw new Error(`.env: the value of ${k} holds a line break`);
  }
  const done = new Set<string>();
  const out: Array<number | string> = [];
  lines.forEach((line, i) => {
    const key = keyOf(line.replace(/\r$/, ""));
    if (key === undefined || !Object.hasOwn(changes, key)) {
      out.push(i);
      return;
    }
    if (done.has(key)) return;
    done.add(key);
    const v = changes[key];
    if (v !== undefined) out.push(`${key}=${v}`);
  });
  for (const [k, v] of Object.entries(changes)) {
    if (!done.has(k) && v !== undefined) out.push(`${k}=${v}`);
  }
  return out;
}

/** The settings in the file at `path`; an absent file holds none. */
export async function readDotenv(path: string): Promise<Record<string, string>> {
  try {
    return parseDotenv(await Deno.readTextFile(path));
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return {};
    throw err;
  }
}

/**
 * Applies `changes` to the file at `path` (created if absent), atomically, at mode 0600.
 *
 * @example
 * ```ts
 * import { updateDotenv } from "./dotenv.ts";
 * declare const home: string;
 * await updateDotenv(`${home}/.env`, { HEADERS_SYNC: "on" });
 * ```
 */
export async function updateDotenv(path: string, changes: Record<string, string | undefined>): Promise<void> {
  applyDotenv("", changes); // a bad key or value is refused before the file is touched
  await updateStateFile(path, (old) => applyDotenvBytes(old ?? new Uint8Array(0), changes));
}
