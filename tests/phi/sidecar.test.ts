/**
 * Tier 5: the client against a local stand-in that speaks the documented protocol, the engine with
 * it, the lifecycle with the real server (python3, regex-only: Presidio is not installable here),
 * the server's own recognizers with python3, and the lifecycle under the shipped permission set.
 */
import { deepStrictEqual as assertEquals, match, ok as assert } from "node:assert/strict";
import { SidecarClient } from "../../phi/sidecar/client.ts";
import { runSidecarCommand, SIDECAR_SERVER_SOURCE, sidecarFiles } from "../../phi/sidecar/lifecycle.ts";
import { CONFIG, REPO_ROOT, tempDir } from "../support/run_assist.ts";
import { testEngine } from "./_support.ts";

interface StandIn {
  port: number;
  received: string[];
  mode: "ok" | "error" | "slow";
  close(): Promise<void>;
}

/** Entities like a Presidio analyzer would give: capitalized word pairs as PERSON, some ORG acronyms. */
function standInEntities(text: string) {
  const cps = [...text]; // offsets in code points, as Python gives them
  const joined = cps.join("");
  const out: Array<{ entity_type: string; start: number; end: number; score: number }> = [];
  const cpIndex = (utf16: number) => [...joined.slice(0, utf16)].length;
  for (const m of joined.matchAll(/\b[A-Z][a-z]+ [A-Z][a-z]+\b/g)) {
    out.push({
      entity_type: "PERSON",
      start: cpIndex(m.index!),
      end: cpIndex(m.index! + m[0].length),
      score: 0.85,
    });
  }
  for (const m of joined.matchAll(/\b(?:MRN|ADT|SSN|Acme)\b/g)) {
    out.push({
      entity_type: "ORGANIZATION",
      start: cpIndex(m.index!),
      end: cpIndex(m.index! + m[0].length),
      score: 0.6,
    });
  }
  // A span across a masked token must be dropped by the client.
  const sentinel = joined.indexOf("\uE000");
  if (sentinel > 2) {
    out.push({ entity_type: "PERSON", start: cpIndex(sentinel - 2), end: cpIndex(sentinel + 3), score: 0.9 });
  }
  out.push({ entity_type: "bad type!", start: 0, end: 1, score: 1 }, {
    entity_type: "PERSON",
    start: 5,
    end: 2,
    score: 1,
  });
  return out;
}

function standIn(): StandIn {
  const s: StandIn = { port: 0, received: [], mode: "ok", close: async () => {} };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const url = new URL(req.url);
    if (req.method === "GET" && url.pathname === "/health") {
      return Response.json({ status: "ok", engine: "stand-in", pid: 1, version: "0", entities: ["PERSON"] });
    }
    if (req.method === "POST" && url.pathname === "/redact") {
      const body = await req.json();
      s.received.push(body.text);
      if (s.mode === "error") return Response.json({ error: "analyzer failed" }, { status: 500 });
      if (s.mode === "slow") await new Promise((r) => setTimeout(r, 400));
      return Response.json({ entities: standInEntities(body.text) });
    }
    return Response.json({ error: "not found" }, { status: 404 });
  });
  s.port = server.addr.port;
  s.close = () => server.shutdown();
  return s;
}

function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

Deno.test("sidecar client: tokens masked, code-point offsets converted, acronyms and bad entities dropped", async () => {
  const s = standIn();
  try {
    const c = new SidecarClient({ port: s.port });
    assertEquals((await c.health())?.engine, "stand-in");
    const text = "😀 Ann Lee saw [[NAME_1]] Bob about MRN at Acme; ADT feed";
    const got = await c.detect(text);
    assertEquals(s.received.length, 1);
    assert(!s.received[0].includes("[["), "existing tokens never reach the sidecar");
    assertEquals(s.received[0].length, text.length, "masked with same-length sentinels");
    assertEquals(got?.map((e) => [e.type, text.slice(e.start, e.end)]), [["PERSON", "Ann Lee"], [
      "ORGANIZATION",
      "Acme",
    ]]);
  } finally {
    await s.close();
  }
});

Deno.test("sidecar client: errors, timeouts and a closed port give undefined and a reason without text", async () => {
  const s = standIn();
  try {
    s.mode = "error";
    const c = new SidecarClient({ port: s.port, retryAfterMs: 0 });
    assertEquals(await c.detect("Ann Lee"), undefined);
    assertEquals(c.lastError, "HTTP 500: analyzer failed");
    s.mode = "slow";
    const slow = new SidecarClient({ port: s.port, timeoutMs: 100, retryAfterMs: 60_000 });
    assertEquals(await slow.detect("Ann Lee"), undefined);
    assertEquals(slow.lastError, "no answer within 0.1 s");
    const before = s.received.length;
    assertEquals(await slow.detect("Ann Lee"), undefined, "backs off after a failure");
    assertEquals(s.received.length, before, "no request while backing off");
  } finally {
    await s.close();
  }
  const closed = new SidecarClient({ port: freePort() });
  assertEquals(await closed.detect("Ann Lee"), undefined);
  assert(closed.lastError && !closed.lastError.includes("Ann"));
});

