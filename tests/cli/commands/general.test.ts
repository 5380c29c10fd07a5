import { deepStrictEqual as assertEquals, match, ok as assert } from "node:assert/strict";
import { runSlash } from "../../../cli/commands/table.ts";
import { ensureHome } from "../../../core/home.ts";
import { tempDir } from "../../support/run_assist.ts";
import { replContext } from "./_support.ts";

/** Runs `fn` with PATH set to `path` only (the clipboard tools are looked up there). */
async function withPath<T>(path: string, fn: () => Promise<T>): Promise<T> {
  const saved = Deno.env.get("PATH");
  Deno.env.set("PATH", path);
  try {
    return await fn();
  } finally {
    if (saved === undefined) Deno.env.delete("PATH");
    else Deno.env.set("PATH", saved);
  }
}

Deno.test("/copy: the last answer goes to the first clipboard tool on PATH (a fake xclip)", async () => {
  await using tmp = await tempDir();
  const bin = `${tmp.path}/bin`;
  await Deno.mkdir(bin);
  const got = `${tmp.path}/clipboard.txt`;
  // PATH holds only the fake, so the script names `cat` by the path the real PATH gives it.
  const which = await new Deno.Command("sh", { args: ["-c", "command -v cat"], stdout: "piped" }).output();
  const cat = new TextDecoder().decode(which.stdout).trim();
  await Deno.writeTextFile(`${bin}/xclip`, `#!/bin/sh\necho "$@" > '${got}.args'\nexec ${cat} > '${got}'\n`, {
    mode: 0o755,
  });
  const { io, repl, ctx } = replContext(tmp.path);
  await runSlash("/copy", ctx);
  assertEquals(io.warns, ["no answer to copy yet"]);
  repl.answer = "PID.5 is the patient name.\nSecond line ✓";
  await withPath(bin, () => runSlash("/copy", ctx));
  assertEquals(await Deno.readTextFile(got), repl.answer);
  assertEquals((await Deno.readTextFile(`${got}.args`)).trim(), "-selection clipboard");
  assertEquals(io.outs, [
    `copied the last answer (${new TextEncoder().encode(repl.answer).length} bytes) with xclip`,
  ]);
});

Deno.test("/copy: no clipboard tool, or one that fails: the answer is printed with a warning", async () => {
  await using tmp = await tempDir();
  const { io, repl, ctx } = replContext(tmp.path);
  repl.answer = "the answer";
  await withPath(`${tmp.path}/nothing-here`, () => runSlash("/copy", ctx));
  assertEquals(io.warns.length, 1);
  match(io.warns[0], /^no clipboard tool found \(pbcopy, wl-copy, xclip, xsel, clip\.exe\)/);
  assertEquals(io.outs, ["the answer"]);

  await Deno.writeTextFile(`${tmp.path}/xsel`, "#!/bin/sh\necho 'no display' >&2\nexit 3\n", { mode: 0o755 });
  const b = replContext(tmp.path);
  b.repl.answer = "again";
  await withPath(tmp.path, () => runSlash("/copy", b.ctx));
  assertEquals(b.io.warns, [
    "no clipboard tool worked (xsel: exit 3, no display); here is the answer to copy by hand:",
  ]);
  assertEquals(b.io.outs, ["again"]);
});

const HL7 = [
  "MSH|^~\\&|LAB|HOSP|EHR|HOSP|20240101120000||ADT^A01|MSG0001|P|2.5.1",
  "PID|1||88877766^^^HOSP^MR||QUIXBY^ZENOBIA^M||19800101|F|||12 Larkspur Lane^^Springfield^IL^62701",
  "PV1|1|I|4N^401^A",
].join("\r");

Deno.test("/load: an HL7 file goes through the HL7 sanitizer before it is attached", async () => {
  await using tmp = await tempDir();
  await ensureHome(tmp.path);
  const file = `${tmp.path}/adt.hl7`;
  await Deno.writeTextFile(file, HL7);
  const { io, repl, ctx } = replContext(tmp.path);
  await runSlash(`/load ${file}`, ctx);
  assertEquals(io.warns, []);
  assertEquals(
    io.outs.at(-1),
    `loaded ${file} (${HL7.length} bytes, HL7 sanitized); it goes with your next prompt`,
  );
  assertEquals(repl.attached.length, 1);
  const text = repl.attached[0].text;
  for (const raw of ["QUIXBY", "ZENOBIA", "88877766", "Larkspur"]) {
    assert(!text.includes(raw), `${raw} attached raw`);
  }
  match(text, /^MSH\|/);
  match(text, /\[\[[A-Z_]+_\d+\]\]/);
});

