/**
 * The Messages API client: one POST per attempt, streaming (SSE) or not, the synthetic message
 * rebuilt from the stream, rate-limit headers read and logged, errors rewritten (errors.ts), and
 * the retry rules:
 * - 429 / overloaded / 5xx / a broken stream: wait `retry-after` (else 2, 4, 8 s, capped at 30 s)
 *   and send again, up to `maxRetries`, the same way (streaming stays streaming); `x-should-retry:
 *   false` forbids it; a `retry-after` longer than `maxRetryAfterSeconds` (an hour: a drained
 *   5-hour window) is reported instead of waited for. The wait is announced ("retrying in N s"),
 *   and the caller's signal (Ctrl-C) ends it.
 * - A stream that cannot be parsed falls back to one non-streaming request, except when the
 *   response was a JSON error body (a 429 or overloaded answer, labelled as a stream or not): that
 *   is the error above, sent again only after its wait and streaming (single send).
 * - A 401 lets the OAuth rail refresh its token once and send again.
 * - A request the API accepts and then leaves unanswered ends after a bounded time: no byte for
 *   `idleTimeoutSeconds` while waiting for the headers of a streaming request or between its
 *   events (any byte counts, a ping too: the API pings while it thinks, so only silence is a
 *   stuck connection; `onActivity` hears every byte, for a countdown), or no complete answer
 *   within `responseTimeoutSeconds` for a non-streaming one (its headers come only with the whole
 *   answer). That is a retryable "timeout" error, like a broken stream.
 */
import { VERSION } from "../../core/version.ts";
import { AssistError } from "../../core/errors.ts";
import { MessageAccumulator } from "./accumulate.ts";
import {
  blockedByHtml,
  type ErrorContext,
  fromApiError,
  fromHttpError,
  fromNetworkFailure,
  looksHtml,
  ModelError,
  parseErrorBody,
} from "./errors.ts";
import { type RateLimitReading, readRateLimits, trippedRail } from "./ratelimit.ts";
import { SseDecoder } from "./sse.ts";
import type { HeadersLog } from "./headers_log.ts";
import { type Message, type MessageRequest, normalizeUsage } from "./types.ts";

export const ANTHROPIC_VERSION = "2023-06-01";

/** Supplies the authentication headers of one rail. */
export interface AuthProvider {
  rail: "api-key" | "oauth";
  headers(): Promise<Record<string, string>>;
  /** Called once after a 401: refresh credentials; true when a retry makes sense. */
  onUnauthorized?(): Promise<boolean>;
}

export interface ClientOptions {
  url: string;
  auth: AuthProvider;
  stream: boolean;
  onText?: (text: string) => void;
  signal?: AbortSignal;
  headersLog?: HeadersLog;
  onRateLimit?: (reading: RateLimitReading) => void;
  /** One line for the operator: retries, fallbacks. */
  notice?: (line: string) => void;
  /** Called before the request is sent again (a retry, or the non-streaming fallback). */
  onResend?: () => void;
  /** @default 3 */
  maxRetries?: number;
  /** The longest `retry-after` waited for. @default 3600 */
  maxRetryAfterSeconds?: number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  fetch?: typeof fetch;
  /** Seconds without a byte (streaming: before the headers and between events). @default 300 */
  idleTimeoutSeconds?: number;
  /**
   * The idle countdown of the request in flight started over (it was sent, or bytes arrived, a
   * ping too), with its limit in seconds; `undefined` once the attempt is over (nothing to wait for).
   */
  onActivity?: (limitSeconds: number | undefined) => void;
  /** Seconds for a whole non-streaming response, headers included. @default 600 */
  responseTimeoutSeconds?: number;
}

/** The API pings while it works; long thinking can still pass minutes between words. */
export const DEFAULT_IDLE_TIMEOUT_SECONDS = 300;
export const DEFAULT_RESPONSE_TIMEOUT_SECONDS = 600;
/** A `retry-after` up to an hour is waited for (with a countdown); a longer one is reported. */
export const MAX_RETRY_AFTER_SECONDS = 3600;

export interface SendResult {
  message: Message;
  streamed: boolean;
  /** HTTP requests sent for this call (retries and fallback included). */
  requests: number;
  rateLimits?: RateLimitReading;
}

/** Backoff when no retry-after is given: 2, 4, 8 … seconds, capped at 30. */
export function backoffSeconds(attempt: number): number {
  return Math.min(2 * 2 ** attempt, 30);
}

class StreamParseError extends Error {}

/**
 * The per-attempt abort: follows the caller's signal (cancellation) and fires by itself when
 * `touch` has not been called for the armed number of seconds.
 */
