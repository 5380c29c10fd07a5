/**
 * A local fake of the Messages API (research/model-api.md §9), a real HTTP server on 127.0.0.1:
 * header checks (anthropic-version; exactly one of x-api-key / Authorization; the OAuth beta),
 * tool_use / tool_result pairing and role alternation with the vendor's exact messages, scripted
 * replies served as JSON or SSE (message_start, ping, text deltas split, an input_json_delta whose
 * first fragment is "", cumulative message_delta usage, message_stop), cache accounting (a repeated
 * prefix is read from cache), both rate-limit header families, and injected faults. Every request
 * is recorded for assertions. The OAuth token endpoint lives at /v1/oauth/token. The hang faults
 * keep a connection open without a byte until the client goes away or the fake closes.
 */

export interface ScriptedReply {
  text?: string;
  toolCalls?: Array<{ name: string; input: Record<string, unknown> | string; id?: string }>;
  stopReason?: string;
}

export type Fault =
  | { kind: "status"; status: number; type: string; message: string; headers?: Record<string, string> }
  | { kind: "rate_limit_api_key"; retryAfter?: number }
  | { kind: "rate_limit_unified"; retryAfter?: number }
  | { kind: "overloaded" }
  | { kind: "mid_stream_error"; type?: string }
  | { kind: "eof_without_stop" }
  | { kind: "html"; status?: number }
  | { kind: "empty"; status?: number }
  | { kind: "garbage_stream" }
  | { kind: "json_instead_of_sse" }
  | { kind: "malformed_tool_json" }
  /** Accepts the request, sends the headers (and the first `afterEvents` stream events), then nothing. */
  | { kind: "hang"; afterEvents?: number }
  /** Accepts the connection and the request body, then never answers. */
  | { kind: "hang_before_headers" }
  /**
   * Sends the headers and message_start, then a ping every `everyMs` (the API thinking): `count`
   * pings and then the rest of the answer, or pings until the client goes away.
   */
  | { kind: "pings"; everyMs: number; count?: number };

interface FakeMessage {
  id: string;
  type: string;
  role: string;
  model: unknown;
  content: Array<Record<string, unknown>>;
  stop_reason: string;
  stop_sequence: null;
  stop_details: null;
  usage: Record<string, unknown>;
}

export interface RecordedRequest {
  path: string;
  headers: Record<string, string>;
  body: string;
  json?: Record<string, unknown>;
}

export interface FakeOptions {
  apiKeys?: string[];
  oauthTokens?: string[];
  /** OAuth refresh tokens the token endpoint accepts → the access token it hands out. */
  refreshTokens?: Record<string, string>;
  /** Require User-Agent and Accept on token requests (else the misleading 429). */
  strictTokenHeaders?: boolean;
  /** Split text deltas into pieces of this many characters. @default 7 */
  chunk?: number;
  /**
   * Bytes per write of an SSE body. The default cuts at awkward places (inside lines, between
   * `\n\n`); a large value sends the body as a socket would when its reader is behind. @default 97
   */
  frame?: number;
}

export class FakeModelApi {
  readonly requests: RecordedRequest[] = [];
  readonly replies: Array<ScriptedReply | ((req: Record<string, unknown>) => ScriptedReply)> = [];
  readonly faults: Fault[] = [];
  /** Faults for the Nth request to /v1/messages (1-based), checked before the queue. */
  readonly faultAt = new Map<number, Fault>();
  readonly tokenRequests: RecordedRequest[] = [];
  #server: Deno.HttpServer<Deno.NetAddr>;
  #prefixes = new Set<string>();
  #opts: FakeOptions;
  #ids = 0;
  /** Releases the hung responses (on close, so the server can shut down). */
  #hangs = new Set<() => void>();

