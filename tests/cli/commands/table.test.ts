import { deepStrictEqual as assertEquals, match, ok as assert } from "node:assert/strict";
import {
  cliForms,
  COMMANDS,
  findCommand,
  helpText,
  hint,
  isCommandEntry,
  runCli,
  runSlash,
  splitArgs,
  usageLine,
} from "../../../cli/commands/table.ts";
import { helpText as cliHelp } from "../../../cli/help.ts";
import { REPO_ROOT, runAssist, tempDir } from "../../support/run_assist.ts";
import { recordingIO, replContext } from "./_support.ts";

/** The spec's slash-command table (SPEC.md, "Slash commands"), as the issue lists it. */
const SPEC_COMMANDS = [
  "help",
  "quit",
  "reset",
  "clear",
  "load",
  "copy",
  "cost",
  "show-last-tool",
  "model",
  "status",
  "login",
  "set-api-key",
  "oauth-debug",
  "origin",
  "phi-auto",
  "phi-sidecar",
  "mouse",
  "hl7",
  "hl7-fields",
  "ssh-hosts",
  "ssh-add",
  "ssh-remove",
  "ssh-pass",
  "ssh-setup",
  "ssh-close",
  "ssh-status",
  "ssh",
  "ssh-set-hciroot",
  "ssh-set-direct",
  "sites",
  "paths",
  "nc-diff-env",
  "nc-regression-env",
  "headers-sync",
]; // deno-fmt-ignore

Deno.test("every command of the spec's slash table is in the one table, once", async () => {
  for (const name of SPEC_COMMANDS) assert(findCommand(name), `/${name} is missing`);
  const spec = await Deno.readTextFile(`${REPO_ROOT}../shared/spec/SPEC.md`).catch(() => "");
  const section = spec.split("### Slash commands")[1]?.split("\n### ")[0] ?? "";
  const fromSpec = [...section.matchAll(/^\| `\/([a-z0-9-]+)` \|/gm)].map((m) => m[1]);
  for (const name of fromSpec) assert(findCommand(name), `/${name} (SPEC.md) is missing`);
  const names = COMMANDS.map((c) => c.name);
  assertEquals(names.length, new Set(names).size, "a name is defined twice");
  for (const c of COMMANDS) {
    assert(c.summary.length > 0 && !c.summary.includes("\n"), `/${c.name}: one-line summary`);
    assert(c.minArgs <= c.maxArgs, `/${c.name}: arity`);
  }
  for (const n of ["login", "ssh-pass", "ssh-add", "set-api-key"]) assert(findCommand(n)!.noHistory, n);
});

Deno.test("missing arguments print the usage line; extra ones too", async () => {
  await using tmp = await tempDir();
  for (const c of COMMANDS.filter((c) => c.minArgs > 0)) {
    const { io, ctx } = replContext(tmp.path);
    await runSlash(`/${c.name}`, ctx);
    assertEquals(io.warns, [usageLine(c, "repl")], `/${c.name}`);
    match(io.warns[0], new RegExp(`^usage: /${c.name} \\S`));
  }
  const exact: Array<[string, string]> = [
    ["/ssh-add eng1", "usage: /ssh-add <alias> <user@host[:port]>"],
    ["/load", "usage: /load <file>"],
    ["/hl7-fields", "usage: /hl7-fields <SEG.N>"],
    ["/mouse", "usage: /mouse on|off"],
    ["/ssh eng1", "usage: /ssh <alias> <command...>"],
    ["/quit now", "usage: /quit"],
    ["/ssh-setup a b", "usage: /ssh-setup <alias>"],
  ];
  for (const [line, want] of exact) {
    const { io, ctx } = replContext(tmp.path);
    await runSlash(line, ctx);
    assertEquals(io.warns, [want], line);
  }
});