class IdleWatch {
  readonly #controller = new AbortController();
  readonly #outer?: AbortSignal;
  readonly #onOuter = () => this.#controller.abort(this.#outer?.reason);
  #timer?: ReturnType<typeof setTimeout>;
  #seconds = 0;
  #last = 0;
  fired = false;

  readonly #onActivity?: (limitSeconds: number | undefined) => void;

  constructor(outer?: AbortSignal, onActivity?: (limitSeconds: number | undefined) => void) {
    this.#outer = outer;
    this.#onActivity = onActivity;
    if (outer?.aborted) this.#controller.abort(outer.reason);
    else outer?.addEventListener("abort", this.#onOuter, { once: true });
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** (Re)starts the countdown with `seconds`. */
  arm(seconds: number): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#seconds = seconds;
    this.touch();
  }

  /**
   * Bytes arrived: the countdown starts over. Called for every chunk of a stream, so it only notes
   * the time; one timer checks it when it would fire and re-arms itself for the rest.
   */
  touch(): void {
    this.#last = performance.now();
    this.#onActivity?.(this.#seconds);
    if (this.#timer === undefined) this.#schedule(this.#seconds * 1000);
  }

  #schedule(ms: number): void {
    this.#timer = setTimeout(() => {
      const idle = performance.now() - this.#last;
      const limit = this.#seconds * 1000;
      if (idle >= limit) {
        this.#timer = undefined;
        this.fired = true;
        this.#controller.abort(new Error("idle timeout"));
      } else this.#schedule(limit - idle);
    }, ms);
  }

  dispose(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#onActivity?.(undefined);
    this.#outer?.removeEventListener("abort", this.#onOuter);
  }

  error(url: string): ModelError {
    return new ModelError(
      "timeout",
      `the model API accepted the request but sent nothing for ${formatSeconds(this.#seconds)} (${url})`,
      { retryable: true },
    );
  }
}

const defaultSleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(new ModelError("cancelled", "cancelled"));
    const t = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(new ModelError("cancelled", "cancelled"));
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });

export async function sendMessage(request: MessageRequest, opts: ClientOptions): Promise<SendResult> {
  const maxRetries = opts.maxRetries ?? 3;
  const sleep = opts.sleep ?? defaultSleep;
  const state = { requests: 0, rateLimits: undefined as RateLimitReading | undefined };
  let refreshed = false;
  let fellBack = false;
  let timedOut = 0;
  let stream = opts.stream;
  for (let attempt = 0;; attempt++) {
    try {
      const { message, streamed } = await once(request, stream, opts, state);
      return { message, streamed, requests: state.requests, rateLimits: state.rateLimits };
    } catch (err) {
      if (err instanceof StreamParseError && !fellBack) {
        fellBack = true;
        stream = false;
        opts.notice?.(`model> the stream could not be read (${err.message}); asking again without streaming`);
        opts.onResend?.();
        attempt--;
        continue;
      }
      // e.g. no OAuth token: already one clear line (a ModelError is handled below)
      if (err instanceof AssistError && !(err instanceof ModelError)) throw err;
      if (!(err instanceof ModelError)) {
        throw new ModelError("api", `The model API response could not be read: ${(err as Error).message}`);
      }
      if (err.kind === "authentication" && !refreshed && opts.auth.onUnauthorized) {
        refreshed = true;
        if (await opts.auth.onUnauthorized()) {
          opts.onResend?.();
          attempt--;
          continue;
        }
      }
      if (!err.retryable || attempt >= maxRetries || opts.signal?.aborted) throw err;
      // A silent API is asked once more, not maxRetries times: the operator waits at most about
      // two idle periods for the clear error.
      if (err.kind === "timeout" && timedOut++ >= 1) throw err;
      const wait = err.retryAfter ?? backoffSeconds(attempt);
      const cap = opts.maxRetryAfterSeconds ?? MAX_RETRY_AFTER_SECONDS;
      if (wait > cap) throw tooLongToWait(err, wait, cap);
      opts.notice?.(
        `model> ${clause(err.reason ?? err.message)}; retrying in ${formatSeconds(wait)} ` +
          `(attempt ${attempt + 2} of ${maxRetries + 1}).`,
      );
      await sleep(wait * 1000, opts.signal);
      opts.onResend?.();
    }
  }
}

/** A sentence without its final period, to go on with "; retrying in …". */
function clause(text: string): string {
  return text.trim().replace(/\.+$/, "");
}

