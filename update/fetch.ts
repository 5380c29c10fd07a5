/**
 * One GET of one file from the update origin, checked before the caller writes anything: status
 * 200 only, no HTML sign-in page (by content type or content), the expected size and hash when the
 * MANIFEST gives them, the shape its kind must have (update/validate.ts), and a time limit that
 * covers the whole body. Redirects are followed by hand (`redirect: "manual"`): a redirect to a
 * sign-in page is an error that says to set ASSIST_ORIGIN_TOKEN, and the token
 * (`Authorization: token <t>`) goes only to the origin's own host, never across origins. The token
 * is never part of an error message.
 *
 * @module
 */
import { AssistError } from "../core/errors.ts";
import type { Secret } from "../core/secret.ts";
import { sha256Hex } from "./hash.ts";
import { rawUrl } from "./origin.ts";
import { checkShape, looksLikeHtml } from "./validate.ts";

/** An update failure: `kind` tells the caller whether the origin was simply out of reach. */
export class UpdateError extends AssistError {
  readonly kind: "unreachable" | "refused";
  constructor(message: string, kind: "unreachable" | "refused" = "refused", cause?: unknown) {
    super(message, { level: kind === "unreachable" ? "network" : "refused", cause });
    this.kind = kind;
  }
}

export interface OriginClient {
  baseUrl: string;
  token?: Secret;
  branch?: string;
}

export interface FetchOptions {
  /** Time limit for the whole answer, body included. */
  timeoutMs: number;
  /** Expected size in bytes (from the MANIFEST). */
  size?: number;
  /** Expected SHA-256, hex (from the MANIFEST). */
  sha256?: string;
  /** Largest body accepted when no size is known. @default 256 MiB */
  maxBytes?: number;
  /** Skip the check by kind (a signature file has its own parser). */
  noShapeCheck?: boolean;
  /** Outer cancel (the launch budget). */
  signal?: AbortSignal;
}

/** The per-file time limit: max(30 s, size ÷ 200 KB/s). */
export function perFileLimitMs(size: number | undefined): number {
  return Math.max(30_000, Math.ceil((size ?? 0) / 200_000) * 1000);
}

const MAX_REDIRECTS = 5;

/** Whether a redirect target is a sign-in page. */
function isLoginLocation(url: URL): boolean {
  return /(^|\/)(user\/login|login|signin|sign_in|sign-in|sso|oauth2?\/authorize)(\/|$)/i.test(url.pathname);
}

/** The URL without query or fragment, for messages. */
function shown(url: URL): string {
  return `${url.origin}${url.pathname}`;
}

/**
 * Fetches `path` from the origin and returns its bytes once every check passed.
 *
 * @example
 * ```ts
 * import { fetchOriginFile } from "./fetch.ts";
 * const bytes = await fetchOriginFile({ baseUrl: "https://git.example.org/ops/assist" }, "VERSION", {
 *   timeoutMs: 3000,
 * });
 * ```
 */
export async function fetchOriginFile(
  client: OriginClient,
  path: string,
  options: FetchOptions,
): Promise<Uint8Array> {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  const home = new URL(client.baseUrl).origin;
  let url = new URL(rawUrl(client.baseUrl, path, client.branch));
  const first = url;
  try {
    for (let hop = 0;; hop++) {
      const headers: Record<string, string> = { "Accept": "*/*" };
      // The token goes to the origin's own scheme, host and port only.
      if (client.token && url.origin === home) headers["Authorization"] = `token ${client.token.reveal()}`;
      const res = await fetch(url, { headers, redirect: "manual", signal });
      if (res.status >= 300 && res.status < 400) {
        await res.body?.cancel().catch(() => {});
        const loc = res.headers.get("location");
        if (!loc) throw new UpdateError(`${shown(url)}: HTTP ${res.status} without a Location`);
        const next = new URL(loc, url);
        if (isLoginLocation(next)) {
          throw new UpdateError(
            `${shown(first)} redirected to a sign-in page (${shown(next)}): the origin needs sign-in; ` +
              (client.token ? "ASSIST_ORIGIN_TOKEN was not accepted" : "set ASSIST_ORIGIN_TOKEN"),
          );
        }
        if (hop >= MAX_REDIRECTS) throw new UpdateError(`${shown(first)}: too many redirects`);
        url = next;
        continue;
      }
      if (res.status !== 200) {
        await res.body?.cancel().catch(() => {});
        throw new UpdateError(statusMessage(res.status, shown(url), !!client.token));
      }
      const type = res.headers.get("content-type") ?? "";
      if (/text\/html/i.test(type)) {
        await res.body?.cancel().catch(() => {});
        throw new UpdateError(
          `${shown(url)} answered with an HTML page (content-type ${type.split(";")[0]}), not the file: ` +
            "the origin may need sign-in (set ASSIST_ORIGIN_TOKEN) or ASSIST_BASE_URL is wrong",
        );
      }
      const body = await readBody(res, options, shown(url));
      const where = `${shown(url)}`;
      // A body whose hash the MANIFEST vouches for is the published file, whatever it quotes.
      if (options.sha256 === undefined && looksLikeHtml(body)) {
        throw new UpdateError(
          `${where} answered with an HTML page (a sign-in page?), not the file: set ASSIST_ORIGIN_TOKEN ` +
            "if the origin needs sign-in, or check ASSIST_BASE_URL",
        );
      }
      if (options.size !== undefined && body.length !== options.size) {
        throw new UpdateError(`${where}: ${body.length} bytes where the MANIFEST says ${options.size}`);
      }
      if (options.sha256 !== undefined && sha256Hex(body) !== options.sha256) {
        throw new UpdateError(`${where}: the SHA-256 does not match the MANIFEST (a torn or altered file)`);
      }
      if (!options.noShapeCheck) {
        const bad = checkShape(path, body, options.sha256 !== undefined);
        if (bad) throw new UpdateError(`${where} is ${bad}`);
      }
      return body;
    }
  } catch (err) {
    if (err instanceof UpdateError) throw err;
    if (timeout.aborted) {
      throw new UpdateError(
        `${shown(url)}: no complete answer within ${Math.round(options.timeoutMs / 1000)} s`,
        "unreachable",
        err,
      );
    }
    if (options.signal?.aborted) throw new UpdateError(`${shown(url)}: cancelled`, "unreachable", err);
    const msg = (err as Error).message.split("\n")[0];
    throw new UpdateError(`cannot reach ${shown(url)} (${msg})`, "unreachable", err);
  }
}

