/**
 * `log/headers.log`: one JSON object per line. Every response gives its status line and only the
 * vendor rate-limit and retry-after headers; on the OAuth rail only the first 50 blocks of a session
 * are logged. Every 429 gets its whole raw header block, tagged with retry-after and the tripped
 * rail, under its own budget (independent of the OAuth cap), and a `phi/rl>` pointer on stderr.
 * The file holds no PHI and no secret: response headers carry neither. File 0600, folder 0700.
 *
 * Rotation: before an append that would take the file past {@link HEADERS_LOG_MAX_BYTES}, it is
 * renamed to `headers.log.1` (one generation; an older `.1` is replaced) and a new file is started,
 * so the log never grows without end. The headers sync (cli/headers_sync/) notices the rotation by
 * the file's identity and pushes the rest of `.1`, then the new file from its start.
 */
import { isLoggedHeader, readRateLimits, trippedRail } from "./ratelimit.ts";

/** The first-OAuth header logging cap (spec Limits). */
export const OAUTH_HEADER_LOG_CAP = 50;
/** STATUS_429_HEADER_LOG_LIMIT: 429 blocks logged per session. */
export const STATUS_429_HEADER_LOG_LIMIT = 20;
/** The size cap of `headers.log` (then it becomes `headers.log.1`). */
export const HEADERS_LOG_MAX_BYTES = 5 * 1024 * 1024;

const REDACTED_HEADERS = new Set([
  "set-cookie",
  "cookie",
  "authorization",
  "x-api-key",
  "proxy-authorization",
]);

export interface HeadersLogOptions {
  path: string;
  oauth: boolean;
  /** Where the `phi/rl>` pointer goes. */
  notice?: (line: string) => void;
  now?: () => Date;
  /** @default HEADERS_LOG_MAX_BYTES */
  maxBytes?: number;
}

export class HeadersLog {
  #blocks = 0;
  #blocks429 = 0;
  readonly #opts: HeadersLogOptions;
  constructor(opts: HeadersLogOptions) {
    this.#opts = opts;
  }

  /** Records one response's headers. Never throws: a log that cannot be written is skipped. */
  async record(status: number, headers: Headers): Promise<void> {
    const ts = (this.#opts.now?.() ?? new Date()).toISOString();
    const lines: string[] = [];
    if (status === 429 && this.#blocks429 < STATUS_429_HEADER_LOG_LIMIT) {
      this.#blocks429++;
      const reading = readRateLimits(headers);
      const raw: Record<string, string> = {};
      // The whole block, but never a cookie or credential (the log is uploaded and synced).
      headers.forEach((
        v,
        k,
      ) => (raw[k] = REDACTED_HEADERS.has(k.toLowerCase()) ? "[redacted]" : v.replace(/\r/g, "")));
      const rail = trippedRail(reading) ?? "unknown";
      lines.push(
        JSON.stringify({
          ts,
          status: `HTTP ${status}`,
          tag: { retry_after: reading.retryAfter ?? null, rail },
          headers: raw,
        }),
      );
      this.#opts.notice?.(`phi/rl> 429 header block written to ${this.#opts.path} (rail: ${rail})`);
    } else if (status !== 429) {
      if (this.#opts.oauth && this.#blocks >= OAUTH_HEADER_LOG_CAP) return;
      this.#blocks++;
      const kept: Record<string, string> = {};
      headers.forEach((v, k) => {
        if (isLoggedHeader(k)) kept[k] = v.replace(/\r/g, "");
      });
      lines.push(JSON.stringify({ ts, status: `HTTP ${status}`, headers: kept }));
    }
    if (lines.length === 0) return;
    try {
      const dir = this.#opts.path.replace(/[\\/][^\\/]*$/, "");
      await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
      const text = lines.join("\n") + "\n";
      await rotateIfFull(this.#opts.path, new TextEncoder().encode(text).length, this.#opts.maxBytes);
      await Deno.writeTextFile(this.#opts.path, text, {
        append: true,
        create: true,
        mode: 0o600,
      });
    } catch { /* logging must never break a turn */ }
  }
}

/**
 * Renames `path` to `path.1` when appending `adding` bytes would take it past `maxBytes` (a file
 * already empty is never rotated). Another process rotating at the same moment is harmless.
 */
export async function rotateIfFull(
  path: string,
  adding: number,
  maxBytes: number = HEADERS_LOG_MAX_BYTES,
): Promise<boolean> {
  let size: number;
  try {
    size = (await Deno.stat(path)).size;
  } catch {
    return false;
  }
  if (size === 0 || size + adding <= maxBytes) return false;
  try {
    await Deno.rename(path, `${path}.1`);
    return true;
  } catch {
    return false;
  }
}