/** A `retry-after` over the cap: reported with the time it ends, not waited for. */
function tooLongToWait(err: ModelError, wait: number, cap: number): ModelError {
  const at = new Date(Date.now() + wait * 1000).toISOString().slice(0, 16).replace("T", " ");
  return new ModelError(
    err.kind,
    `${clause(err.reason ?? err.message)}: the API asks for a wait of ${longWait(wait)} ` +
      `(retry-after ${wait} s), longer than the ${longWait(cap)} this program waits; ` +
      `try again after ${at} UTC`,
    { status: err.status, apiType: err.apiType, retryAfter: err.retryAfter, errorBody: err.errorBody },
  );
}

/** A long wait for reading: "2 h 13 min", "45 min", "90 s". */
function longWait(s: number): string {
  if (s < 120) return `${Math.round(s)} s`;
  const h = Math.floor(s / 3600);
  const m = Math.round((s % 3600) / 60);
  return h ? (m ? `${h} h ${m} min` : `${h} h`) : `${m} min`;
}

function formatSeconds(s: number): string {
  return s < 10 && !Number.isInteger(s) ? `${s.toFixed(1)} s` : `${Math.round(s)} s`;
}

async function once(
  request: MessageRequest,
  stream: boolean,
  opts: ClientOptions,
  state: { requests: number; rateLimits?: RateLimitReading },
): Promise<{ message: Message; streamed: boolean }> {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "accept": "application/json",
    "anthropic-version": ANTHROPIC_VERSION,
    "user-agent": `assist/${VERSION}`,
    ...(await opts.auth.headers()),
  };
  const ctx: ErrorContext = { url: opts.url, model: request.model };
  const watch = new IdleWatch(opts.signal, opts.onActivity);
  watch.arm(
    stream
      ? opts.idleTimeoutSeconds ?? DEFAULT_IDLE_TIMEOUT_SECONDS
      : opts.responseTimeoutSeconds ?? DEFAULT_RESPONSE_TIMEOUT_SECONDS,
  );
  try {
    return await attempt(request, stream, opts, state, headers, ctx, watch);
  } finally {
    watch.dispose();
  }
}

async function attempt(
  request: MessageRequest,
  stream: boolean,
  opts: ClientOptions,
  state: { requests: number; rateLimits?: RateLimitReading },
  headers: Record<string, string>,
  ctx: ErrorContext,
  watch: IdleWatch,
): Promise<{ message: Message; streamed: boolean }> {
  const doFetch = opts.fetch ?? fetch;
  let res: Response;
  state.requests++;
  try {
    res = await doFetch(opts.url, {
      method: "POST",
      headers,
      body: JSON.stringify({ ...request, stream }),
      signal: watch.signal,
    });
  } catch (err) {
    if (opts.signal?.aborted) throw new ModelError("cancelled", "cancelled");
    if (watch.fired) throw watch.error(opts.url);
    throw fromNetworkFailure(ctx, err);
  }
  if (stream) watch.touch();
  const reading = readRateLimits(res.headers);
  state.rateLimits = reading;
  opts.onRateLimit?.(reading);
  await opts.headersLog?.record(res.status, res.headers);
  ctx.rail = trippedRail(reading);
  ctx.retryAfter = reading.retryAfter;
  const shouldRetry = res.headers.get("x-should-retry")?.trim().toLowerCase();
  const contentType = res.headers.get("content-type");

  if (!res.ok) {
    const body = await readBody(res, opts, watch);
    const err = fromHttpError(ctx, res.status, body, contentType);
    if (shouldRetry === "false" || shouldRetry === "true") {
      throw new ModelError(err.kind, err.message, {
        status: err.status,
        apiType: err.apiType,
        retryAfter: err.retryAfter,
        errorBody: err.errorBody,
        reason: err.reason,
        retryable: shouldRetry === "true",
      });
    }
    throw err;
  }
  if (stream && contentType && /text\/event-stream/i.test(contentType) && res.body) {
    return { message: await readStream(res.body, res.status, opts, ctx, watch), streamed: true };
  }
  const body = await readBody(res, opts, watch);
  if (body.trim() === "") {
    throw new ModelError("empty_response", `Network error: empty response from ${opts.url}`, {
      retryable: true,
    });
  }
  if (looksHtml(body, contentType)) throw blockedByHtml(ctx, res.status, body);
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    if (stream) throw new StreamParseError("not SSE and not JSON");
    throw new ModelError(
      "api",
      `The model API sent an unreadable response (HTTP ${res.status}, ${body.length} bytes)`,
    );
  }
  return { message: toMessage(parsed, ctx), streamed: false };
}

async function readBody(res: Response, opts: ClientOptions, watch: IdleWatch): Promise<string> {
  try {
    if (!res.body) return "";
    const text = new TextDecoder();
    let out = "";
    for await (const chunk of res.body) {
      watch.touch();
      out += text.decode(chunk, { stream: true });
    }
    return out + text.decode();
  } catch (err) {
    if (opts.signal?.aborted) throw new ModelError("cancelled", "cancelled");
    if (watch.fired) throw watch.error(opts.url);
    throw new ModelError(
      "network",
      `Network error: the response from ${opts.url} broke off (${(err as Error).message})`,
      {
        retryable: true,
      },
    );
  }
}