function statusMessage(status: number, where: string, token: boolean): string {
  if (status === 404) {
    return token
      ? `${where}: not found (HTTP 404); check ASSIST_BASE_URL`
      : `${where}: not found (HTTP 404); check ASSIST_BASE_URL, and a private origin answers 404 ` +
        "without a token: set ASSIST_ORIGIN_TOKEN";
  }
  if (status === 401 || status === 403) {
    return token
      ? `${where}: HTTP ${status}: the origin refused ASSIST_ORIGIN_TOKEN (expired or without read access?)`
      : `${where}: HTTP ${status}: the origin needs sign-in; set ASSIST_ORIGIN_TOKEN`;
  }
  return `${where}: HTTP ${status}`;
}

/** Reads the whole body, refusing more than the expected size and a body shorter than announced. */
async function readBody(res: Response, options: FetchOptions, where: string): Promise<Uint8Array> {
  const limit = options.size ?? options.maxBytes ?? 256 * 1024 * 1024;
  const announced = res.headers.get("content-length");
  const chunks: Uint8Array[] = [];
  let total = 0;
  if (res.body) {
    const reader = res.body.getReader();
    for (;;) {
      let step: ReadableStreamReadResult<Uint8Array>;
      try {
        step = await reader.read();
      } catch (err) {
        if (options.signal?.aborted || (err as Error).name === "TimeoutError") throw err;
        throw new UpdateError(`${where}: the body was cut off after ${total} bytes`, "refused", err);
      }
      const { done, value } = step;
      if (done) break;
      total += value.length;
      if (total > limit) {
        await reader.cancel().catch(() => {});
        throw new UpdateError(
          `${where}: more than ${limit} bytes (the MANIFEST says ${options.size ?? "less"})`,
        );
      }
      chunks.push(value);
    }
  }
  if (announced !== null && /^\d+$/.test(announced) && Number(announced) !== total) {
    throw new UpdateError(`${where}: truncated body (${total} of ${announced} bytes)`);
  }
  const out = new Uint8Array(total);
  let off = 0;
  for (const c of chunks) {
    out.set(c, off);
    off += c.length;
  }
  return out;
}

/** What a getter of {@link originGetter} is asked for: the MANIFEST's size and hash when known. */
export interface GetOptions {
  size?: number;
  sha256?: string;
  timeoutMs?: number;
  noShape?: boolean;
}

/**
 * One origin file fetched and checked (fetchOriginFile), each within `limit` of its size unless the
 * call names its own time: the one getter the sync, the binary update and `--check` share.
 */
export function originGetter(
  client: OriginClient,
  limit: (size: number | undefined) => number = perFileLimitMs,
  signal?: AbortSignal,
): (path: string, opts: GetOptions) => Promise<Uint8Array> {
  return (path, opts) =>
    fetchOriginFile(client, path, {
      timeoutMs: opts.timeoutMs ?? limit(opts.size),
      size: opts.size,
      sha256: opts.sha256,
      noShapeCheck: opts.noShape,
      signal,
    });
}