Deno.test("unknown command: one line with the closest names", async () => {
  await using tmp = await tempDir();
  const { io, ctx } = replContext(tmp.path);
  await runSlash("/ssh-stat eng1", ctx);
  match(
    io.warns[0],
    /^unknown command: \/ssh-stat; did you mean [^?]*\/ssh-status\b[^?]*\? \(\/help lists them\)$/,
  );
  const b = replContext(tmp.path);
  await runSlash("/zzzzzzzz", b.ctx);
  assertEquals(b.io.warns, ["unknown command: /zzzzzzzz (/help lists them)"]);
});

Deno.test("trailing whitespace is trimmed before dispatch: a completed `/quit ` works", async () => {
  await using tmp = await tempDir();
  for (const line of ["/quit ", "/quit \t  ", "/quit\r\n"]) {
    const { io, repl, ctx } = replContext(tmp.path);
    await runSlash(line, ctx);
    assertEquals([repl.calls, io.warns], [["quit"], []], JSON.stringify(line));
  }
});

Deno.test("arguments: whitespace-separated, quotes group words, a raw tail keeps the line as typed", () => {
  assertEquals(splitArgs(`e1 "" 'a b' c"d e"`).args, ["e1", "", "a b", "cd e"]);
  assertEquals(splitArgs(`e1   grep 'x  y' f`, 1), { args: ["e1"], rest: `grep 'x  y' f` });
});

Deno.test("hint(): the caller's language", () => {
  assertEquals(hint("cli", "ssh-setup", ["eng1"]), "assist ssh setup eng1");
  assertEquals(hint("repl", "ssh-setup", ["eng1"]), "/ssh-setup eng1");
  assertEquals(hint("cli", "set-api-key"), "assist auth set-api-key");
  assertEquals(hint("cli", "phi-sidecar", ["start"]), "assist phi-sidecar start");
  assertEquals(hint("cli", "login"), "/login", "a REPL-only command keeps its slash form");
});