Deno.test("engine with the stand-in: presidio_<TYPE> tokens, existing tokens intact, exact round trip", async () => {
  const s = standIn();
  try {
    await using h = await testEngine("on", { sidecar: new SidecarClient({ port: s.port }) });
    const text = "Ann Lee called about MRN 1234567; ADT feed ok";
    const r = await h.engine.tokenizeUserInput(text);
    assertEquals(r.text, "[[presidio_PERSON_1]] called about MRN [[MRN_1]]; ADT feed ok");
    assertEquals(h.engine.detokenize(r.text).text, text);
    const again = await h.engine.tokenizeUserInput(r.text + " and Ann Lee");
    assertEquals(again.text, r.text + " and [[presidio_PERSON_1]]", "no nesting; same value, same token");
  } finally {
    await s.close();
  }
});

Deno.test("sidecar client: a listener that cannot prove the token gets neither text nor token", async () => {
  await using tmp = await tempDir();
  const tokenFile = `${tmp.path}/sidecar.token`;
  await Deno.writeTextFile(tokenFile, "a".repeat(64) + "\n", { mode: 0o600 });
  const seen: string[] = [];
  const squatter = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    seen.push(
      `${req.method} ${new URL(req.url).pathname} ${
        req.headers.get("x-assist-sidecar-token") ?? ""
      } ${await req.text()}`,
    );
    return Response.json({
      status: "ok",
      proof: "not-a-proof",
      entities: [{ entity_type: "PERSON", start: 0, end: 2, score: 1 }],
    });
  });
  try {
    const c = new SidecarClient({ port: squatter.addr.port, tokenFile, retryAfterMs: 0 });
    assertEquals(await c.detect("pt SMITH^JOHN"), undefined);
    match(c.lastError ?? "", /not assist's sidecar/);
    assertEquals(seen.length, 1);
    assert(seen[0].startsWith("GET /health  "), seen[0]);
    assert(!seen.join("").includes("SMITH") && !seen.join("").includes("a".repeat(64)));
    const none = new SidecarClient({
      port: squatter.addr.port,
      tokenFile: `${tmp.path}/missing`,
      retryAfterMs: 0,
    });
    assertEquals(await none.detect("pt SMITH^JOHN"), undefined);
    match(none.lastError ?? "", /no sidecar token/);
  } finally {
    await squatter.shutdown();
  }
});

Deno.test("sidecar lifecycle with the real server (python3, regex-only): start, status, health, stop", async () => {
  await using tmp = await tempDir();
  const port = freePort();
  const options = {
    config: { phiVenv: `${tmp.path}/phi-venv`, phiPort: port },
    regexOnly: true,
    startTimeoutMs: 20_000,
  };
  const before = await runSidecarCommand("status", options);
  assertEquals(before.ok, false);
  match(before.text, new RegExp(`not running on 127\\.0\\.0\\.1:${port}`));
  const started = await runSidecarCommand("start", options);
  try {
    assert(started.ok, started.text);
    match(
      started.text,
      /^started: running on .* \(pid \d+, engine regex, version 1\.0\.0\); the regex engine has no person recognizer/,
    );
    const again = await runSidecarCommand("start", options);
    match(again.text, /^already running/);
    const health = JSON.parse((await runSidecarCommand("health", options)).text);
    assertEquals([health.status, health.engine], ["ok", "regex"]);
    // Status and health say the regex engine finds no persons.
    match(health.assist_note, /no person recognizer/);
    match((await runSidecarCommand("status", options)).text, /no person recognizer/);
    assert(health.entities.includes("HL7_CARET_NAME"));
    const files = sidecarFiles(options.config.phiVenv);
    assertEquals((await Deno.readTextFile(files.pidFile)).trim(), `${health.pid} ${port}`);
    assertEquals(await Deno.readTextFile(files.script), SIDECAR_SERVER_SOURCE);
    // Without the token (or with a wrong one) the real server refuses text and shutdown.
    const attempts: Array<Record<string, string>> = [{}, { "x-assist-sidecar-token": "0".repeat(64) }];
    for (const headers of attempts) {
      for (const path of ["/redact", "/shutdown"]) {
        const res = await fetch(`http://127.0.0.1:${port}${path}`, {
          method: "POST",
          headers: { "content-type": "application/json", ...headers },
          body: JSON.stringify({ text: "pt SMITH^JOHN" }),
        });
        assertEquals(res.status, 403, path);
        await res.body?.cancel();
      }
    }
    if (Deno.build.os !== "windows") assertEquals((await Deno.stat(files.tokenFile)).mode! & 0o777, 0o600);
    // The real server through the engine, with the token it was started with.
    await using h = await testEngine("on", {
      sidecar: new SidecarClient({ port, tokenFile: files.tokenFile }),
    });
    const r = await h.engine.tokenizeUserInput("pt SMITH^JOHN, see [[NAME_4]] and chart MRN 7654321");
    assertEquals(r.text, "pt [[presidio_HL7_CARET_NAME_1]], see [[NAME_4]] and chart MRN [[MRN_1]]");
  } finally {
    const stopped = await runSidecarCommand("stop", options);
    assert(stopped.ok, stopped.text);
    match(stopped.text, /^stopped \(pid \d+\)$/);
  }
  assertEquals((await runSidecarCommand("status", options)).ok, false);
  assertEquals((await runSidecarCommand("stop", options)).text, `not running on 127.0.0.1:${port}`);
  assertEquals(
    (await runSidecarCommand("bogus", options)).text,
    "usage: /phi-sidecar start|stop|status|health|ensure",
  );
});

