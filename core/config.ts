/**
 * The one place that reads ASSIST_* variables. `loadConfig` reads each once, validates it (enumerations,
 * CR-stripped and coerced integers, URLs) and throws an AssistError naming the variable, the value and
 * what was expected, in one line. Every other module takes a `Config`.
 */
import { AssistError } from "./errors.ts";
import { coerceInt, stripCr } from "./clean.ts";
import { Secret } from "./secret.ts";
import { defaultHome } from "./home.ts";
import { type EnvReader, readEnv } from "./env.ts";

export type AutoPhiMode = "off" | "on" | "confirm" | "strict";
export type AuthMode = "api-key" | "oauth";
export type PhiNamesMode = "auto" | "on" | "off";

export interface Config {
  /** $ASSIST_HOME. @default ~/.assist (%USERPROFILE%\.assist on Windows) */
  home: string;
  /** Update origin base (ASSIST_BASE_URL). */
  baseUrl?: string;
  /** @default "claude-sonnet-4-6" */
  model: string;
  /** @default "https://api.anthropic.com/v1/messages" */
  modelApiUrl: string;
  /** @default "api-key" */
  authMode: AuthMode;
  /** @default "on" */
  autoPhi: AutoPhiMode;
  /** true: ASSIST_NO_STREAM=1; false: =0 forces streaming; undefined: automatic. */
  noStream?: boolean;
  noStatus: boolean;
  mouse: boolean;
  noMouse: boolean;
  /** @default 41189 */
  phiPort: number;
  /** @default <home>/phi-venv */
  phiVenv: string;
  phiNotice: boolean;
  /**
   * The built-in tier 5 (person names in free text without the sidecar, ASSIST_PHI_NAMES): `auto`
   * runs it when the sidecar is not reachable or has no person recognizer, `on` always (its names are
   * added to the sidecar's), `off` never. @default "auto"
   */
  phiNames: PhiNamesMode;
  /** "always" forces the review gate; "auto" applies the threshold/HL7 rule. @default "auto" */
  toolResultReview: "always" | "auto";
  /** @default 8192 */
  toolResultReviewThreshold: number;
  uploadUrl?: string;
  /**
   * Seconds without a byte from the model API (a ping counts) before a request is given up as
   * stuck (ASSIST_IDLE_TIMEOUT). @default 300
   */
  idleTimeoutSeconds: number;
  /**
   * Seconds a `-p` turn may take in all, tools and retries included (ASSIST_TURN_TIMEOUT); 0: no
   * bound. @default 1800
   */
  turnTimeoutSeconds: number;
  /** Sessions older than this many days are pruned at REPL start. @default 30 */
  sessionRetentionDays: number;
  sshNoLogin: boolean;
  oauthDebug: boolean;
  /** Base of the OAuth token endpoint. @default "https://api.anthropic.com" */
  oauthUrl: string;
  /** The Console OAuth application's client id (ASSIST_OAUTH_CLIENT_ID). */
  oauthClientId?: string;
  /** ASSIST_ORIGIN_TOKEN, else ORIGIN_TOKEN. */
  originToken?: Secret;
  apiKey?: Secret;
  debug: boolean;
  noColor: boolean;
}

export const DEFAULT_MODEL = "claude-sonnet-4-6";
export const DEFAULT_MODEL_API_URL = "https://api.anthropic.com/v1/messages";
export const DEFAULT_PHI_PORT = 41189;
export const DEFAULT_REVIEW_THRESHOLD = 8192;
export const DEFAULT_SESSION_RETENTION_DAYS = 30;
/** Long thinking can pass minutes between visible words; the API pings meanwhile. */
export const DEFAULT_IDLE_TIMEOUT_SECONDS = 300;
export const DEFAULT_TURN_TIMEOUT_SECONDS = 1800;

