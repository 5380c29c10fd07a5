/**
 * The OAuth rail: the sanctioned Console OAuth flow only (research/model-api.md §0 and §6a), never
 * the consumer-subscription one. PKCE (S256) for the authorization code; the token endpoint
 * `{ASSIST_OAUTH_URL}/v1/oauth/token` for the code exchange and refresh; requests carry User-Agent
 * and `Accept: application/json` (without them the endpoint answers with a misleading rate-limit
 * error). API calls send `Authorization: Bearer` and the `oauth-2025-04-20` beta.
 */
import { AssistError } from "../../core/errors.ts";
import { VERSION } from "../../core/version.ts";
import type { AuthProvider } from "../model/client.ts";
import { type OAuthTokens, readTokens, refreshDecision, validityText, writeTokens } from "./oauth_store.ts";

export const OAUTH_BETA = "oauth-2025-04-20";

export interface OAuthSettings {
  /** Where `.oauth.json` lives. */
  tokenFile: string;
  /** Base of the token endpoint. @default "https://api.anthropic.com" */
  baseUrl: string;
  clientId?: string;
  fetch?: typeof fetch;
  now?: () => number;
  /** OAuth decision trace (ASSIST_OAUTH_DEBUG=1), never with token values. */
  trace?: (line: string) => void;
}

function base64Url(bytes: Uint8Array): string {
  return bytes.toBase64({ alphabet: "base64url", omitPadding: true });
}

/** The S256 challenge of a PKCE verifier (RFC 7636, 4.2): BASE64URL(SHA256(ASCII(verifier))). */
export async function pkceChallenge(verifier: string): Promise<string> {
  return base64Url(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier))));
}

/** A PKCE verifier (32 random octets, base64url) and its S256 challenge. */
export async function pkcePair(): Promise<{ verifier: string; challenge: string }> {
  const verifier = base64Url(crypto.getRandomValues(new Uint8Array(32)));
  return { verifier, challenge: await pkceChallenge(verifier) };
}

async function tokenRequest(
  s: OAuthSettings,
  body: Record<string, string>,
): Promise<OAuthTokens & { raw: unknown }> {
  const url = `${s.baseUrl.replace(/\/+$/, "")}/v1/oauth/token`;
  let res: Response;
  try {
    res = await (s.fetch ?? fetch)(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "accept": "application/json",
        "user-agent": `assist/${VERSION}`,
        "anthropic-beta": OAUTH_BETA,
      },
      body: JSON.stringify(body),
    });
  } catch (err) {
    throw new AssistError(`cannot reach the OAuth token endpoint ${url}: ${(err as Error).message}`, {
      level: "network",
    });
  }
  const text = await res.text();
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(text);
  } catch { /* reported below */ }
  if (!res.ok || typeof json.access_token !== "string") {
    const why = typeof json.error === "string" ? json.error : `HTTP ${res.status}`;
    throw new AssistError(
      `the OAuth token request failed (${why}); run /login again; details: /oauth-debug (assist auth oauth-debug)`,
      {
        level: "network",
      },
    );
  }
  const now = Math.floor((s.now?.() ?? Date.now()) / 1000);
  return {
    access_token: json.access_token,
    refresh_token: typeof json.refresh_token === "string" ? json.refresh_token : body.refresh_token ?? "",
    fetched_at: now,
    expires_in: typeof json.expires_in === "number" ? json.expires_in : 3600,
    raw: json,
  };
}

/** Exchanges an authorization code (PKCE) for tokens and stores them. */
export async function exchangeCode(
  s: OAuthSettings,
  code: string,
  verifier: string,
  redirectUri: string,
): Promise<OAuthTokens> {
  if (!s.clientId) {
    throw new AssistError("set ASSIST_OAUTH_CLIENT_ID to your Console OAuth client id first", {
      level: "config",
    });
  }
  const t = await tokenRequest(s, {
    grant_type: "authorization_code",
    code,
    code_verifier: verifier,
    redirect_uri: redirectUri,
    client_id: s.clientId,
  });
  const tokens = {
    access_token: t.access_token,
    refresh_token: t.refresh_token,
    fetched_at: t.fetched_at,
    expires_in: t.expires_in,
  };
  await writeTokens(s.tokenFile, tokens);
  return tokens;
}

/** Refreshes with the stored refresh token; keeps the old refresh token when none comes back. */
export async function refreshTokens(s: OAuthSettings, current: OAuthTokens): Promise<OAuthTokens> {
  s.trace?.("oauth> refreshing the access token");
  const t = await tokenRequest(s, {
    grant_type: "refresh_token",
    refresh_token: current.refresh_token,
    ...(s.clientId ? { client_id: s.clientId } : {}),
  });
  const tokens = {
    access_token: t.access_token,
    refresh_token: t.refresh_token || current.refresh_token,
    fetched_at: t.fetched_at,
    expires_in: t.expires_in,
  };
  await writeTokens(s.tokenFile, tokens);
  s.trace?.(`oauth> refreshed; valid for ${tokens.expires_in} s`);
  return tokens;
}

/** The OAuth rail's provider: refreshes near or past expiry, and once after a 401. */
export function oauthProvider(s: OAuthSettings): AuthProvider {
  let cached: OAuthTokens | undefined;
  const load = async () => {
    cached ??= await readTokens(s.tokenFile);
    if (!cached) {
      s.trace?.(`oauth> no token file at ${s.tokenFile}`);
      throw new AssistError(
        `no OAuth token in ${s.tokenFile}: run /login (or set ASSIST_AUTH_MODE=api-key); ` +
          "details: /oauth-debug (assist auth oauth-debug)",
        { level: "config" },
      );
    }
    return cached;
  };
  return {
    rail: "oauth",
    async headers() {
      let t = await load();
      const now = Math.floor((s.now?.() ?? Date.now()) / 1000);
      const decision = refreshDecision(t, now);
      s.trace?.(
        `oauth> token decision: ${decision} (${validityText(t.fetched_at + t.expires_in - now)})`,
      );
      if (decision !== "fresh") t = cached = await refreshTokens(s, t);
      return { authorization: `Bearer ${t.access_token}`, "anthropic-beta": OAUTH_BETA };
    },
    async onUnauthorized() {
      const t = await load();
      s.trace?.("oauth> 401 from the API: refreshing once");
      cached = await refreshTokens(s, t);
      return true;
    },
  };
}
