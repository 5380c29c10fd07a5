/**
 * `.oauth.json` (spec, Authentication item 2): `access_token`, `refresh_token`, `fetched_at` (epoch
 * seconds), `expires_in` (seconds). Written to `.new`, checked for the required keys, renamed into
 * place atomically with mode 0600. This module owns the file.
 */
import { atomicWrite } from "../../core/atomic_write.ts";
import { coerceInt, stripCr } from "../../core/clean.ts";
import { AssistError } from "../../core/errors.ts";

export interface OAuthTokens {
  access_token: string;
  refresh_token: string;
  /** Epoch seconds when the access token was obtained. */
  fetched_at: number;
  /** Lifetime in seconds from fetched_at. */
  expires_in: number;
}

/** Refresh when fewer than this many seconds of validity remain. */
export const REFRESH_MARGIN_SECONDS = 120;

export const REQUIRED_KEYS = ["access_token", "refresh_token", "fetched_at", "expires_in"] as const;

/** Parses and checks token JSON (CR-stripped, integers coerced); throws with the missing key named. */
export function parseTokens(text: string): OAuthTokens {
  let obj: Record<string, unknown>;
  try {
    obj = JSON.parse(stripCr(text));
  } catch {
    throw new AssistError(
      "the OAuth token file is not valid JSON (run /login, or /oauth-debug for details)",
      { level: "config" },
    );
  }
  if (!obj || typeof obj !== "object") {
    throw new AssistError("the OAuth token file is not a JSON object", { level: "config" });
  }
  for (const k of REQUIRED_KEYS) {
    if (obj[k] === undefined || obj[k] === null || obj[k] === "") {
      throw new AssistError(`the OAuth token file lacks ${k} (run /login)`, { level: "config" });
    }
  }
  const fetched = coerceInt(obj.fetched_at);
  const expires = coerceInt(obj.expires_in);
  if (fetched === undefined || expires === undefined) {
    throw new AssistError("the OAuth token file has non-integer fetched_at or expires_in (run /login)", {
      level: "config",
    });
  }
  return {
    access_token: stripCr(String(obj.access_token)).trim(),
    refresh_token: stripCr(String(obj.refresh_token)).trim(),
    fetched_at: fetched,
    expires_in: expires,
  };
}

export async function readTokens(path: string): Promise<OAuthTokens | undefined> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return undefined;
    throw err;
  }
  return parseTokens(text);
}

/** `.new`, checked, renamed into place at 0600. */
export async function writeTokens(path: string, tokens: OAuthTokens): Promise<void> {
  const text = JSON.stringify(tokens, null, 2) + "\n";
  await atomicWrite(path, text, {
    mode: 0o600,
    validate: (bytes) => void parseTokens(new TextDecoder().decode(bytes)),
  });
}

export type RefreshDecision = "fresh" | "near-expiry" | "expired";

/** Whether to refresh now: near (within the margin) or past `fetched_at + expires_in`. */
export function refreshDecision(tokens: OAuthTokens, nowSeconds: number): RefreshDecision {
  const left = tokens.fetched_at + tokens.expires_in - nowSeconds;
  if (left <= 0) return "expired";
  if (left <= REFRESH_MARGIN_SECONDS) return "near-expiry";
  return "fresh";
}

/** The validity left, in words: `50 s of validity left`, or `expired 95 s ago`. */
export function validityText(leftSeconds: number): string {
  return leftSeconds > 0 ? `${leftSeconds} s of validity left` : `expired ${-leftSeconds} s ago`;
}