  constructor(opts: FakeOptions = {}) {
    this.#opts = { apiKeys: ["sk-ant-test-key"], oauthTokens: [], refreshTokens: {}, chunk: 7, ...opts };
    this.#server = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen: () => {} },
      (req) => this.#handle(req),
    );
  }

  get url(): string {
    return `http://127.0.0.1:${this.#server.addr.port}/v1/messages`;
  }

  get base(): string {
    return `http://127.0.0.1:${this.#server.addr.port}`;
  }

  /** Requests to /v1/messages only. */
  get messageRequests(): RecordedRequest[] {
    return this.requests.filter((r) => r.path === "/v1/messages");
  }

  async close(): Promise<void> {
    for (const release of this.#hangs) release();
    await this.#server.shutdown();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  async #handle(req: Request): Promise<Response> {
    const url = new URL(req.url);
    const body = await req.text();
    const headers: Record<string, string> = {};
    req.headers.forEach((v, k) => (headers[k] = v));
    const rec: RecordedRequest = { path: url.pathname, headers, body };
    try {
      rec.json = JSON.parse(body);
    } catch { /* recorded as text */ }
    if (url.pathname === "/v1/oauth/token") {
      this.tokenRequests.push(rec);
      return this.#token(req, rec);
    }
    this.requests.push(rec);
    if (url.pathname !== "/v1/messages" || req.method !== "POST") {
      return error(404, "not_found_error", "The requested resource could not be found.");
    }
    if (!req.headers.get("anthropic-version")) {
      return error(400, "invalid_request_error", "anthropic-version: header is required");
    }
    const key = req.headers.get("x-api-key");
    const bearer = req.headers.get("authorization");
    if ((key === null) === (bearer === null)) return error(401, "authentication_error", "invalid x-api-key");
    if (key !== null && !this.#opts.apiKeys!.includes(key)) {
      return error(401, "authentication_error", "invalid x-api-key");
    }
    if (bearer !== null) {
      const token = bearer.replace(/^Bearer\s+/i, "");
      // Newer SDKs send an API key as a bearer token; an OAuth access token needs the OAuth beta.
      if (!this.#opts.apiKeys!.includes(token)) {
        if (
          !(req.headers.get("anthropic-beta") ?? "").split(",").map((s) => s.trim()).includes(
            "oauth-2025-04-20",
          )
        ) {
          return error(401, "authentication_error", "OAuth authentication is currently not supported.");
        }
        if (!this.#opts.oauthTokens!.includes(token)) {
          return error(
            401,
            "authentication_error",
            "OAuth token has expired. Please obtain a new token or refresh your existing token.",
          );
        }
      }
    }
    const json = rec.json;
    if (!json) {
      return error(
        400,
        "invalid_request_error",
        "There was an issue with the format of your request: invalid JSON",
      );
    }
    for (const field of ["model", "max_tokens", "messages"]) {
      if (!(field in json)) return error(400, "invalid_request_error", `${field}: Field required`);
    }
    const pairing = checkMessages(json.messages as Array<Record<string, unknown>>);
    if (pairing) return error(400, "invalid_request_error", pairing);

    const nth = this.messageRequests.length;
    const fault = this.faultAt.get(nth) ?? this.faults.shift();
    this.faultAt.delete(nth);
    const stream = json.stream === true;
    const rl = apiKeyHeaders();
    if (fault) {
      switch (fault.kind) {
        case "status":
          return error(fault.status, fault.type, fault.message, { ...rl, ...fault.headers });
        case "rate_limit_api_key":
          return error(
            429,
            "rate_limit_error",
            "Number of request tokens has exceeded your per-minute rate limit",
            {
              ...apiKeyHeaders(0),
              "retry-after": String(fault.retryAfter ?? 1),
            },
          );
        case "rate_limit_unified":
          return error(
            429,
            "rate_limit_error",
            "This request would exceed your account's rate limit. Please try again later.",
            {
              ...unifiedHeaders("rejected"),
              "retry-after": String(fault.retryAfter ?? 1),
            },
          );
        case "overloaded":
          return error(529, "overloaded_error", "Overloaded");
        case "html":
          return new Response(
            "<!DOCTYPE html><html><head><title>Access Denied - Web Filter</title></head><body>Blocked by policy</body></html>",
            { status: fault.status ?? 200, headers: { "content-type": "text/html" } },
          );
        case "empty":
          return new Response("", { status: fault.status ?? 502 });
        case "hang_before_headers":
          return await this.#hang(req, () => new Response("", { status: 504 }));
        default:
          break; // stream-shaped faults below
      }
    }
    const script = this.replies.shift();
    if (!script) return error(500, "api_error", "fake: no scripted reply left");
    const reply = typeof script === "function" ? script(json) : script;
    const usage = this.#usage(json);
    const message = this.#message(json, reply, usage);
    if (!stream || fault?.kind === "json_instead_of_sse") {
      if (fault?.kind === "malformed_tool_json") {
        return new Response("{not json", {
          status: 200,
          headers: { "content-type": "application/json", ...rl },
        });
      }
      return new Response(JSON.stringify(message), {
        status: 200,
        headers: { "content-type": "application/json", ...rl },
      });
    }
    if (fault?.kind === "pings") {
      const events = this.#sseEvents(message, undefined);
      const enc = new TextEncoder();
      let timer: ReturnType<typeof setInterval> | undefined;
      let release = () => {};
      const body = new ReadableStream<Uint8Array>({
        start: (controller) => {
          controller.enqueue(enc.encode(events[0]));
          let sent = 0;
          release = () => {
            clearInterval(timer);
            this.#hangs.delete(release);
            try {
              controller.close();
            } catch { /* already cancelled */ }
          };
          this.#hangs.add(release);
          timer = setInterval(() => {
            try {
              if (fault.count !== undefined && sent >= fault.count) {
                clearInterval(timer);
                for (const e of events.slice(1)) controller.enqueue(enc.encode(e));
                this.#hangs.delete(release);
                controller.close();
                return;
              }
              sent++;
              controller.enqueue(enc.encode('event: ping\ndata: {"type": "ping"}\n\n'));
            } catch {
              release();
            }
          }, fault.everyMs);
        },
        cancel: () => release(),
      });
      req.signal.addEventListener("abort", () => release(), { once: true });
      return new Response(body, {
        status: 200,
        headers: { "content-type": "text/event-stream; charset=utf-8", ...rl },
      });
    }
    if (fault?.kind === "hang") {
      const events = this.#sseEvents(message, undefined).slice(0, fault.afterEvents ?? 0);
      const enc = new TextEncoder();
      let release = () => {};
      const body = new ReadableStream<Uint8Array>({
        start: (controller) => {
          for (const e of events) controller.enqueue(enc.encode(e));
          release = () => {
            this.#hangs.delete(release);
            try {
              controller.close();
            } catch { /* already cancelled */ }
          };
          this.#hangs.add(release);
        },
        cancel: () => release(),
      });
      req.signal.addEventListener("abort", () => release(), { once: true });
      return new Response(body, {
        status: 200,
        headers: { "content-type": "text/event-stream; charset=utf-8", ...rl },
      });
    }
    return new Response(this.#sse(message, fault), {
      status: 200,
      headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache", ...rl },
    });
  }

  #usage(json: Record<string, unknown>) {
    // Tokens ≈ characters / 4. The cached prefix is tools + system (+ earlier turns): a repeat reads it.
    const prefix = JSON.stringify([json.tools ?? [], json.system ?? []]);
    const msgs = JSON.stringify(json.messages);
    const prefixTokens = Math.ceil(prefix.length / 4);
    const seen = this.#prefixes.has(prefix);
    this.#prefixes.add(prefix);
    return {
      input_tokens: Math.ceil(msgs.length / 4),
      cache_creation_input_tokens: seen ? 0 : prefixTokens,
      cache_read_input_tokens: seen ? prefixTokens : 0,
      cache_creation: { ephemeral_5m_input_tokens: seen ? 0 : prefixTokens, ephemeral_1h_input_tokens: 0 },
      output_tokens: 0,
      service_tier: "standard",
    };
  }

  #message(json: Record<string, unknown>, reply: ScriptedReply, usage: Record<string, unknown>): FakeMessage {
    const content: Array<Record<string, unknown>> = [];
    if (reply.text) content.push({ type: "text", text: reply.text });
    for (const call of reply.toolCalls ?? []) {
      content.push({
        type: "tool_use",
        id: call.id ?? `toolu_fake${String(++this.#ids).padStart(6, "0")}`,
        name: call.name,
        input: call.input,
        caller: { type: "direct" },
      });
    }
    const out = Math.ceil(JSON.stringify(content).length / 4);
    return {
      id: `msg_fake${String(++this.#ids).padStart(6, "0")}`,
      type: "message",
      role: "assistant",
      model: json.model,
      content,
      stop_reason: reply.stopReason ?? (reply.toolCalls?.length ? "tool_use" : "end_turn"),
      stop_sequence: null,
      stop_details: null,
      usage: { ...usage, output_tokens: out },
    };
  }

  /** Waits, sending nothing, until the client goes away or the fake closes. */
  #hang(req: Request, then: () => Response): Promise<Response> {
    return new Promise((resolve) => {
      const release = () => {
        this.#hangs.delete(release);
        resolve(then());
      };
      this.#hangs.add(release);
      req.signal.addEventListener("abort", release, { once: true });
    });
  }

  #sse(message: FakeMessage, fault: Fault | undefined): ReadableStream<Uint8Array> {
    const events = this.#sseEvents(message, fault);
    if (fault?.kind === "mid_stream_error") {
      return streamOf(
        new TextEncoder(),
        events.slice(0, events.findIndex((e) => e.startsWith("event: error")) + 1),
        this.#opts.frame,
      );
    }
    return streamOf(new TextEncoder(), events, this.#opts.frame);
  }

  #sseEvents(message: FakeMessage, fault: Fault | undefined): string[] {
    const events: string[] = [];
    const ev = (name: string, data: unknown) =>
      events.push(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
    if (fault?.kind === "garbage_stream") {
      events.push("event: message_start\ndata: {this is not json\n\n");
    }
    ev("message_start", {
      type: "message_start",
      message: { ...message, content: [], stop_reason: null, usage: { ...message.usage, output_tokens: 1 } },
    });
    events.push(": keep-alive comment\n\n");
    ev("ping", { type: "ping" });
    const chunk = this.#opts.chunk!;
    message.content.forEach((block, index) => {
      if (block.type === "text") {
        ev("content_block_start", {
          type: "content_block_start",
          index,
          content_block: { type: "text", text: "" },
        });
        const text = String(block.text);
        for (let i = 0; i < text.length; i += chunk) {
          ev("content_block_delta", {
            type: "content_block_delta",
            index,
            delta: { type: "text_delta", text: text.slice(i, i + chunk) },
          });
        }
        if (fault?.kind === "mid_stream_error") {
          events.push(
            `event: error\ndata: ${
              JSON.stringify({
                type: "error",
                error: { details: null, type: fault.type ?? "overloaded_error", message: "Overloaded" },
                request_id: "req_fake",
              })
            }\n\n`,
          );
          return;
        }
        ev("content_block_stop", { type: "content_block_stop", index });
      } else {
        ev("content_block_start", {
          type: "content_block_start",
          index,
          content_block: { ...block, input: {} },
        });
        const json = fault?.kind === "malformed_tool_json"
          ? '{"path": "x", oops'
          : typeof block.input === "string"
          ? block.input
          : JSON.stringify(block.input);
        ev("content_block_delta", {
          type: "content_block_delta",
          index,
          delta: { type: "input_json_delta", partial_json: "" },
        });
        for (let i = 0; i < json.length; i += chunk) {
          ev("content_block_delta", {
            type: "content_block_delta",
            index,
            delta: { type: "input_json_delta", partial_json: json.slice(i, i + chunk) },
          });
        }
        ev("content_block_stop", { type: "content_block_stop", index });
      }
    });
    if (fault?.kind === "mid_stream_error") return events;
    ev("message_delta", {
      type: "message_delta",
      delta: { stop_reason: message.stop_reason, stop_sequence: null },
      usage: { ...message.usage },
    });
    if (fault?.kind !== "eof_without_stop") ev("message_stop", { type: "message_stop" });
    return events;
  }

  #token(req: Request, rec: RecordedRequest): Response {
    if (
      this.#opts.strictTokenHeaders &&
      (!req.headers.get("user-agent")?.trim() || req.headers.get("accept") !== "application/json")
    ) {
      // The misleading answer the real endpoint gives without User-Agent / Accept.
      return error(429, "rate_limit_error", "Rate limited. Please try again later.");
    }
    const body = rec.json ?? Object.fromEntries(new URLSearchParams(rec.body));
    if (body.grant_type === "refresh_token") {
      const access = this.#opts.refreshTokens![String(body.refresh_token)];
      if (!access) {
        return Response.json({ error: "invalid_grant", error_description: "refresh token is invalid" }, {
          status: 400,
        });
      }
      this.#opts.oauthTokens!.push(access);
      return Response.json({
        access_token: access,
        expires_in: 3600,
        refresh_token: `${body.refresh_token}-next`,
        token_type: "Bearer",
      });
    }
    if (body.grant_type === "authorization_code") {
      const access = `oat-${crypto.randomUUID()}`;
      this.#opts.oauthTokens!.push(access);
      this.#opts.refreshTokens![`ort-${access}`] = `oat-${crypto.randomUUID()}`;
      return Response.json({
        access_token: access,
        expires_in: 3600,
        refresh_token: `ort-${access}`,
        token_type: "Bearer",
      });
    }
    return Response.json({ error: "unsupported_grant_type" }, { status: 400 });
  }
}

