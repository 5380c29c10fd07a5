import { deepStrictEqual as assertEquals, match, ok as assert, throws } from "node:assert/strict";
import { loadConfig } from "../../core/config.ts";
import { AssistError } from "../../core/errors.ts";

const envOf = (vars: Record<string, string>) => (name: string) => vars[name];

Deno.test("defaults with only HOME set", () => {
  const c = loadConfig(envOf({ HOME: "/home/op" }), "linux");
  assertEquals(c.home, "/home/op/.assist");
  assertEquals(c.autoPhi, "on");
  assertEquals(c.phiPort, 41189);
  assertEquals(c.toolResultReviewThreshold, 8192);
  assertEquals(c.toolResultReview, "auto");
  assertEquals(c.authMode, "api-key");
  assertEquals(c.noStream, undefined);
  assertEquals(c.phiVenv, "/home/op/.assist/phi-venv");
  assertEquals(c.noColor, false);
});

Deno.test("Windows default home is %USERPROFILE%\\.assist", () => {
  const c = loadConfig(envOf({ USERPROFILE: "C:\\Users\\op" }), "windows");
  assertEquals(c.home, "C:\\Users\\op\\.assist");
  assertEquals(c.phiVenv, "C:\\Users\\op\\.assist\\phi-venv");
});

Deno.test("ASSIST_AUTO_PHI accepts 1/on/0/off/confirm/strict, any case, CR-stripped", () => {
  const modes: Array<[string, string]> = [["1", "on"], ["ON", "on"], ["0", "off"], ["off\r", "off"], [
    "confirm",
    "confirm",
  ], ["Strict", "strict"]];
  for (const [raw, want] of modes) {
    assertEquals(loadConfig(envOf({ HOME: "/h", ASSIST_AUTO_PHI: raw }), "linux").autoPhi, want);
  }
});

Deno.test("integers are CR-stripped and coerced; out of range or junk is one clear line", () => {
  assertEquals(loadConfig(envOf({ HOME: "/h", ASSIST_PHI_PORT: " 5000\r\n" }), "linux").phiPort, 5000);
  assertEquals(
    loadConfig(envOf({ HOME: "/h", ASSIST_TOOL_RESULT_REVIEW_THRESHOLD: "0" }), "linux")
      .toolResultReviewThreshold,
    0,
  );
  for (const raw of ["0", "65536", "12ab", "1e3", "4.5", "-1"]) {
    throws(
      () => loadConfig(envOf({ HOME: "/h", ASSIST_PHI_PORT: raw }), "linux"),
      (e: unknown) =>
        e instanceof AssistError && e.level === "config" && !e.message.includes("\n") &&
        /ASSIST_PHI_PORT must be an integer from 1 to 65535/.test(e.message),
    );
  }
});

Deno.test("booleans, enumerations and URLs are validated", () => {
  const c = loadConfig(
    envOf({
      HOME: "/h",
      ASSIST_NO_STREAM: "0",
      ASSIST_MOUSE: "1",
      ASSIST_TOOL_RESULT_REVIEW: "always",
      ASSIST_AUTH_MODE: "oauth",
      ASSIST_MEMORY_UPLOAD_URL: "http://127.0.0.1:9/up/",
      NO_COLOR: "x",
    }),
    "linux",
  );
  assertEquals(c.noStream, false);
  assertEquals(c.mouse, true);
  assertEquals(c.toolResultReview, "always");
  assertEquals(c.authMode, "oauth");
  // An endpoint is POSTed to exactly as given ({upload_url}): `/up/` stays `/up/`.
  assertEquals(c.uploadUrl, "http://127.0.0.1:9/up/");
  assertEquals(c.noColor, true);
  const m = loadConfig(
    envOf({
      HOME: "/h",
      ASSIST_MODEL_API_URL: "http://127.0.0.1:9/v1/messages/",
      ASSIST_BASE_URL: "https://o/x/",
    }),
    "linux",
  );
  assertEquals(m.modelApiUrl, "http://127.0.0.1:9/v1/messages/");
  assertEquals(m.baseUrl, "https://o/x", "a base address loses its trailing slash (paths are joined to it)");
  throws(
    () => loadConfig(envOf({ HOME: "/h", ASSIST_NO_STREAM: "maybe" }), "linux"),
    /ASSIST_NO_STREAM must be 1 or 0/,
  );
  throws(
    () => loadConfig(envOf({ HOME: "/h", ASSIST_BASE_URL: "ftp://x" }), "linux"),
    /ASSIST_BASE_URL must be an http\(s\) URL/,
  );
  throws(
    () => loadConfig(envOf({ HOME: "/h", ASSIST_AUTH_MODE: "magic" }), "linux"),
    /ASSIST_AUTH_MODE must be one of/,
  );
});

