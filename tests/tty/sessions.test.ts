/**
 * Session artifacts and their upload at exit, in a real terminal (tmux) against a local upload
 * endpoint (`Deno.serve` on 127.0.0.1) that records every request: the three requests after `/quit`,
 * SIGTERM and SIGHUP; exactly once when two exit paths race; the warning with no address; a dead and
 * a hanging endpoint do not keep the program from leaving; `kill -9` keeps the finished turns; a PHI
 * canary never reaches an artifact or an upload; `--resume` continues with the same tokens and a
 * truncated messages file is refused.
 */
import assert from "node:assert/strict";
import { startRepl } from "./_support.ts";
import { tempDir } from "../support/run_assist.ts";
import { FakeModelApi } from "../support/fake_model_api.ts";
import type { TmuxSession } from "../support/tmux.ts";

interface Upload {
  source: string;
  version: string;
  session: string;
  type: string;
  body: string;
}

/** The upload endpoint: records each request; `hold` keeps answers back until `release()`. */
function uploadEndpoint(o: { hold?: boolean } = {}) {
  const uploads: Upload[] = [];
  const held: Array<() => void> = [];
  let holding = o.hold ?? false;
  let stopped = false;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    uploads.push({
      source: req.headers.get("x-assist-source") ?? "",
      version: req.headers.get("x-assist-version") ?? "",
      session: req.headers.get("x-session-id") ?? "",
      type: req.headers.get("content-type") ?? "",
      body: await req.text(),
    });
    if (holding) await new Promise<void>((r) => held.push(r));
    return new Response("stored");
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}/memory`,
    uploads,
    release() {
      holding = false;
      for (const r of held.splice(0)) r();
    },
    /** Stops taking requests once those in flight are answered: nothing arrives after this. */
    async drain() {
      this.release();
      if (!stopped) {
        stopped = true;
        await server.shutdown();
      }
    },
    async [Symbol.asyncDispose]() {
      await this.drain();
    },
  };
}

async function waitUntil(test: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!test()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The program's pid: the child of the pane's sh wrapper (env execs into deno). */
async function programPid(term: TmuxSession): Promise<number> {
  const tmux = async (args: string[]) =>
    new TextDecoder().decode(
      (await new Deno.Command("tmux", { args: ["-L", term.socket, ...args], stdout: "piped" }).output())
        .stdout,
    ).trim();
  const shPid = await tmux(["display", "-p", "-t", "s", "#{pane_pid}"]);
  const out = await new Deno.Command("pgrep", { args: ["-P", shPid], stdout: "piped" }).output();
  const pid = Number(new TextDecoder().decode(out.stdout).trim().split("\n")[0]);
  assert.ok(pid > 0, "found the program's pid");
  return pid;
}

async function oneTurn(
  rig: Awaited<ReturnType<typeof startRepl>>,
  prompt: string,
  answer: string,
  n: number,
) {
  rig.fake.replies.push({ text: answer });
  await rig.term.type(prompt);
  await rig.term.keys("Enter");
  await rig.term.waitForPrompt(n + 1);
}

async function artifacts(home: string): Promise<Array<{ id: string; log: string; messages: string }>> {
  const dir = `${home}/.assist/sessions`;
  const out = [];
  for await (const e of Deno.readDir(dir)) {
    const m = /^(.+)\.messages\.json$/.exec(e.name);
    if (!m) continue;
    out.push({
      id: m[1],
      log: await Deno.readTextFile(`${dir}/${m[1]}.log.md`),
      messages: await Deno.readTextFile(`${dir}/${e.name}`),
    });
  }
  return out.sort((a, b) => a.id.localeCompare(b.id));
}

function assertThreeUploads(uploads: Upload[], id: string): void {
  assert.equal(uploads.length, 3, "three requests");
  assert.deepEqual(uploads.map((u) => u.source).sort(), ["headers-log", "session-log", "session-messages"]);
  for (const u of uploads) {
    assert.match(u.version, /^\d+\.\d+\.\d+/);
    assert.equal(u.session, id);
  }
  const types = Object.fromEntries(uploads.map((u) => [u.source, u.type]));
  assert.deepEqual(types, {
    "headers-log": "text/plain",
    "session-log": "text/markdown",
    "session-messages": "application/json",
  });
}

Deno.test("/quit uploads the three artifacts once; a typed PHI canary is in none of them", async () => {
  await using up = uploadEndpoint();
  await using rig = await startRepl({ env: { ASSIST_MEMORY_UPLOAD_URL: up.url } });
  await rig.term.waitForPrompt();
  await oneTurn(rig, "why is @@ZEPHYRINA@@ failing? SSN 512-44-9087", "checking the interface", 1);
  await rig.term.type("/quit");
  await rig.term.keys("Enter");
  assert.equal(await rig.term.waitForExit(), 0);
  const [a] = await artifacts(rig.home);
  assertThreeUploads(up.uploads, a.id);
  const messages = up.uploads.find((u) => u.source === "session-messages")!.body;
  assert.equal(messages, a.messages, "the body is the file's bytes");
  assert.deepEqual(
    JSON.parse(messages),
    (rig.fake.messageRequests[0].json!.messages as unknown[]).concat([
      { role: "assistant", content: [{ type: "text", text: "checking the interface" }] },
    ]),
  );
  assert.match(a.log, /\*\*you\*\*\n\n> why is \[\[/);
  for (const text of [a.log, a.messages, ...up.uploads.map((u) => u.body)]) {
    assert.ok(!text.includes("ZEPHYRINA"), "the canary name stays local");
    assert.ok(!text.includes("512-44-9087"), "the canary SSN stays local");
  }
  if (Deno.build.os !== "windows") {
    assert.equal((await Deno.stat(`${rig.home}/.assist/sessions`)).mode! & 0o777, 0o700);
  }
});

for (const [signal, code] of [["SIGTERM", 143], ["SIGHUP", 129]] as const) {
  Deno.test(`${signal} uploads the artifacts before the program ends`, async () => {
    await using up = uploadEndpoint();
    await using rig = await startRepl({ env: { ASSIST_MEMORY_UPLOAD_URL: up.url } });
    await rig.term.waitForPrompt();
    await oneTurn(rig, "list the threads", "three threads", 1);
    Deno.kill(await programPid(rig.term), signal);
    assert.equal(await rig.term.waitForExit(), code);
    const [a] = await artifacts(rig.home);
    assertThreeUploads(up.uploads, a.id);
  });
}

Deno.test("SIGTERM during /quit's upload: the upload still happens exactly once", async () => {
  await using up = uploadEndpoint({ hold: true });
  await using rig = await startRepl({ env: { ASSIST_MEMORY_UPLOAD_URL: up.url } });
  await rig.term.waitForPrompt();
  await oneTurn(rig, "status of ADT_IN", "running", 1);
  const pid = await programPid(rig.term);
  await rig.term.type("/quit");
  await rig.term.keys("Enter");
  await waitUntil(() => up.uploads.length === 3, "the upload of /quit");
  Deno.kill(pid, "SIGTERM");
  // The signal has no visible effect by design (it joins the exit already running), so the test
  // gives it a moment to be delivered while the upload is still held.
  await new Promise((r) => setTimeout(r, 300));
  up.release();
  await rig.term.waitForExit();
  await up.drain(); // every request the program sent has been answered and counted
  assert.equal(up.uploads.length, 3, "no second upload");
});

Deno.test("no upload address: one warning line at exit and no request", async () => {
  await using up = uploadEndpoint();
  await using rig = await startRepl();
  await rig.term.waitForPrompt();
  await oneTurn(rig, "hello", "hi", 1);
  await rig.term.keys("C-d");
  assert.equal(await rig.term.waitForExit(), 0);
  const screen = await rig.term.screen();
  assert.equal(screen.match(/ASSIST_MEMORY_UPLOAD_URL is unset/g)?.length, 1);
  assert.equal(up.uploads.length, 0);
});

Deno.test("a dead endpoint and a hanging endpoint: the program still leaves, with one warning", async () => {
  await using hanging = uploadEndpoint({ hold: true });
  for (
    const [url, warning] of [["http://127.0.0.1:9/memory", /session upload failed/], [
      hanging.url,
      /gave up after 5 s/,
    ]] as const
  ) {
    await using rig = await startRepl({ env: { ASSIST_MEMORY_UPLOAD_URL: url } });
    await rig.term.waitForPrompt();
    await oneTurn(rig, "hello", "hi", 1);
    await rig.term.type("/quit");
    await rig.term.keys("Enter");
    assert.equal(await rig.term.waitForExit(30_000), 0);
    assert.match(await rig.term.screen(), warning);
  }
});

Deno.test("kill -9 after two turns: both artifacts parse and hold both turns", async () => {
  await using rig = await startRepl();
  await rig.term.waitForPrompt();
  await oneTurn(rig, "first question", "first answer", 1);
  await oneTurn(rig, "second question", "second answer", 2);
  Deno.kill(await programPid(rig.term), "SIGKILL");
  await rig.term.waitForExit();
  const [a] = await artifacts(rig.home);
  const messages = JSON.parse(a.messages);
  assert.equal(messages.length, 4);
  assert.equal(messages[0].content, "first question");
  assert.deepEqual(messages[3].content, [{ type: "text", text: "second answer" }]);
  assert.match(a.log, /## Turn 1[\s\S]*first answer[\s\S]*## Turn 2[\s\S]*second answer/);
});

Deno.test("--resume continues the latest session with the same tokens; a truncated file is refused", async () => {
  await using dir = await tempDir("assist-resume-");
  const fake = new FakeModelApi();
  try {
    {
      await using rig = await startRepl({ home: dir.path, fake });
      await rig.term.waitForPrompt();
      await oneTurn(rig, "why is @@ZEPHYRINA@@ failing?", "looking", 1);
      await rig.term.type("/quit");
      await rig.term.keys("Enter");
      await rig.term.waitForExit();
    }
    const first = fake.messageRequests[0].json!.messages as Array<{ content: unknown }>;
    assert.match(String(first[0].content), /\[\[[^\]]+\]\]/, "the name went as a token");
    {
      await using rig = await startRepl({ home: dir.path, fake, tmux: { args: ["--resume"] } });
      const screen = await rig.term.waitForPrompt();
      assert.match(screen, /resumed \S+: 1 turn\(s\); first prompt: why is ZEPHYRINA failing\?/);
      await oneTurn(rig, "and now?", "still looking", 1);
      await rig.term.type("/sessions");
      await rig.term.keys("Enter");
      await rig.term.waitFor(/2 turn\(s\)\s+\$\S+\s+why is ZEPHYRINA failing\?/, "the /sessions line");
      await rig.term.type("/quit");
      await rig.term.keys("Enter");
      await rig.term.waitForExit();
    }
    const second = fake.messageRequests[1].json!.messages as unknown[];
    assert.deepEqual(second.slice(0, 2), [
      first[0],
      { role: "assistant", content: [{ type: "text", text: "looking" }] },
    ]);
    const [a] = await artifacts(dir.path);
    assert.equal(JSON.parse(a.messages).length, 4, "the resumed session's file holds both turns");
    // Cut inside the first turn: refused with one line, and nothing is loaded.
    const path = `${dir.path}/.assist/sessions/${a.id}.messages.json`;
    await Deno.writeTextFile(path, a.messages.slice(0, a.messages.indexOf("looking")));
    {
      await using rig = await startRepl({ home: dir.path, fake, tmux: { args: ["--resume", a.id] } });
      assert.equal(await rig.term.waitForExit(), 1);
      const screen = await rig.term.screen();
      assert.match(screen, /cannot resume from \S+: damaged or truncated/);
    }
    {
      await using rig = await startRepl({ home: dir.path, fake });
      await rig.term.waitForPrompt();
      await rig.term.type(`/resume ${a.id}`);
      await rig.term.keys("Enter");
      await rig.term.waitFor(/cannot resume from \S+: damaged or truncated/, "the refusal");
      await rig.term.waitForPrompt(2);
    }
  } finally {
    await fake.close();
  }
});

Deno.test("/quit before any turn still sends the three artifacts (empty ones) once", async () => {
  await using up = uploadEndpoint();
  await using rig = await startRepl({ env: { ASSIST_MEMORY_UPLOAD_URL: up.url } });
  await rig.term.waitForPrompt();
  await rig.term.type("/quit");
  await rig.term.keys("Enter");
  assert.equal(await rig.term.waitForExit(), 0);
  assert.deepEqual(up.uploads.map((u) => u.source).sort(), [
    "headers-log",
    "session-log",
    "session-messages",
  ]);
  const messages = up.uploads.find((u) => u.source === "session-messages")!;
  assert.deepEqual(JSON.parse(messages.body), []);
  assert.equal(new Set(up.uploads.map((u) => u.session)).size, 1);
});
