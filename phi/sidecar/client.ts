/**
 * Tier 5: the client of the local redaction sidecar (phi/sidecar/server.py).
 *
 * Protocol (JSON over HTTP on 127.0.0.1:`ASSIST_PHI_PORT`, default 41189; 5 s client timeout):
 *
 * - `GET /health` → 200 `{"status": "ok", "engine": "presidio" | "regex", "pid": <int>,
 *   "version": "<server version>", "python": "<interpreter path>", "entities": ["PERSON", ...]}`
 * - `POST /redact` with `{"text": "<text>", "language": "en"}` (optional `"entities": [...]`,
 *   `"score_threshold": <0..1>`) → 200 `{"entities": [{"entity_type": "PERSON", "start": 10,
 *   "end": 20, "score": 0.85}, ...]}`. Offsets are `[start, end)` in Unicode code points (Python
 *   string indices); the client converts them to JavaScript string offsets. The sidecar only
 *   detects: tokens are minted here, from the shared lookup table, so they stay stable.
 * - `POST /shutdown` → 200 `{"status": "stopping"}` (used by `/phi-sidecar stop`).
 * - Errors: 4xx/5xx with `{"error": "<message>"}`.
 *
 * Authentication: `/phi-sidecar start` writes a random token to `<phi-venv>/sidecar.token` (0600,
 * folder 0700) and gives the server the file's path. `/redact` and `/shutdown` need the token in
 * `X-Assist-Sidecar-Token` (403 otherwise), so no other local user can use the sidecar or stop it.
 * Before any text is sent, the client proves the listener is ours: it sends a random nonce in
 * `X-Assist-Nonce` to `/health` and checks `proof` = HMAC-SHA256(token, nonce), so a process that
 * squats on the port never sees text or the token. An unproven sidecar counts as unreachable.
 *
 * Before sending, every existing `[[...]]` token is swapped for a sentinel of the same length
 * (private-use characters the recognizers ignore); an entity that touches a sentinel is dropped, so
 * tokens are never nested, and the offsets need no mapping back. Acronyms tagged as organizations
 * (SSN, MRN, DOB, ADT, ...) and HL7 segment ids are dropped. Entities become category
 * `presidio_<TYPE>`.
 */
import { ANY_TOKEN_RE } from "../token.ts";

export interface SidecarEntity {
  /** Presidio entity type, e.g. PERSON, US_SSN, HL7_MRN. */
  type: string;
  /** `[start, end)` in the text given to `detect` (JavaScript offsets). */
  start: number;
  end: number;
  score: number;
}

export interface SidecarHealth {
  status: string;
  engine?: string;
  pid?: number;
  version?: string;
  python?: string;
  entities?: string[];
}

/** What the engine needs from tier 5; tests inject their own. */
export interface SidecarDetector {
  /** Entities of `text`, or undefined when the sidecar is not reachable (tier 5 is then a no-op). */
  detect(text: string): Promise<SidecarEntity[] | undefined>;
  /** Why the last call gave undefined (one line, no text content). */
  readonly lastError?: string;
  /** Where it is, for messages ("127.0.0.1:41189"). */
  readonly address: string;
}

export interface SidecarClientOptions {
  /** @default 41189 */
  port?: number;
  /** @default "127.0.0.1" */
  host?: string;
  /** @default 5000 */
  timeoutMs?: number;
  /** After a failure, calls within this many ms return undefined at once. @default 30000 */
  retryAfterMs?: number;
  /**
   * The shared token's file (`<phi-venv>/sidecar.token`). When given, the listener must prove it
   * holds the token before any text is sent. Omitted only by tests of the bare protocol.
   */
  tokenFile?: string;
}

