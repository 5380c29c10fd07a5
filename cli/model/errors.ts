/**
 * Model API failures, each with a kind the agent loop acts on and the operator-facing sentence of
 * the spec's "Model API errors" table. Messages are CR-stripped before matching and printing.
 */
import { AssistError, EXIT, oneLine } from "../../core/errors.ts";
import { stripCr } from "../../core/clean.ts";

export type ModelErrorKind =
  | "empty_response"
  | "authentication"
  | "rate_limit"
  | "overloaded"
  | "not_found"
  | "malformed_tool_json"
  | "blocked"
  | "network"
  | "stream_incomplete"
  | "timeout"
  | "api"
  | "invalid_request"
  | "cancelled";

export class ModelError extends AssistError {
  readonly kind: ModelErrorKind;
  readonly status?: number;
  /** The vendor's error.type, when there was one. */
  readonly apiType?: string;
  /** Seconds to wait before a retry, when the response said. */
  readonly retryAfter?: number;
  /** Whether a later identical request may succeed (the caller decides whether to send it). */
  readonly retryable: boolean;
  /** The error arrived as a non-SSE JSON body (the single-send case: no fallback re-send). */
  readonly errorBody: boolean;
  /**
   * What went wrong without the advice for a person acting on the final error ("wait a few
   * seconds and try again"): the retry notice says it and then "retrying in N s". @default message
   */
  readonly reason?: string;
  constructor(
    kind: ModelErrorKind,
    message: string,
    extra: {
      status?: number;
      apiType?: string;
      retryAfter?: number;
      retryable?: boolean;
      errorBody?: boolean;
      reason?: string;
    } = {},
  ) {
    // One line, CRs stripped (a lone one inside becomes a space); the command line exits 1.
    super(message, { level: "network", exitCode: EXIT.failure });
    this.name = "ModelError";
    this.kind = kind;
    this.status = extra.status;
    this.apiType = extra.apiType;
    this.retryAfter = extra.retryAfter;
    this.retryable = extra.retryable ?? false;
    this.errorBody = extra.errorBody ?? false;
    this.reason = extra.reason;
  }
}

export interface ErrorContext {
  url: string;
  model: string;
  /** A readable name of the rate-limit rail that tripped, e.g. "5h window (100%)". */
  rail?: string;
  retryAfter?: number;
}

/** The `{type:"error", error:{type, message}}` body, if `text` is one. */
export function parseErrorBody(text: string): { type: string; message: string } | undefined {
  try {
    const obj = JSON.parse(stripCr(text));
    const e = obj?.error;
    if (obj?.type === "error" && e && typeof e.type === "string") {
      return { type: stripCr(e.type), message: stripCr(String(e.message ?? "")) };
    }
  } catch { /* not JSON */ }
  return undefined;
}

/** An HTML page where JSON was expected: a filtering proxy's block or sign-in page. */
export function looksHtml(body: string, contentType: string | null): boolean {
  if (contentType && /text\/html/i.test(contentType)) return true;
  const head = body.slice(0, 2048).trimStart().toLowerCase();
  return head.startsWith("<!doctype") || head.startsWith("<html") || /<html[\s>]/.test(head) ||
    /<title>/.test(head);
}

function htmlTitle(body: string): string | undefined {
  const m = body.match(/<title[^>]*>([^<]{1,120})<\/title>/i);
  return m ? m[1].trim().replace(/\s+/g, " ") : undefined;
}