Deno.test("secrets are held but never printed or serialized", () => {
  const c = loadConfig(
    envOf({ HOME: "/h", ASSIST_API_KEY: "sk-ant-SECRET", ORIGIN_TOKEN: "tok-SECRET" }),
    "linux",
  );
  assertEquals(c.apiKey?.reveal(), "sk-ant-SECRET");
  assertEquals(c.originToken?.reveal(), "tok-SECRET");
  const shown = [JSON.stringify(c), String(c.apiKey), `${c.originToken}`, Deno.inspect(c)].join("\n");
  assert(!shown.includes("SECRET"), shown);
  match(JSON.stringify(c), /"apiKey":"\[redacted\]"/);
});

Deno.test("ASSIST_ORIGIN_TOKEN wins over ORIGIN_TOKEN", () => {
  const c = loadConfig(envOf({ HOME: "/h", ASSIST_ORIGIN_TOKEN: "a", ORIGIN_TOKEN: "b" }), "linux");
  assertEquals(c.originToken?.reveal(), "a");
});

Deno.test("no home at all is a config error", () => {
  throws(() => loadConfig(envOf({}), "linux"), /set ASSIST_HOME or HOME/);
});

Deno.test("every variable of the spec's table reaches its setting; the off-by-default ones are off", () => {
  const d = loadConfig(envOf({ HOME: "/h" }), "linux");
  assertEquals(
    [d.noStatus, d.mouse, d.noMouse, d.phiNotice, d.sshNoLogin, d.oauthDebug, d.uploadUrl, d.baseUrl],
    [false, false, false, false, false, false, undefined, undefined],
  );
  const c = loadConfig(
    envOf({
      HOME: "/h",
      ASSIST_HOME: "/srv/assist",
      ASSIST_BASE_URL: "https://git.example.org/ops/assist/",
      ASSIST_MODEL: "claude-haiku-4-5",
      ASSIST_AUTO_PHI: "strict",
      ASSIST_NO_STREAM: "1",
      ASSIST_NO_STATUS: "1",
      ASSIST_MOUSE: "1",
      ASSIST_NO_MOUSE: "1",
      ASSIST_PHI_PORT: "41200\r",
      ASSIST_PHI_VENV: "/opt/phi-venv",
      ASSIST_PHI_NOTICE: "1",
      ASSIST_TOOL_RESULT_REVIEW: "always",
      ASSIST_TOOL_RESULT_REVIEW_THRESHOLD: "4096",
      ASSIST_MEMORY_UPLOAD_URL: "https://memory.example/up",
      ASSIST_SSH_NO_LOGIN: "1",
      ASSIST_OAUTH_DEBUG: "1",
      ORIGIN_TOKEN: "tok",
    }),
    "linux",
  );
  assertEquals(c.home, "/srv/assist");
  assertEquals(c.baseUrl, "https://git.example.org/ops/assist");
  assertEquals(c.model, "claude-haiku-4-5");
  assertEquals(c.autoPhi, "strict");
  assertEquals([c.noStream, c.noStatus, c.mouse, c.noMouse], [true, true, true, true]);
  assertEquals([c.phiPort, c.phiVenv, c.phiNotice], [41200, "/opt/phi-venv", true]);
  assertEquals([c.toolResultReview, c.toolResultReviewThreshold], ["always", 4096]);
  assertEquals(c.uploadUrl, "https://memory.example/up");
  assertEquals([c.sshNoLogin, c.oauthDebug], [true, true]);
  assertEquals(c.originToken?.reveal(), "tok");
});