/** Every variable the program reads, with its meaning: `--help` prints this table. */
export const ENV_DOC: ReadonlyArray<readonly [string, string]> = [
  ["ASSIST_HOME", "home folder (default ~/.assist, %USERPROFILE%\\.assist on Windows)"],
  ["ASSIST_MODEL", `model identifier (default ${DEFAULT_MODEL})`],
  ["ASSIST_MODEL_API_URL", "model API address (default the vendor's Messages API)"],
  ["ASSIST_AUTH_MODE", "api-key (default) or oauth"],
  ["ASSIST_API_KEY", "model API key (never logged, never passed to child processes)"],
  ["ASSIST_AUTO_PHI", "1/on (default), 0/off, confirm, strict"],
  ["ASSIST_NO_STREAM", "1 disables streaming, 0 forces it on (default automatic)"],
  ["ASSIST_NO_STATUS", "1 disables the status line"],
  ["ASSIST_MOUSE", "1 enables mouse mode (off by default)"],
  ["ASSIST_NO_MOUSE", "1 is a kill switch for mouse mode"],
  ["ASSIST_PHI_PORT", `PHI sidecar port on 127.0.0.1 (default ${DEFAULT_PHI_PORT})`],
  ["ASSIST_PHI_VENV", "PHI sidecar virtual environment (default $ASSIST_HOME/phi-venv)"],
  ["ASSIST_PHI_NOTICE", "1 re-enables the tier-5 notice (default silent)"],
  [
    "ASSIST_PHI_NAMES",
    "built-in name recognizer: auto (default: when the sidecar is down or has none), 1/on, 0/off",
  ],
  ["ASSIST_TOOL_RESULT_REVIEW", "always forces the tool-result review gate (default auto)"],
  [
    "ASSIST_TOOL_RESULT_REVIEW_THRESHOLD",
    `review-gate size threshold in bytes (default ${DEFAULT_REVIEW_THRESHOLD})`,
  ],
  ["ASSIST_MEMORY_UPLOAD_URL", "session-artifact upload address (unset: upload skipped)"],
  [
    "ASSIST_SESSION_RETENTION_DAYS",
    `session artifacts kept this many days (default ${DEFAULT_SESSION_RETENTION_DAYS})`,
  ],
  [
    "ASSIST_IDLE_TIMEOUT",
    `seconds without a byte (pings count) before a model request is given up (default ${DEFAULT_IDLE_TIMEOUT_SECONDS})`,
  ],
  [
    "ASSIST_TURN_TIMEOUT",
    `-p: seconds a turn may take in all (default ${DEFAULT_TURN_TIMEOUT_SECONDS}; 0: no bound)`,
  ],
  ["ASSIST_BASE_URL", "update origin base address"],
  ["ASSIST_ORIGIN_TOKEN", "optional token for the update origin (ORIGIN_TOKEN also read)"],
  ["ASSIST_SSH_NO_LOGIN", "1 disables login-shell wrapping of remote commands"],
  ["ASSIST_OAUTH_DEBUG", "1 prints an OAuth decision trace to stderr"],
  ["ASSIST_OAUTH_URL", "OAuth token endpoint base (default https://api.anthropic.com)"],
  ["ASSIST_OAUTH_CLIENT_ID", "Console OAuth client id for /login on the OAuth rail"],
  ["ASSIST_DEBUG", "1 adds stack traces to errors"],
  ["NO_COLOR", "any value disables colour"],
];

function bad(name: string, value: string, expected: string): AssistError {
  const shown = value.length > 40 ? `${value.slice(0, 40)}…` : value;
  return new AssistError(`${name} must be ${expected} (got "${shown}")`, { level: "config" });
}

function readBool(env: EnvReader, name: string): boolean | undefined {
  const raw = env(name);
  if (raw === undefined) return undefined;
  const v = stripCr(raw).trim().toLowerCase();
  if (v === "") return undefined;
  if (["1", "on", "true", "yes"].includes(v)) return true;
  if (["0", "off", "false", "no"].includes(v)) return false;
  throw bad(name, raw, "1 or 0");
}

function readInt(env: EnvReader, name: string, min: number, max: number): number | undefined {
  const raw = env(name);
  if (raw === undefined || stripCr(raw).trim() === "") return undefined;
  const n = coerceInt(raw, { min, max });
  if (n === undefined) throw bad(name, raw, `an integer from ${min} to ${max}`);
  return n;
}

/**
 * An http(s) URL. A base address (`exact` false) loses its trailing slashes, since paths are joined
 * to it; an endpoint (`exact`: the model API, the upload address) is used exactly as given, a
 * server may route `/up/` and `/up` apart.
 */
