import { deepStrictEqual as assertEquals, match, ok as assert, rejects } from "node:assert/strict";
import { FileKeyStore, resolveApiKey, SecretToolKeyStore } from "../../../cli/auth/api_key.ts";
import {
  exchangeCode,
  oauthProvider,
  pkceChallenge,
  pkcePair,
  refreshTokens,
} from "../../../cli/auth/oauth.ts";
import { oauthDebugReport } from "../../../cli/auth/oauth_debug.ts";
import { parseTokens, readTokens, refreshDecision, writeTokens } from "../../../cli/auth/oauth_store.ts";
import { sendMessage } from "../../../cli/model/client.ts";
import { Secret } from "../../../core/secret.ts";
import { FakeModelApi } from "../../support/fake_model_api.ts";
import { tempDir } from "../../support/run_assist.ts";

const posix = Deno.build.os !== "windows";

Deno.test(".oauth.json: written via .new at 0600, required keys checked, CR-safe", async () => {
  await using tmp = await tempDir();
  const p = `${tmp.path}/.oauth.json`;
  await writeTokens(p, { access_token: "oat-1", refresh_token: "ort-1", fetched_at: 1000, expires_in: 3600 });
  if (posix) assertEquals((await Deno.stat(p)).mode! & 0o777, 0o600);
  await rejects(() => Deno.stat(`${p}.new`));
  assertEquals((await readTokens(p))?.access_token, "oat-1");
  assertEquals(
    parseTokens('{"access_token":"a\\r","refresh_token":"r","fetched_at":"5\\r","expires_in":60}\r\n')
      .fetched_at,
    5,
  );
  assert(
    /lacks refresh_token/.test(String(
      await Promise.resolve().then(() => parseTokens('{"access_token":"a","fetched_at":1,"expires_in":1}'))
        .catch((e) => e.message),
    )),
  );
  await rejects(() => writeTokens(p, { access_token: "", refresh_token: "r", fetched_at: 1, expires_in: 1 }));
  assertEquals((await readTokens(p))?.access_token, "oat-1", "a bad write keeps the old file");
});

Deno.test("refresh decision: fresh, near expiry (120 s margin), expired", () => {
  const t = { access_token: "a", refresh_token: "r", fetched_at: 1000, expires_in: 3600 };
  assertEquals(refreshDecision(t, 1000), "fresh");
  assertEquals(refreshDecision(t, 4500), "near-expiry");
  assertEquals(refreshDecision(t, 4600), "expired");
});

