import assert from "node:assert/strict";
import { authLine, modeLine, modelShort, promptFor, tier5Line } from "../../../cli/repl/startup.ts";

Deno.test("modelShort drops the vendor prefix and rewrites the trailing -N-M as .N.M", () => {
  assert.equal(modelShort("claude-sonnet-4-6"), "sonnet.4.6");
  assert.equal(modelShort("claude-opus-4-1"), "opus.4.1");
  assert.equal(modelShort("claude-haiku-4-5"), "haiku.4.5");
  assert.equal(modelShort("claude-sonnet-4-5-20250929"), "sonnet.4.5");
  assert.equal(modelShort("anthropic/claude-opus-4-6"), "opus.4.6");
  assert.equal(modelShort("claude-3-haiku"), "3-haiku");
  assert.equal(modelShort("my-model"), "my-model");
  assert.equal(promptFor("claude-opus-4-6"), "you[opus.4.6]> ");
});

Deno.test("MODE= says LOCAL, REMOTE or UNKNOWN and what decided it", () => {
  const local = modeLine({ hciroot: "/hci/cis", hcirootIsEngine: true, sshAliases: [] });
  assert.equal(local.mode, "LOCAL");
  assert.match(local.line, /^MODE=LOCAL \(HCIROOT=\/hci\/cis is an engine root\)$/);
  const remote = modeLine({ hcirootIsEngine: false, sshAliases: ["eng1", "eng2"] });
  assert.equal(remote.mode, "REMOTE");
  assert.match(remote.line, /no HCIROOT here; ssh hosts: eng1, eng2/);
  const bad = modeLine({ hciroot: "/nope", hcirootIsEngine: false, sshAliases: [] });
  assert.equal(bad.mode, "UNKNOWN");
  assert.match(bad.line, /HCIROOT=\/nope is not an engine root and no ssh hosts; \/ssh-add/);
});

Deno.test("the auth line names the rail and where the credential comes from", () => {
  assert.match(
    authLine({ rail: "api-key", envKey: true, keyFile: false, oauthFile: false }),
    /ASSIST_API_KEY/,
  );
  assert.match(
    authLine({ rail: "api-key", envKey: false, keyFile: false, oauthFile: false }),
    /\/set-api-key/,
  );
  assert.match(authLine({ rail: "oauth", envKey: false, keyFile: false, oauthFile: false }), /\/login/);
  assert.equal(tier5Line(true), undefined);
  assert.match(tier5Line(false)!, /protected once known.*built-in name recognizer.*\/phi-sidecar start/);
  assert.match(tier5Line(false, "off")!, /names in free text are NOT covered.*ASSIST_PHI_NAMES=off/);
});