/** Acronyms and HL7 words that NER models like to tag as organizations. */
export const DROPPED_ACRONYMS: ReadonlySet<string> = new Set([
  "SSN",
  "MRN",
  "DOB",
  "ADT",
  "ORU",
  "ORM",
  "SIU",
  "DFT",
  "MDM",
  "ACK",
  "HL7",
  "NPI",
  "EHR",
  "EMR",
  "PHI",
  "MSH",
  "PID",
  "PV1",
  "PV2",
  "EVN",
  "OBR",
  "OBX",
  "ORC",
  "NK1",
  "GT1",
  "IN1",
  "IN2",
  "NTE",
  "MSA",
  "SMAT",
  "TCP",
  "MLLP",
]);

const ORG_TYPES = new Set(["ORGANIZATION", "ORG", "NRP"]);
const SENTINEL = "\uE000";
const TYPE_RE = /^[A-Z][A-Z0-9_]{0,39}$/;

/** Text with every token replaced by sentinel characters of the same length. */
export function maskTokens(text: string): string {
  if (text.indexOf("[[") === -1) return text;
  return text.replace(ANY_TOKEN_RE, (t) => SENTINEL.repeat(t.length));
}

/** Converts a code-point offset of `text` to a UTF-16 offset (identity when no surrogate pairs). */
function codePointOffsets(text: string): ((cp: number) => number) | undefined {
  if (!/[\uD800-\uDBFF]/.test(text)) return undefined;
  const map: number[] = [];
  let i = 0;
  for (const ch of text) {
    map.push(i);
    i += ch.length;
  }
  map.push(i);
  return (cp) => map[Math.max(0, Math.min(cp, map.length - 1))];
}

/**
 * Keeps the entities the engine may tokenize: valid offsets, a known type shape, not touching a
 * masked token, not a dropped acronym.
 */
export function filterEntities(text: string, masked: string, raw: unknown): SidecarEntity[] {
  if (!Array.isArray(raw)) return [];
  const conv = codePointOffsets(text);
  const out: SidecarEntity[] = [];
  for (const e of raw) {
    if (e === null || typeof e !== "object") continue;
    const o = e as Record<string, unknown>;
    const type = o.entity_type;
    let start = o.start, end = o.end;
    if (typeof type !== "string" || !TYPE_RE.test(type)) continue;
    if (
      typeof start !== "number" || typeof end !== "number" || !Number.isInteger(start) ||
      !Number.isInteger(end)
    ) {
      continue;
    }
    if (conv) start = conv(start), end = conv(end);
    if ((start as number) < 0 || (end as number) > text.length || (end as number) <= (start as number)) {
      continue;
    }
    const s = start as number, en = end as number;
    if (masked.slice(s, en).includes(SENTINEL)) continue;
    const value = text.slice(s, en).trim();
    if (value === "") continue;
    if (DROPPED_ACRONYMS.has(value.toUpperCase()) && (ORG_TYPES.has(type) || /^[A-Z0-9]{2,5}$/.test(value))) {
      continue;
    }
    if (ORG_TYPES.has(type) && /^[A-Z0-9]{2,5}$/.test(value)) continue;
    const score = typeof o.score === "number" ? o.score : 0;
    out.push({ type, start: s, end: en, score });
  }
  return out;
}

/**
 * The HTTP client.
 *
 * @example
 * ```ts
 * import type { Config } from "../../core/config.ts";
 * declare const config: Config;
 * const sidecar = new SidecarClient({ port: config.phiPort });
 * const entities = await sidecar.detect("Seen by John Smith"); // undefined when not running
 * ```
 */
export class SidecarClient implements SidecarDetector {
  readonly address: string;
  readonly #base: string;
  readonly #timeoutMs: number;
  readonly #retryAfterMs: number;
  readonly #tokenFile?: string;
  #token?: string;
  #proven = false;
  #downUntil = 0;
  lastError?: string;

  constructor(options: SidecarClientOptions = {}) {
    const host = options.host ?? "127.0.0.1";
    const port = options.port ?? 41189;
    this.address = `${host}:${port}`;
    this.#base = `http://${host}:${port}`;
    this.#timeoutMs = options.timeoutMs ?? 5000;
    this.#retryAfterMs = options.retryAfterMs ?? 30_000;
    this.#tokenFile = options.tokenFile;
  }