function streamOf(enc: TextEncoder, events: string[], frame = 97): ReadableStream<Uint8Array> {
  // Split the byte stream at awkward places too (inside lines, between \n\n).
  const all = enc.encode(events.join(""));
  const cuts = [0];
  for (let i = 13; i < all.length; i += frame) cuts.push(i);
  cuts.push(all.length);
  let k = 0;
  return new ReadableStream({
    pull(controller) {
      if (k >= cuts.length - 1) return controller.close();
      controller.enqueue(all.subarray(cuts[k], cuts[k + 1]));
      k++;
    },
  });
}

function error(
  status: number,
  type: string,
  message: string,
  headers: Record<string, string> = {},
): Response {
  return new Response(
    JSON.stringify({ type: "error", error: { type, message }, request_id: `req_fake${status}` }),
    {
      status,
      headers: { "content-type": "application/json", "request-id": `req_fake${status}`, ...headers },
    },
  );
}

/** §5a headers; resets are RFC 3339. */
export function apiKeyHeaders(remaining = 999): Record<string, string> {
  const reset = new Date(Date.now() + 60_000).toISOString().replace(/\.\d+Z$/, "Z");
  return {
    "anthropic-ratelimit-requests-limit": "1000",
    "anthropic-ratelimit-requests-remaining": String(remaining),
    "anthropic-ratelimit-requests-reset": reset,
    "anthropic-ratelimit-tokens-limit": "96000",
    "anthropic-ratelimit-tokens-remaining": remaining === 0 ? "0" : "96000",
    "anthropic-ratelimit-tokens-reset": reset,
    "request-id": "req_fake",
    "anthropic-organization-id": "00000000-0000-0000-0000-000000000000",
  };
}