Deno.test("/load: plain text as is; a missing file or a folder is one clear line", async () => {
  await using tmp = await tempDir();
  const file = `${tmp.path}/notes with spaces.txt`;
  await Deno.writeTextFile(file, "check thread adt_in\n");
  const { io, repl, ctx } = replContext(tmp.path);
  await runSlash(`/load ${file}`, ctx);
  assertEquals(repl.attached, [{ label: file, text: "check thread adt_in\n" }]);
  assertEquals(io.outs, [`loaded ${file} (20 bytes); it goes with your next prompt`]);
  await runSlash(`/load ${tmp.path}/nope.txt`, ctx);
  await runSlash(`/load ${tmp.path}`, ctx);
  assertEquals(io.warns, [
    `cannot load ${tmp.path}/nope.txt: no such file`,
    `cannot load ${tmp.path}: ${tmp.path} is a folder; skipped (name a file inside it)`,
  ]);
  assertEquals(repl.attached.length, 1);
});

Deno.test("/load refuses the protected places of $ASSIST_HOME, as @file does (no password reaches the model)", async () => {
  await using tmp = await tempDir();
  const { io, repl, ctx } = replContext(tmp.path);
  await Deno.mkdir(`${tmp.path}/.ssh-creds`, { recursive: true });
  await Deno.writeTextFile(`${tmp.path}/.ssh-creds/eng1`, "hunter2-canary\n");
  await Deno.writeTextFile(`${tmp.path}/.api-key`, "sk-ant-canary\n");
  for (
    const f of [`${tmp.path}/.ssh-creds/eng1`, `${tmp.path}/.api-key`, `${tmp.path}/work/../.ssh-creds/eng1`]
  ) {
    await runSlash(`/load ${f}`, ctx);
  }
  assertEquals(repl.attached, []);
  assertEquals(io.warns.length, 3);
  for (const w of io.warns) match(w, /^cannot load .*: .*(protected|refused)/i);
  assert(!JSON.stringify(io).includes("canary"));
});