Deno.test("assist ssh status speaks the command line's language; /ssh-status the REPL's", async () => {
  await using tmp = await tempDir();
  const saved = Deno.env.get("ASSIST_HOME");
  Deno.env.set("ASSIST_HOME", tmp.path);
  try {
    const cli = recordingIO("cli");
    assertEquals(await runCli(["ssh", "status"], cli), 0);
    assertEquals(cli.outs, ["no SSH hosts (add one with assist ssh add <alias> <user@host[:port]>)"]);
    assert(!/(^|\s|\()\/[a-z]/.test(cli.all), `a slash hint on the command line: ${cli.all}`);

    assertEquals(await runCli(["ssh", "add", "e1", "op@127.0.0.1:2222"], cli), 0);
    match(cli.outs.at(-1)!, /\(next: assist ssh pass e1, then assist ssh setup e1\)$/);
    assertEquals(await runCli(["ssh", "setup", "e1"], cli), 1);
    assertEquals(cli.warns, ["no stored password for e1 (set it with assist ssh pass e1)"]);
    // An alias that names nothing is a usage error, as on every other front.
    assertEquals(await runCli(["ssh", "status", "nope"], cli), 2);
    match(
      cli.warns.at(-1)!,
      /unknown SSH alias "nope" \(add it with assist ssh add nope <user@host\[:port\]>\)/,
    );
    assert(!/(^|\s|\()\/ssh-/.test(cli.all), cli.all);

    const { io, ctx } = replContext(tmp.path);
    await runSlash("/ssh-setup e1", ctx);
    assertEquals(io.warns, ["no stored password for e1 (set it with /ssh-pass e1)"]);
    await runSlash("/ssh-remove e1", ctx);
    await runSlash("/ssh-status", ctx);
    assertEquals(io.outs.at(-1), "no SSH hosts (add one with /ssh-add <alias> <user@host[:port]>)");
  } finally {
    if (saved === undefined) Deno.env.delete("ASSIST_HOME");
    else Deno.env.set("ASSIST_HOME", saved);
  }
});

Deno.test("/ssh runs through ssh_exec: its failure is the tool's, in the REPL's language", async () => {
  await using tmp = await tempDir();
  const { io, ctx } = replContext(tmp.path);
  await runSlash("/ssh e9 ls -l '$HCIROOT'", ctx);
  assertEquals(io.outs, []);
  match(io.warns[0], /^ssh_exec: unknown SSH alias "e9" \(add it with \/ssh-add e9 <user@host\[:port\]>\)$/);
});

Deno.test("runCli: exit codes 0/1/2 and --help after every group and operation", async () => {
  await using tmp = await tempDir();
  const saved = Deno.env.get("ASSIST_HOME");
  Deno.env.set("ASSIST_HOME", tmp.path);
  try {
    const cases: Array<[string[], number, RegExp, "out" | "warn"]> = [
      [["ssh"], 2, /^usage: assist ssh <op> \[args\]\n {2}hosts /, "out"],
      [["ssh", "--help"], 0, /^usage: assist ssh <op> \[args\]/, "out"],
      [
        ["ssh", "add", "--help"],
        0,
        /^usage: assist ssh add <alias> <user@host\[:port\]>\n {2}register a host$/,
        "out",
      ],
      [["auth", "--help"], 0, /^usage: assist auth <op> \[args\]\n {2}set-api-key /, "out"],
      [
        ["phi-sidecar", "--help"],
        0,
        /^usage: assist phi-sidecar start\|stop\|status\|health\|ensure\n/,
        "out",
      ],
      [["ssh", "bogus"], 2, /^unknown ssh operation: bogus \(see `assist ssh --help`\)$/, "warn"],
      [["ssh", "statu"], 2, /^unknown ssh operation: statu; did you mean status\?/, "warn"],
      [["ssh", "add", "e1"], 2, /^ssh add: missing argument \(usage: assist ssh add <alias> /, "warn"],
      [
        ["ssh", "close", "a", "b"],
        2,
        /^ssh close: unexpected argument "b" \(usage: assist ssh close <alias>\)$/,
        "warn",
      ],
      [["auth", "status", "x"], 2, /^auth status: unexpected argument "x"/, "warn"],
      [["auth"], 2, /^usage: assist auth <op>/, "out"],
      [["phi-sidecar"], 2, /^phi-sidecar: missing argument \(usage: assist phi-sidecar start\|/, "warn"],
      [
        ["phi-sidecar", "launch"],
        2,
        /^usage: assist phi-sidecar start\|stop\|status\|health\|ensure \(got "launch"\)$/,
        "warn",
      ],
      [["ssh", "hosts"], 0, /^no SSH hosts \(add one with assist ssh add /, "out"],
      [
        ["ssh", "remove", "ghost"],
        2,
        /^unknown SSH alias "ghost" \(add it with assist ssh add ghost /,
        "warn",
      ],
      [["auth", "status"], 0, /^rail: api-key\nASSIST_API_KEY: /, "out"],
    ]; // deno-fmt-ignore
    for (const [argv, code, re, where] of cases) {
      const io = recordingIO("cli");
      assertEquals(await runCli(argv, io), code, argv.join(" "));
      const text = where === "out" ? io.outs.join("\n") : io.warns.join("\n");
      match(text, re, argv.join(" "));
    }
    for (const c of COMMANDS.filter((c) => c.cli)) {
      const io = recordingIO("cli");
      assertEquals(await runCli([...c.cli!, "--help"], io), 0, c.name);
      assertEquals(io.outs, [`${usageLine(c, "cli")}\n  ${c.summary}`]);
    }
  } finally {
    if (saved === undefined) Deno.env.delete("ASSIST_HOME");
    else Deno.env.set("ASSIST_HOME", saved);
  }
});

Deno.test("/help: every command by group, then the keys; assist --help lists the command-line forms", async () => {
  await using tmp = await tempDir();
  const { io, ctx } = replContext(tmp.path);
  await runSlash("/help", ctx);
  const text = io.outs.join("\n");
  assertEquals(text, helpText());
  for (const c of COMMANDS) match(text, new RegExp(`^  /${c.name}\\b`, "m"), c.name);
  const order = ["General:", "Model:", "Authentication:", "PHI:", "SSH:", "Engine:", "HL7:", "Keys:"];
  assertEquals(
    order.map((h) => text.indexOf(h)).every((v, i, a) => v >= 0 && (i === 0 || v > a[i - 1])),
    true,
  );
  for (
    const k of [
      "Alt+Enter",
      "Ctrl-J",
      "<<",
      "EOF",
      "Ctrl-C",
      "Ctrl-D",
      "Ctrl-R",
      "TAB",
      "@{path with spaces}",
    ]
  ) {
    assert(text.includes(k), k);
  }
  for (const m of ["@@VALUE", "@@VALUE@@", "{{phi:VALUE}}", "!nophi "]) assert(text.includes(m), m);
  const cli = cliHelp();
  for (const c of COMMANDS.filter((c) => c.cli)) assert(cli.includes(`assist ${c.cli!.join(" ")}`), c.name);
});

Deno.test("/<command> --help shows its usage and runs nothing; a raw tail keeps a later --help", async () => {
  await using tmp = await tempDir();
  const { io, ctx } = replContext(tmp.path);
  await runSlash("/ssh-add --help", ctx);
  await runSlash("/ssh-add eng1 -h", ctx);
  assertEquals(io.outs.length, 2);
  for (const out of io.outs) {
    match(out, /^usage: \/ssh-add <alias> <user@host\[:port\]>\n {2}register a host$/);
  }
  assertEquals(io.warns, []);
  // Nothing was registered.
  assertEquals(await Deno.stat(`${tmp.path}/.ssh-hosts.tsv`).then(() => true, () => false), false);
});

Deno.test("the command line names commands in its own form, also in messages worded for the REPL", async () => {
  // Issue #29 item 10: the modules below the fronts word hints for the REPL (`/ssh-pass h1`); a
  // failure shown at a shell says what to type there.
  assertEquals(
    cliForms("e1 refused the stored password of e1; set it again with /ssh-pass e1 and retry"),
    "e1 refused the stored password of e1; set it again with assist ssh pass e1 and retry",
  );
  assertEquals(
    cliForms("(close it with /ssh-close e1, then /ssh-setup e1)"),
    "(close it with assist ssh close e1, then assist ssh setup e1)",
  );
  // Paths, REPL-only commands and words are left alone.
  assertEquals(cliForms("see /tmp/ssh-pass or /help, a/ssh-pass"), "see /tmp/ssh-pass or /help, a/ssh-pass");

  await using tmp = await tempDir();
  const env = { ASSIST_HOME: `${tmp.path}/home`, HOME: tmp.path };
  assertEquals((await runAssist(["ssh", "add", "h1", "u@127.0.0.1:1"], { env })).code, 0);
  const r = await runAssist(["tools", "ssh_exec", "h1", "true"], { env });
  assertEquals([r.code, r.stderr], [1, "assist: ssh_exec: open the master with assist ssh setup h1 first\n"]);
  if (Deno.build.os === "windows") return; // the rest is about POSIX modes
  // A loose credential file: the message comes from ssh/creds.ts, worded for the REPL.
  await Deno.writeTextFile(`${tmp.path}/home/.ssh-creds/h1`, "pw\n", { mode: 0o644 });
  await Deno.chmod(`${tmp.path}/home/.ssh-creds/h1`, 0o644);
  await Deno.writeTextFile(`${tmp.path}/home/.ssh-host-options.json`, '{"aliases":{"h1":{"direct":true}}}');
  const s = await runAssist(["ssh", "setup", "h1"], { env });
  assertEquals(s.code, 1);
  match(s.stderr, /readable by others \(mode 644\); set it again with assist ssh pass h1\n$/);
});

Deno.test("a /word that is no command and holds another / is a prompt; // and a leading space too", () => {
  for (const e of ["/help", "/load ./notes.txt", "/nosuch", "/", "/ssh-status eng1/x"]) {
    assert(isCommandEntry(e), e);
  }
  for (
    const e of [
      "/hci/cis20.1/integrator/adt/NetConfig has adt_in twice, why?",
      "/etc/hosts",
      "//help",
      " /help",
      "what does /help say",
    ]
  ) assert(!isCommandEntry(e), e);
});