Deno.test("sidecar ensure: builds the venv, reports an unreachable package index; start then uses the venv", async () => {
  await using tmp = await tempDir();
  const port = freePort();
  const venv = `${tmp.path}/phi-venv`;
  const options = {
    config: { phiVenv: venv, phiPort: port },
    indexUrl: "http://127.0.0.1:9/simple",
    startTimeoutMs: 20_000,
  };
  const r = await runSidecarCommand("ensure", options);
  assertEquals(r.ok, false);
  match(r.text, /^ensure failed \(exit \d+\); is the package index reachable\?\n/);
  match(r.text, /presidio-analyzer/);
  const py = Deno.build.os === "windows" ? `${venv}\\Scripts\\python.exe` : `${venv}/bin/python3`;
  assert((await Deno.stat(py)).isFile, "the venv was created");
  const started = await runSidecarCommand("start", options);
  try {
    assert(started.ok, started.text);
    const health = JSON.parse((await runSidecarCommand("health", options)).text);
    assert(
      String(health.python).startsWith(venv),
      `re-executed with the venv's interpreter: ${health.python}`,
    );
    assertEquals(health.engine, "regex", "no Presidio in the venv: regex recognizers only");
  } finally {
    await runSidecarCommand("stop", options);
  }
});

Deno.test("sidecar server: its own recognizers, checked with python3", async () => {
  const out = await new Deno.Command("python3", {
    args: [`${REPO_ROOT}tests/phi/_recognizers_test.py`],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  assertEquals(out.code, 0, new TextDecoder().decode(out.stderr));
  const r = JSON.parse(text);
  assertEquals(r.failed, []);
  assert(r.passed >= 20);
});

Deno.test("sidecar: the embedded server source is phi/sidecar/server.py byte for byte", async () => {
  assertEquals(SIDECAR_SERVER_SOURCE, await Deno.readTextFile(`${REPO_ROOT}phi/sidecar/server.py`));
});

Deno.test("sidecar lifecycle under the shipped permission set (-P=assist)", async () => {
  await using tmp = await tempDir();
  const port = freePort();
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-q",
      "-P=assist",
      "--config",
      CONFIG,
      `${REPO_ROOT}tests/phi/_sidecar_under_assist.ts`,
      `${tmp.path}/venv`,
      String(port),
    ],
    stdout: "piped",
    stderr: "piped",
    clearEnv: true,
    env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" },
  }).output();
  assertEquals(out.code, 0, new TextDecoder().decode(out.stderr));
  const r = JSON.parse(new TextDecoder().decode(out.stdout));
  assertEquals([r.status.ok, r.start.ok, r.health.ok, r.stop.ok, r.status2.ok], [
    false,
    true,
    true,
    true,
    false,
  ], JSON.stringify(r));
});

Deno.test("sidecar pid file: a listening sidecar is running; a crashed one's pid file is not", async () => {
  const { sidecarPidAlive } = await import("../../phi/sidecar/files.ts");
  await using tmp = await tempDir();
  const pidFile = `${tmp.path}/sidecar.pid`;
  assertEquals(await sidecarPidAlive(pidFile), false, "no file");
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  const accepting = (async () => {
    for await (const c of listener) c.close();
  })();
  await Deno.writeTextFile(pidFile, `${Deno.pid} ${port}\n`);
  assertEquals(await sidecarPidAlive(pidFile), true, "a listening sidecar");
  listener.close();
  await accepting.catch(() => {});
  // The process died and left its file: the port refuses.
  assertEquals(await sidecarPidAlive(pidFile), false, "a stale pid file");
  await Deno.writeTextFile(pidFile, "garbage\n");
  assertEquals(await sidecarPidAlive(pidFile), false);
});