Deno.test("OAuth provider: refreshes when near expiry with UA and Accept, and once after a 401", async () => {
  await using tmp = await tempDir();
  await using fake = new FakeModelApi({
    refreshTokens: { "ort-1": "oat-2", "ort-1-next": "oat-3" },
    strictTokenHeaders: true,
  });
  const tokenFile = `${tmp.path}/.oauth.json`;
  const now = Date.now();
  await writeTokens(tokenFile, {
    access_token: "oat-1",
    refresh_token: "ort-1",
    fetched_at: Math.floor(now / 1000) - 3590,
    expires_in: 3600,
  });
  const auth = oauthProvider({ tokenFile, baseUrl: fake.base });
  fake.replies.push({ text: "hi" });
  await sendMessage({ model: "m", max_tokens: 5, system: [], messages: [{ role: "user", content: "x" }] }, {
    url: fake.url,
    auth,
    stream: true,
  });
  assertEquals(fake.tokenRequests.length, 1);
  assertEquals(fake.tokenRequests[0].headers["accept"], "application/json");
  match(fake.tokenRequests[0].headers["user-agent"], /^assist\//);
  assertEquals(fake.messageRequests.at(-1)!.headers["authorization"], "Bearer oat-2");
  assertEquals((await readTokens(tokenFile))?.refresh_token, "ort-1-next");
  if (posix) assertEquals((await Deno.stat(tokenFile)).mode! & 0o777, 0o600);
  // The server forgets oat-2: the next call gets a 401, refreshes once, and succeeds.
  fake.replies.push({ text: "again" });
  const before = fake.tokenRequests.length;
  await using fake2 = new FakeModelApi({ refreshTokens: { "ort-1-next": "oat-3" }, oauthTokens: [] });
  const auth2 = oauthProvider({ tokenFile, baseUrl: fake2.base });
  fake2.replies.push({ text: "after refresh" });
  const r = await sendMessage({
    model: "m",
    max_tokens: 5,
    system: [],
    messages: [{ role: "user", content: "x" }],
  }, { url: fake2.url, auth: auth2, stream: true });
  assertEquals(r.requests, 2);
  assertEquals(fake2.tokenRequests.length, 1);
  assertEquals(fake.tokenRequests.length, before);
});

Deno.test("token requests without UA/Accept would be misled: ours always send them", async () => {
  await using tmp = await tempDir();
  await using fake = new FakeModelApi({ refreshTokens: { "ort-x": "oat-y" }, strictTokenHeaders: true });
  const t = await refreshTokens({ tokenFile: `${tmp.path}/t.json`, baseUrl: fake.base }, {
    access_token: "a",
    refresh_token: "ort-x",
    fetched_at: 0,
    expires_in: 1,
  });
  assertEquals(t.access_token, "oat-y");
  const bare = await fetch(`${fake.base}/v1/oauth/token`, {
    method: "POST",
    body: JSON.stringify({ grant_type: "refresh_token", refresh_token: "ort-x" }),
    headers: { "user-agent": "" },
  });
  assertEquals(bare.status, 429);
  await bare.body?.cancel();
  await rejects(
    () =>
      refreshTokens({ tokenFile: `${tmp.path}/t.json`, baseUrl: fake.base }, {
        access_token: "a",
        refresh_token: "bad",
        fetched_at: 0,
        expires_in: 1,
      }),
    /invalid_grant.*\/login/,
  );
});

Deno.test("PKCE: the S256 challenge matches RFC 7636's test vector (Appendix B)", async () => {
  // The RFC's verifier (base64url of its 32 example octets) and the challenge it gives for it.
  assertEquals(
    await pkceChallenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"),
    "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
  );
  const { verifier, challenge } = await pkcePair();
  assert(/^[A-Za-z0-9_-]{43}$/.test(verifier), "32 octets, base64url, no padding");
  assertEquals(challenge, await pkceChallenge(verifier));
});

Deno.test("/oauth-debug: mode, size, mtime, JSON, decision, 20 chars + length, CR/LF counts; never more of a token", () => {
  const access = "oat-ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  const text =
    `{"access_token":"${access}","refresh_token":"ort-secret-refresh-token-value","fetched_at":1000,"expires_in":3600}\r\n`;
  const bytes = new TextEncoder().encode(text);
  const report = oauthDebugReport("/h/.assist/.oauth.json", bytes, {
    mode: 0o100644,
    size: bytes.length,
    mtime: new Date(0),
  }, 4550);
  assertEquals(
    report,
    [
      "oauth-debug: /h/.assist/.oauth.json",
      "  mode: 0644 (too open: should be 0600)",
      `  size: ${bytes.length} bytes`,
      "  mtime: 1970-01-01T00:00:00.000Z",
      "  CR bytes: 1, LF bytes: 1",
      "  JSON: valid",
      `  access_token: ${access.slice(0, 20)}… (${access.length} chars)`,
      "  refresh_token: ort-secret-refresh-t… (30 chars)",
      "  refresh decision: near-expiry (50 s of validity left)",
    ].join("\n"),
  );
  assert(!report.includes(access.slice(0, 21)));
  match(oauthDebugReport("/x", undefined, undefined, 0), /missing \(run \/login\)/);
  // Past expiry: how long ago, not a negative count.
  match(
    oauthDebugReport("/x", bytes, { mode: 0o100600, size: 1, mtime: null }, 4700),
    /: expired \(expired 100 s ago\)$/,
  );
});

Deno.test("API key: the env key wins; the file store is 0600 and round-trips", async () => {
  await using tmp = await tempDir();
  const store = new FileKeyStore(`${tmp.path}/.api-key`);
  assertEquals(await resolveApiKey(undefined, store), undefined);
  await store.set(new Secret("sk-ant-stored"));
  if (posix) assertEquals((await Deno.stat(`${tmp.path}/.api-key`)).mode! & 0o777, 0o600);
  assertEquals((await resolveApiKey(undefined, store))?.reveal(), "sk-ant-stored");
  assertEquals((await resolveApiKey(new Secret("sk-ant-env"), store))?.reveal(), "sk-ant-env");
});

Deno.test(
  "API key in the keychain: passed on stdin only, never in argv or environment",
  { ignore: !posix },
  async () => {
    await using tmp = await tempDir();
    // A stand-in secret-tool that records its argv, environment and stdin.
    const tool = `${tmp.path}/secret-tool`;
    await Deno.writeTextFile(
      tool,
      `#!/bin/sh\necho "ARGV: $*" >> ${tmp.path}/calls\nenv >> ${tmp.path}/calls\nif [ "$1" = store ]; then cat > ${tmp.path}/stored; fi\nif [ "$1" = lookup ]; then cat ${tmp.path}/stored; fi\n`,
    );
    await Deno.chmod(tool, 0o755);
    const store = new SecretToolKeyStore("/h/.assist", tool);
    await store.set(new Secret("sk-ant-KEYCHAIN-SECRET"));
    assertEquals((await store.get())?.reveal(), "sk-ant-KEYCHAIN-SECRET");
    const calls = await Deno.readTextFile(`${tmp.path}/calls`);
    assert(!calls.includes("KEYCHAIN-SECRET"), "the key appeared in argv or the environment");
    match(calls, /ARGV: store --label=assist API key service assist-api-key account \/h\/\.assist/);
  },
);

Deno.test("PKCE code exchange stores the tokens atomically at 0600; needs a client id", async () => {
  await using tmp = await tempDir();
  await using fake = new FakeModelApi({ strictTokenHeaders: true });
  const tokenFile = `${tmp.path}/.oauth.json`;
  const { verifier } = await pkcePair();
  await rejects(
    () => exchangeCode({ tokenFile, baseUrl: fake.base }, "code-1", verifier, "http://127.0.0.1:1/cb"),
    /ASSIST_OAUTH_CLIENT_ID/,
  );
  const t = await exchangeCode(
    { tokenFile, baseUrl: fake.base, clientId: "client-123" },
    "code-1",
    verifier,
    "http://127.0.0.1:1/cb",
  );
  const sent = fake.tokenRequests[0].json!;
  assertEquals([sent.grant_type, sent.code, sent.code_verifier, sent.client_id], [
    "authorization_code",
    "code-1",
    verifier,
    "client-123",
  ]);
  assertEquals((await readTokens(tokenFile))?.access_token, t.access_token);
  if (posix) assertEquals((await Deno.stat(tokenFile)).mode! & 0o777, 0o600);
});