Deno.test("/origin: show, pin gitea or an https URL (0600), clear with auto, refuse github", async () => {
  await using tmp = await tempDir();
  const pin = `${tmp.path}/.origin`;
  const { io, ctx } = replContext(tmp.path);
  await runSlash("/origin", ctx);
  match(io.outs[0], /^origin: default \(gitea\)\npin file: .*\.origin: absent\n/);
  match(io.outs[0], /\nfetches: https:\/\/\S+\/raw\/branch\/main\/<VERSION\|MANIFEST\|path>\n/);
  match(
    io.outs[0],
    /\nsignature: MANIFEST must be signed by a trusted key \(2 trusted\)\ntoken: none \(anonymous\)$/,
  );

  await runSlash("/origin gitea", ctx);
  assertEquals(await Deno.readTextFile(pin), "gitea\n");
  if (Deno.build.os !== "windows") assertEquals((await Deno.stat(pin)).mode! & 0o777, 0o600);

  await runSlash("/origin https://git.example.org/ops/assist/", ctx);
  assertEquals(await Deno.readTextFile(pin), "https://git.example.org/ops/assist\n");
  if (Deno.build.os !== "windows") assertEquals((await Deno.stat(pin)).mode! & 0o777, 0o600);
  await runSlash("/origin", ctx);
  match(io.outs.at(-1)!, /^origin: https:\/\/git\.example\.org\/ops\/assist \(pinned\)\n/);
  match(io.outs.at(-1)!, /\nsignature: unsigned origin \(no trusted key; pin one in .*\.origin-key\)/);

  await runSlash("/origin github", ctx);
  assertEquals(io.warns, ["the github mirror is private; use gitea or an https:// URL"]);
  assertEquals(await Deno.readTextFile(pin), "https://git.example.org/ops/assist\n", "the pin is untouched");
  await runSlash("/origin http://plain.example.org", ctx);
  match(io.warns.at(-1)!, /^usage: \/origin \[gitea\|auto\|https:/);

  await runSlash("/origin auto", ctx);
  await Deno.stat(pin).then(() => assert(false, "pin left"), () => {});

  await Deno.writeTextFile(pin, "github\r\n");
  await runSlash("/origin", ctx);
  match(io.outs.at(-1)!, /^origin: default \(gitea\)\npin file: .*: holds "github", which is invalid/);
  match(io.outs.at(-1)!, /fix it with \/origin gitea or \/origin auto/);

  const env = replContext(tmp.path, { ASSIST_BASE_URL: "https://mirror.example.org" });
  await runSlash("/origin", env.ctx);
  match(env.io.outs[0], /^origin: https:\/\/mirror\.example\.org \(ASSIST_BASE_URL; it overrides any pin\)/);
});

Deno.test("/phi-auto: set each mode, show it, refuse others", async () => {
  await using tmp = await tempDir();
  const { io, repl, ctx } = replContext(tmp.path);
  await runSlash("/phi-auto", ctx);
  assertEquals(io.outs, [
    "auto-PHI: on (every automatic tier tokenizes what it finds)",
    "usage: /phi-auto on|off|confirm|strict|status",
  ]);
  for (const m of ["off", "confirm", "strict", "on"] as const) {
    await runSlash(`/phi-auto ${m.toUpperCase()}`, ctx);
    assertEquals(repl.phiMode, m);
  }
  await runSlash("/phi-auto strict", ctx);
  await runSlash("/phi-auto status", ctx);
  match(io.outs.at(-1)!, /^auto-PHI: strict \(/);
  await runSlash("/phi-auto maybe", ctx);
  assertEquals(io.warns, [`unknown auto-PHI mode "maybe" (usage: /phi-auto on|off|confirm|strict|status)`]);
  assertEquals(repl.phiMode, "strict");
});

Deno.test("/model: changes the model through the host; alone shows it and the usage", async () => {
  await using tmp = await tempDir();
  const { io, repl, ctx } = replContext(tmp.path);
  await runSlash("/model", ctx);
  assertEquals(io.outs, ["model: claude-sonnet-4-6\nusage: /model <id>"]);
  await runSlash("/model claude-opus-4-1 ", ctx);
  assertEquals([repl.calls, repl.model, io.outs.at(-1)], [
    ["setModel claude-opus-4-1"],
    "claude-opus-4-1",
    "model: claude-opus-4-1",
  ]);
  assertEquals(io.warns, [], "a known id: no warning");
  // A family word alone is taken, with a warning that it is not a known id.
  await runSlash("/model opus", ctx);
  assertEquals(repl.model, "opus");
  match(io.warns[0], /^"opus" is not a model id this version knows \(full ids look like claude-/);
  await runSlash("/model 'bad id;'", ctx);
  match(io.warns[1], /is not a model id/);
});

Deno.test("session commands act on the host: /reset /clear /cost /status /show-last-tool /mouse", async () => {
  await using tmp = await tempDir();
  const { io, repl, ctx } = replContext(tmp.path);
  for (const l of ["/reset", "/clear", "/cost", "/status", "/show-last-tool", "/mouse on", "/mouse off"]) {
    await runSlash(l, ctx);
  }
  assertEquals(repl.calls, ["reset", "clearScreen", "setMouse true", "setMouse false"]);
  assertEquals(io.outs, [
    "conversation cleared",
    "cost: $0.00",
    "status: sonnet-4.6 | ctx —",
    "no tool has run yet",
    "mouse reporting on",
    "mouse reporting off",
  ]);
  repl.tool = { name: "grep_files", input: { pattern: "ADT" }, result: "a.tcl:3: ADT", isError: false };
  await runSlash("/show-last-tool", ctx);
  assertEquals(io.outs.at(-1), 'tool: grep_files\ninput: {\n  "pattern": "ADT"\n}\nresult:\na.tcl:3: ADT');
  // After `n` at the review gate: the withheld result is the operator's to see, and what the model got.
  repl.tool = {
    name: "bash_exec",
    input: { command: "cat x" },
    result: '{"error":"withheld_by_operator"}',
    isError: false,
    withheld: "PID|1||12345",
  };
  await runSlash("/show-last-tool", ctx);
  assertEquals(
    io.outs.at(-1),
    'tool: bash_exec\ninput: {\n  "command": "cat x"\n}\n' +
      "result (withheld at the review gate: for your eyes only, it never went to the model):\nPID|1||12345\n" +
      'the model got instead:\n{"error":"withheld_by_operator"}',
  );
  await runSlash("/mouse sideways", ctx);
  assertEquals(io.warns, ["usage: /mouse on|off"]);

  const off = replContext(tmp.path, { ASSIST_NO_MOUSE: "1" });
  await runSlash("/mouse on", off.ctx);
  assertEquals([off.io.warns, off.repl.calls], [
    ["mouse mode is switched off here (ASSIST_NO_MOUSE is set)"],
    [],
  ]);
});

Deno.test("/hl7 and /hl7-fields: schema help; Z-segments site-specific; unknown ones an error", async () => {
  await using tmp = await tempDir();
  const { io, ctx } = replContext(tmp.path);
  await runSlash("/hl7 pid", ctx);
  match(io.outs[0], /^PID {2}Patient Identification/);
  await runSlash("/hl7 ZPI", ctx);
  match(io.outs[1], /^ZPI: site-specific segment/);
  await runSlash("/hl7-fields PID.5", ctx);
  match(io.outs[2], /^PID\.5 {2}Patient Name/);
  await runSlash("/hl7-fields PID.3.1", ctx);
  match(io.outs[3], /^PID\.3\.1 {2}ID Number/);
  assertEquals(io.warns, []);
  for (
    const l of [
      "/hl7 XYZ",
      "/hl7-fields PID.99",
      "/hl7-fields XXX.1",
      "/hl7-fields PID",
      "/hl7-fields PID.3.1.9",
    ]
  ) {
    await runSlash(l, ctx);
  }
  assertEquals(io.outs.length, 4, "errors are not output");
  match(io.warns[0], /^XYZ is not in the built-in schema/);
  match(io.warns[1], /^PID has \d+ fields .*there is no PID\.99$/);
  match(io.warns[3], /^usage: \/hl7-fields <SEG\.N>/);
  assertEquals(io.warns.length, 5);
});

Deno.test("/nc-diff-env and /nc-regression-env submit the rendered template; missing values print usage", async () => {
  await using tmp = await tempDir();
  const { io, repl, ctx } = replContext(tmp.path);
  await runSlash("/nc-diff-env adt_site", ctx);
  assertEquals(io.warns, [
    "usage: /nc-diff-env <site> <source> <target> (or name=value; missing source, target)",
  ]);
  assertEquals(repl.submitted, []);
  await runSlash("/nc-diff-env adt_site test1 prod1", ctx);
  match(
    repl.submitted[0],
    /^Compare the network configuration of site adt_site between two environments: test1 \(source\) and prod1 \(target\)/,
  );
  await runSlash("/nc-regression-env count=5 adt_in adt_site test1 prod1", ctx);
  match(
    repl.submitted[1],
    /regression of adt_in in site adt_site from test1 \(source\) to prod1 \(target\), with 5 recent/,
  );
  assert(!repl.submitted.join("").includes("{{"), "no placeholder left");
});

Deno.test("/sites and /paths parse arguments as `assist tools` does", async () => {
  await using tmp = await tempDir();
  const { io, ctx } = replContext(tmp.path);
  await runSlash("/sites --bogus", ctx);
  match(io.warns[0], /^list_sites: unknown option --bogus/);
  await runSlash("/paths", ctx);
  match(io.warns[1], /^usage: \/paths <site>/);
});

Deno.test("/login: the menu by one key; 3 is the status, 2 the OAuth rail's state", async () => {
  await using tmp = await tempDir();
  const three = replContext(tmp.path, {}, { key: "3" });
  await runSlash("/login", three.ctx);
  match(three.io.outs[0], /^login:\n {2}1 {2}API key/);
  match(three.io.outs[1], /^rail: api-key\nASSIST_API_KEY: not set\n/);
  const two = replContext(tmp.path, {}, { key: "2" });
  await runSlash("/login", two.ctx);
  match(two.io.outs[1], /^OAuth \(Console login\): rail not selected; no token file/);
  match(two.io.outs[1], /\/oauth-debug shows the token file/);
  await runSlash("/oauth-debug", two.ctx);
  match(two.io.outs[2], /^oauth-debug: .*\.oauth\.json\n {2}file: missing/);
});