  /** The token header, after proving (once, and again after any failure) that the listener holds it. */
  async #auth(): Promise<Record<string, string>> {
    if (!this.#tokenFile) return {};
    if (this.#proven && this.#token) return { "x-assist-sidecar-token": this.#token };
    let token: string;
    try {
      token = (await Deno.readTextFile(this.#tokenFile)).trim();
    } catch {
      throw new Error("no sidecar token (start it with /phi-sidecar start)");
    }
    if (!token) throw new Error("the sidecar token file is empty (restart it with /phi-sidecar start)");
    const nonce = crypto.getRandomValues(new Uint8Array(16)).toHex();
    const h = await this.#call("/health", { headers: { "x-assist-nonce": nonce } }) as { proof?: unknown };
    const key = await crypto.subtle.importKey(
      "raw",
      new TextEncoder().encode(token),
      { name: "HMAC", hash: "SHA-256" },
      false,
      [
        "sign",
      ],
    );
    const want = new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(nonce)))
      .toHex();
    if (typeof h?.proof !== "string" || h.proof !== want) {
      throw new Error(
        `the listener on ${this.address} is not assist's sidecar (no proof of the token); nothing was sent`,
      );
    }
    this.#token = token;
    this.#proven = true;
    return { "x-assist-sidecar-token": token };
  }

  async #call(path: string, init: RequestInit = {}): Promise<unknown> {
    const res = await fetch(`${this.#base}${path}`, {
      ...init,
      signal: AbortSignal.timeout(this.#timeoutMs),
    });
    const body = await res.text();
    if (!res.ok) {
      let msg = `HTTP ${res.status}`;
      try {
        const e = JSON.parse(body);
        if (e && typeof e.error === "string") msg += `: ${e.error.slice(0, 200)}`;
      } catch { /* not JSON */ }
      throw new Error(msg);
    }
    return JSON.parse(body);
  }

  #fail(err: unknown): undefined {
    const e = err as Error;
    this.lastError = e?.name === "TimeoutError"
      ? `no answer within ${this.#timeoutMs / 1000} s`
      : (e?.message ?? String(err)).split("\n")[0].slice(0, 200);
    this.#downUntil = Date.now() + this.#retryAfterMs;
    this.#proven = false;
    return undefined;
  }

  /** `GET /health`, or undefined when not reachable. */
  async health(): Promise<SidecarHealth | undefined> {
    try {
      const h = await this.#call("/health") as SidecarHealth;
      if (!h || typeof h !== "object" || h.status !== "ok") throw new Error("unexpected /health answer");
      this.lastError = undefined;
      this.#downUntil = 0;
      return h;
    } catch (err) {
      return this.#fail(err);
    }
  }

  /** `POST /redact` on the masked text; entities filtered (see module notes). */
  async detect(text: string): Promise<SidecarEntity[] | undefined> {
    if (Date.now() < this.#downUntil) return undefined;
    if (text.trim() === "") return [];
    const masked = maskTokens(text);
    try {
      const auth = await this.#auth();
      const body = await this.#call("/redact", {
        method: "POST",
        headers: { "content-type": "application/json", ...auth },
        body: JSON.stringify({ text: masked, language: "en" }),
      }) as { entities?: unknown };
      this.lastError = undefined;
      return filterEntities(text, masked, body?.entities);
    } catch (err) {
      return this.#fail(err);
    }
  }

  /** `POST /shutdown`; true when the sidecar acknowledged. */
  async shutdown(): Promise<boolean> {
    try {
      const auth = await this.#auth();
      await this.#call("/shutdown", {
        method: "POST",
        headers: { "content-type": "application/json", ...auth },
        body: "{}",
      });
      return true;
    } catch {
      return false;
    }
  }
}