/** §5b headers; resets are epoch seconds. */
export function unifiedHeaders(status: "allowed" | "rejected"): Record<string, string> {
  const now = Math.floor(Date.now() / 1000);
  return {
    "anthropic-ratelimit-unified-status": status,
    "anthropic-ratelimit-unified-5h-status": status,
    "anthropic-ratelimit-unified-5h-reset": String(now + 3600),
    "anthropic-ratelimit-unified-5h-utilization": status === "rejected" ? "1.0" : "0.42",
    "anthropic-ratelimit-unified-7d-status": "allowed",
    "anthropic-ratelimit-unified-7d-reset": String(now + 86400 * 3),
    "anthropic-ratelimit-unified-7d-utilization": "0.59",
    "anthropic-ratelimit-unified-representative-claim": "five_hour",
  };
}

/** The vendor's pairing and alternation checks, with its exact messages (§4). */
function checkMessages(messages: Array<Record<string, unknown>>): string | undefined {
  if (!Array.isArray(messages) || messages.length === 0) return "messages: at least one message is required";
  for (let i = 1; i < messages.length; i++) {
    if (messages[i].role === messages[i - 1].role) {
      return 'messages: roles must alternate between "user" and "assistant"';
    }
  }
  for (let i = 0; i < messages.length; i++) {
    const content = messages[i].content;
    const blocks = Array.isArray(content) ? content as Array<Record<string, unknown>> : [];
    if (typeof content === "string" && content === "") return "text content blocks must be non-empty";
    if (messages[i].role === "assistant") {
      const uses = blocks.filter((b) => b.type === "tool_use").map((b) => String(b.id));
      if (uses.length === 0) continue;
      const next = messages[i + 1];
      const nextBlocks = next && Array.isArray(next.content)
        ? next.content as Array<Record<string, unknown>>
        : [];
      const answered = new Set(
        nextBlocks.filter((b) => b.type === "tool_result").map((b) => String(b.tool_use_id)),
      );
      const missing = uses.filter((id) => !answered.has(id));
      if (missing.length && next) {
        return `messages.${i}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${
          missing.join(", ")
        }. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`;
      }
    } else {
      const prev = messages[i - 1];
      const prevUses = new Set(
        prev && Array.isArray(prev.content)
          ? (prev.content as Array<Record<string, unknown>>).filter((b) => b.type === "tool_use").map((b) =>
            String(b.id)
          )
          : [],
      );
      for (let j = 0; j < blocks.length; j++) {
        const b = blocks[j];
        if (b.type === "tool_result" && !prevUses.has(String(b.tool_use_id))) {
          return `messages.${i}.content.${j}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${b.tool_use_id}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`;
        }
      }
    }
  }
  return undefined;
}