function host(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** The advice every "blocked" diagnosis ends with. */
export function blockedAdvice(url: string): string {
  return `Manual tools mode still works without the model (\`assist tools list\`); ` +
    `ask IT to allow-list ${host(url)} for this machine.`;
}

/** A blocked API diagnosed from an HTML body (filtering proxy, sign-in interception). */
export function blockedByHtml(ctx: ErrorContext, status: number, body: string): ModelError {
  const title = htmlTitle(body);
  return new ModelError(
    "blocked",
    `The model API at ${host(ctx.url)} answered with a web page (HTTP ${status}${
      title ? `, "${title}"` : ""
    }) instead of JSON: a web-filtering proxy or sign-in page is in the way. ${blockedAdvice(ctx.url)}`,
    { status },
  );
}

/**
 * A fetch that never got a response: DNS failure, refused or reset connection, TLS interception.
 */
export function fromNetworkFailure(ctx: ErrorContext, err: unknown): ModelError {
  const msg = stripCr(
    err instanceof Error ? `${err.message} ${String((err as { cause?: unknown }).cause ?? "")}` : String(err),
  );
  const h = host(ctx.url);
  if (/certificate|UnknownIssuer|self[- ]signed|tls|ssl|handshake/i.test(msg)) {
    return new ModelError(
      "blocked",
      `The TLS certificate presented for ${h} is not trusted (${firstClause(msg)}): ` +
        `traffic is probably intercepted by a proxy. ${blockedAdvice(ctx.url)}`,
    );
  }
  if (/dns|lookup|resolve|name or service|not known|ENOTFOUND|EAI_AGAIN/i.test(msg)) {
    return new ModelError(
      "blocked",
      `The name ${h} cannot be resolved from this machine (DNS failure). ${blockedAdvice(ctx.url)}`,
    );
  }
  return new ModelError("network", `Network error: cannot reach ${ctx.url} (${firstClause(msg)})`, {
    retryable: true,
  });
}

function firstClause(text: string): string {
  const t = oneLine(text);
  return t.length > 160 ? `${t.slice(0, 160)}…` : t;
}

/**
 * The error for an HTTP response that is not a success, from its status, body and the rate-limit
 * context: the spec's table, rewritten for reading.
 */
export function fromHttpError(
  ctx: ErrorContext,
  status: number,
  body: string,
  contentType: string | null,
): ModelError {
  if (body.trim() === "") {
    return new ModelError(
      "empty_response",
      `Network error: empty response from ${ctx.url} (HTTP ${status})`,
      {
        status,
        retryable: status >= 500 || status === 429,
        retryAfter: ctx.retryAfter,
      },
    );
  }
  const parsed = parseErrorBody(body);
  if (!parsed) {
    if (looksHtml(body, contentType)) return blockedByHtml(ctx, status, body);
    return new ModelError("api", `The model API returned HTTP ${status}: ${firstClause(body)}`, {
      status,
      retryable: status >= 500,
    });
  }
  return fromApiError(ctx, parsed.type, parsed.message, status, true);
}

/** The error for an `{type, message}` error, from an HTTP body or a mid-stream `event: error`. */
export function fromApiError(
  ctx: ErrorContext,
  type: string,
  message: string,
  status: number | undefined,
  errorBody: boolean,
): ModelError {
  // CR-stripped before matching (spec): a mid-stream or 200 error body is not parsed by
  // parseErrorBody, and `overloaded_error\r` must still be the retryable overload.
  type = stripCr(type).trim();
  message = stripCr(message);
  const base = { status, apiType: type, errorBody, retryAfter: ctx.retryAfter };
  switch (type) {
    case "authentication_error": {
      const oauthish = /oauth|token/i.test(message);
      return new ModelError(
        "authentication",
        `Authentication failed: ${message}. ` +
          (oauthish
            ? "Run /login to sign in again."
            : "Check the API key (/set-api-key or ASSIST_API_KEY), or run /login."),
        base,
      );
    }
    case "rate_limit_error":
    case "overloaded_error": {
      const what = type === "rate_limit_error" ? "rate limit reached" : "the model API is overloaded";
      const rail = ctx.rail ? `; tripped rail: ${ctx.rail}` : "";
      const wait = ctx.retryAfter !== undefined ? ` (retry-after ${ctx.retryAfter} s)` : "";
      return new ModelError(
        type === "rate_limit_error" ? "rate_limit" : "overloaded",
        `${what}${rail}: wait a few seconds and try again${wait}. (${message})`,
        { ...base, retryable: true, reason: `${what}${rail}` },
      );
    }
    case "not_found_error":
      return new ModelError(
        "not_found",
        `Not found: ${
          sentence(message)
        } The model in use is "${ctx.model}" (ASSIST_MODEL, or /model to change it).`,
        base,
      );
    case "api_error":
    case "timeout_error":
      return new ModelError("api", `The model API failed (${type}): ${message}`, {
        ...base,
        retryable: true,
      });
    case "invalid_request_error":
      return new ModelError("invalid_request", `The model API refused the request: ${message}`, base);
    default:
      return new ModelError("api", `The model API returned ${type}: ${message}`, {
        ...base,
        retryable: status !== undefined && status >= 500,
      });
  }
}

/** `text` ending as a sentence (a period added unless it already ends in `.`, `!` or `?`). */
export function sentence(text: string): string {
  const t = text.trim();
  return t === "" || /[.!?]$/.test(t) ? t : `${t}.`;
}

/** Malformed tool-call JSON from the model (spec wording). */
export function malformedToolJson(raw: string): ModelError {
  const shown = raw.length > 500 ? `${raw.slice(0, 500)}…` : raw;
  return new ModelError("malformed_tool_json", `Tool returned malformed JSON; raw body: ${shown}`);
}
