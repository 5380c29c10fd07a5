/**
 * `$ASSIST_HOME/.env`: persisted settings as `KEY=VALUE` lines (spec, Environment and local layout).
 * This module is the only reader and writer of the file. Model tools never read it
 * (tools/files/protect.ts). An update rewrites the file atomically at mode 0600 (core/atomic_write.ts)
 * and keeps every line it was not asked to change: comments, blank lines, keys of other features
 * and lines it does not understand stay as they were, in their order.
 *
 * Values are taken literally: no quotes, no escapes, no `export` prefix; the value is everything
 * after the first `=` (a trailing CR is dropped). A value holding a line break is refused.
 *
 * @module
 */
import { atomicWrite } from "./atomic_write.ts";

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
  for (const [k, v] of Object.entries(changes)) {
    if (!KEY_RE.test(k)) throw new Error(`.env: invalid key ${JSON.stringify(k)}`);
    if (v !== undefined && /[\r\n]/.test(v)) throw new Error(`.env: the value of ${k} holds a line break`);
  }
  const lines = text === "" ? [] : text.replace(/\n$/, "").split("\n");
  const done = new Set<string>();
  const out: string[] = [];
  for (const line of lines) {
    const key = keyOf(line.replace(/\r$/, ""));
    if (key === undefined || !Object.hasOwn(changes, key)) {
      out.push(line);
      continue;
    }
    if (done.has(key)) continue;
    done.add(key);
    const v = changes[key];
    if (v !== undefined) out.push(`${key}=${v}`);
  }
  for (const [k, v] of Object.entries(changes)) {
    if (!done.has(k) && v !== undefined) out.push(`${k}=${v}`);
  }
  return out.length === 0 ? "" : out.join("\n") + "\n";
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
  let text = "";
  try {
    text = await Deno.readTextFile(path);
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
  await atomicWrite(path, applyDotenv(text, changes), { mode: 0o600 });
}