function readUrl(env: EnvReader, name: string, exact = false): string | undefined {
  const raw = env(name);
  if (raw === undefined) return undefined;
  const v = stripCr(raw).trim();
  if (v === "") return undefined;
  let url: URL;
  try {
    url = new URL(v);
  } catch {
    throw bad(name, raw, "an http(s) URL");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw bad(name, raw, "an http(s) URL");
  return exact ? v : v.replace(/\/+$/, "");
}

function readEnum<T extends string>(
  env: EnvReader,
  name: string,
  map: Record<string, T>,
  fallback: T,
): T {
  const raw = env(name);
  if (raw === undefined) return fallback;
  const v = stripCr(raw).trim().toLowerCase();
  if (v === "") return fallback;
  const hit = map[v];
  if (hit === undefined) throw bad(name, raw, `one of ${Object.keys(map).join(", ")}`);
  return hit;
}

function readString(env: EnvReader, name: string): string | undefined {
  const raw = env(name);
  if (raw === undefined) return undefined;
  const v = stripCr(raw).trim();
  return v === "" ? undefined : v;
}

/**
 * Reads and validates the whole configuration.
 *
 * @example
 * ```ts
 * const config = loadConfig(); // throws AssistError("ASSIST_PHI_PORT must be ...") on a bad value
 * ```
 */
export function loadConfig(env: EnvReader = readEnv, os: string = Deno.build.os): Config {
  const home = readString(env, "ASSIST_HOME") ?? defaultHome(env, os);
  const apiKey = readString(env, "ASSIST_API_KEY");
  const originToken = readString(env, "ASSIST_ORIGIN_TOKEN") ?? readString(env, "ORIGIN_TOKEN");
  return {
    home,
    baseUrl: readUrl(env, "ASSIST_BASE_URL"),
    model: readString(env, "ASSIST_MODEL") ?? DEFAULT_MODEL,
    modelApiUrl: readUrl(env, "ASSIST_MODEL_API_URL", true) ?? DEFAULT_MODEL_API_URL,
    authMode: readEnum(env, "ASSIST_AUTH_MODE", {
      "api-key": "api-key",
      "apikey": "api-key",
      "api_key": "api-key",
      "key": "api-key",
      "oauth": "oauth",
    }, "api-key"),
    autoPhi: readEnum(env, "ASSIST_AUTO_PHI", {
      "1": "on",
      "on": "on",
      "0": "off",
      "off": "off",
      "confirm": "confirm",
      "strict": "strict",
    }, "on"),
    noStream: readBool(env, "ASSIST_NO_STREAM"),
    noStatus: readBool(env, "ASSIST_NO_STATUS") ?? false,
    mouse: readBool(env, "ASSIST_MOUSE") ?? false,
    noMouse: readBool(env, "ASSIST_NO_MOUSE") ?? false,
    phiPort: readInt(env, "ASSIST_PHI_PORT", 1, 65535) ?? DEFAULT_PHI_PORT,
    phiVenv: readString(env, "ASSIST_PHI_VENV") ?? joinHome(home, "phi-venv", os),
    phiNotice: readBool(env, "ASSIST_PHI_NOTICE") ?? false,
    phiNames: readEnum(env, "ASSIST_PHI_NAMES", {
      "auto": "auto",
      "1": "on",
      "on": "on",
      "always": "on",
      "0": "off",
      "off": "off",
    }, "auto"),
    toolResultReview: readEnum(env, "ASSIST_TOOL_RESULT_REVIEW", { always: "always", auto: "auto" }, "auto"),
    toolResultReviewThreshold: readInt(env, "ASSIST_TOOL_RESULT_REVIEW_THRESHOLD", 0, 1 << 30) ??
      DEFAULT_REVIEW_THRESHOLD,
    uploadUrl: readUrl(env, "ASSIST_MEMORY_UPLOAD_URL", true),
    idleTimeoutSeconds: readInt(env, "ASSIST_IDLE_TIMEOUT", 1, 86400) ?? DEFAULT_IDLE_TIMEOUT_SECONDS,
    turnTimeoutSeconds: readInt(env, "ASSIST_TURN_TIMEOUT", 0, 604800) ?? DEFAULT_TURN_TIMEOUT_SECONDS,
    sessionRetentionDays: readInt(env, "ASSIST_SESSION_RETENTION_DAYS", 1, 36500) ??
      DEFAULT_SESSION_RETENTION_DAYS,
    sshNoLogin: readBool(env, "ASSIST_SSH_NO_LOGIN") ?? false,
    oauthDebug: readBool(env, "ASSIST_OAUTH_DEBUG") ?? false,
    oauthUrl: readUrl(env, "ASSIST_OAUTH_URL") ?? "https://api.anthropic.com",
    oauthClientId: readString(env, "ASSIST_OAUTH_CLIENT_ID"),
    originToken: originToken === undefined ? undefined : new Secret(originToken),
    apiKey: apiKey === undefined ? undefined : new Secret(apiKey),
    debug: readBool(env, "ASSIST_DEBUG") ?? false,
    // no-color.org: present and non-empty disables colour, whatever the value.
    noColor: (env("NO_COLOR") ?? "") !== "",
  };
}

function joinHome(home: string, name: string, os: string): string {
  const sep = os === "windows" ? "\\" : "/";
  return home.endsWith(sep) || home.endsWith("/") ? `${home}${name}` : `${home}${sep}${name}`;
}