function toMessage(parsed: unknown, ctx: ErrorContext): Message {
  const m = parsed as Record<string, unknown>;
  if (m?.type === "error") {
    const e = (m.error ?? {}) as Record<string, unknown>;
    throw fromApiError(ctx, String(e.type ?? "api_error"), String(e.message ?? ""), 200, true);
  }
  if (!m || !Array.isArray(m.content)) {
    throw new ModelError("api", "The model API sent a response without content");
  }
  for (const block of m.content as Array<Record<string, unknown>>) {
    if (
      block?.type === "tool_use" &&
      (block.input === null || typeof block.input !== "object" || Array.isArray(block.input))
    ) {
      throw new ModelError(
        "malformed_tool_json",
        `Tool returned malformed JSON; raw body: ${JSON.stringify(block.input)}`,
      );
    }
  }
  return { ...(m as unknown as Message), usage: normalizeUsage(m.usage) };
}

/**
 * The body's bytes in reads of up to 64 KiB: a BYOB read takes everything already queued at once,
 * where the default reader hands over each network frame (one SSE event, often) on its own.
 */
async function* chunks(body: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  let reader: ReadableStreamBYOBReader;
  try {
    reader = body.getReader({ mode: "byob" });
  } catch {
    yield* body; // not a byte stream: its own chunks
    return;
  }
  try {
    let buf = new ArrayBuffer(64 * 1024);
    for (;;) {
      const { value, done } = await reader.read(new Uint8Array(buf));
      if (done || !value) return;
      yield value;
      buf = value.buffer; // the read hands the buffer back; reuse it once the caller has decoded it
    }
  } finally {
    reader.releaseLock();
  }
}

/** How much of a stream's text is kept while no event has come (an error body is small). */
const MAX_RAW_ERROR_BODY = 64 * 1024;

async function readStream(
  body: ReadableStream<Uint8Array>,
  status: number,
  opts: ClientOptions,
  ctx: ErrorContext,
  watch: IdleWatch,
): Promise<Message> {
  const decoder = new SseDecoder();
  const acc = new MessageAccumulator({
    onText: opts.onText,
    onError: (type, message) => fromApiError(ctx, type, message, undefined, false),
  });
  const text = new TextDecoder();
  // Until the first event, the raw text is kept (bounded): a body labelled as a stream that is
  // really a JSON error (a 429 or overloaded body behind a proxy) is reported as that error, with
  // no fallback re-send (the spec's single-send case), not as a stream that ended early.
  let events = 0;
  let raw = "";
  const keep = (decoded: string) => {
    if (events === 0 && raw.length < MAX_RAW_ERROR_BODY) raw += decoded;
    return decoded;
  };
  const handle = (evs: Array<{ event: string; data: string }>) => {
    events += evs.length;
    for (const ev of evs) {
      if (ev.data === "") continue;
      let data: unknown;
      try {
        data = JSON.parse(ev.data);
      } catch {
        throw new StreamParseError(`event ${ev.event} carries invalid JSON`);
      }
      if (data === null || typeof data !== "object") {
        throw new StreamParseError(`event ${ev.event} is not an object`);
      }
      const obj = data as Record<string, unknown>;
      if (obj.type === undefined) obj.type = ev.event;
      acc.apply(obj);
    }
  };
  try {
    for await (const chunk of chunks(body)) {
      watch.touch();
      handle(decoder.push(keep(text.decode(chunk, { stream: true }))));
    }
    handle(decoder.push(keep(text.decode())));
    handle(decoder.end());
  } catch (err) {
    if (err instanceof ModelError || err instanceof StreamParseError) throw err;
    if (opts.signal?.aborted) throw new ModelError("cancelled", "cancelled");
    if (watch.fired) throw watch.error(opts.url);
    throw new ModelError(
      "stream_incomplete",
      `the stream from ${opts.url} broke off (${(err as Error).message})`,
      {
        retryable: true,
      },
    );
  }
  if (events === 0) {
    const error = parseErrorBody(raw);
    if (error) throw fromApiError(ctx, error.type, error.message, status, true);
    if (raw.trim() === "") {
      throw new ModelError("empty_response", `Network error: empty response from ${opts.url}`, {
        retryable: true,
      });
    }
  }
  if (!acc.complete) {
    throw new ModelError("stream_incomplete", `the stream from ${opts.url} ended without message_stop`, {
      retryable: true,
    });
  }
  return acc.message();
}
