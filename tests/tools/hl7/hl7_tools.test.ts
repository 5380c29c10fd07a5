/**
 * The three HL7 tools, called as the model and as an operator would: golden output on the
 * fixtures (exact text; `UPDATE_GOLDEN=1` rewrites the files, which are then reviewed by eye),
 * input sources, path protection and structured errors.
 */
import { deepStrictEqual as eq, ok } from "node:assert/strict";
import { hl7FieldTool } from "../../../tools/hl7/hl7_field_tool.ts";
import { hl7DiffTool } from "../../../tools/hl7/hl7_diff_tool.ts";
import { hl7ShowTool } from "../../../tools/hl7/hl7_show_tool.ts";
import { parseManualArgs } from "../../../tools/args.ts";
import { runTool } from "../../../tools/by_name.ts";
import type { ToolContext, ToolDef } from "../../../tools/types.ts";
import { tempDir } from "../../support/run_assist.ts";
import { goldenUpdate } from "../../support/golden.ts";
import { call, contextFor, errorOf } from "../support.ts";

const FIXTURES = new URL("../../fixtures/hl7/", import.meta.url);
const GOLDEN = new URL("golden/", FIXTURES);
const fixturePath = (name: string) => new URL(name, FIXTURES).pathname;
const update = goldenUpdate();

/** A context whose cwd is the fixture folder, so tools take the fixture names as relative paths. */
async function fixtureContext(): Promise<{ ctx: ToolContext; home: string; done: () => Promise<void> }> {
  const tmp = await tempDir();
  const home = `${tmp.path}/.assist`;
  await Deno.mkdir(`${home}/log`, { recursive: true });
  return {
    ctx: contextFor(home, FIXTURES.pathname.replace(/\/$/, "")),
    home,
    done: () => tmp[Symbol.asyncDispose](),
  };
}

/** Runs a tool by hand (manual argv, as `assist tools <name> ...`). */
function manual(def: ToolDef, argv: string[], ctx: ToolContext, stdin?: string) {
  const input = parseManualArgs(def, argv);
  return runTool(def, input, {
    ...ctx,
    caller: "manual",
    readStdin: stdin === undefined ? undefined : () => Promise.resolve(stdin),
  });
}

async function golden(name: string, actual: string): Promise<void> {
  const url = new URL(`${name}.txt`, GOLDEN);
  if (update) {
    await Deno.writeTextFile(url, actual);
    return;
  }
  const expected = await Deno.readTextFile(url);
  eq(actual, expected, `golden ${name}.txt differs (UPDATE_GOLDEN=1 to rewrite, then review)`);
}

const GOLDEN_CASES: [string, ToolDef, string[]][] = [
  ["field_adt", hl7FieldTool, [
    "adt_a01.hl7",
    "MSH.10",
    "PID.3.1",
    "PID.5",
    "PID.11.2",
    "PID.13",
    "ZPI.3",
    "--index",
  ]],
  ["field_oru", hl7FieldTool, ["oru_r01.hl7", "OBX.3.1", "OBX.5", "OBX[13].5", "OBX[5].8", "NTE.3"]],
  ["field_batch", hl7FieldTool, ["batch.hl7", "MSH.10", "PID.3.1", "PID.5", "--index"]],
  ["field_odd", hl7FieldTool, ["odd_delims.hl7", "MSH.1", "MSH.2", "PID.3.1", "PID.5", "PID.11"]],
  ["show_adt", hl7ShowTool, ["adt_a01.hl7"]],
  ["show_oru", hl7ShowTool, ["oru_r01.hl7"]],
  ["show_batch", hl7ShowTool, ["batch.hl7"]],
  ["show_odd_all", hl7ShowTool, ["odd_delims.hl7", "--all"]],
  ["diff_adt", hl7DiffTool, ["adt_a01.hl7", "adt_a01_v2.hl7"]],
  ["diff_adt_ignore_none", hl7DiffTool, ["adt_a01.hl7", "adt_a01_v2.hl7", "--ignore", "none"]],
  ["diff_batch_key", hl7DiffTool, ["batch.hl7", "batch_v2.hl7", "--key", "PID.3.1"]],
  ["diff_batch_position", hl7DiffTool, ["batch.hl7", "batch_v2.hl7"]],
  ["diff_odd", hl7DiffTool, ["odd_delims.hl7", "odd_as_standard.hl7"]],
];

Deno.test("hl7 tools: golden output on the fixtures", async (t) => {
  const { ctx, done } = await fixtureContext();
  try {
    for (const [name, def, argv] of GOLDEN_CASES) {
      await t.step(`${name}: ${def.name} ${argv.join(" ")}`, async () => {
        const r = await manual(def, argv, ctx);
        ok(!r.isError, r.text);
        await golden(name, r.text);
      });
    }
  } finally {
    await done();
  }
});

Deno.test("hl7 tools: the model's JSON input gives the same text as the manual form", async () => {
  const { ctx, done } = await fixtureContext();
  try {
    const byHand = await manual(hl7FieldTool, ["oru_r01.hl7", "OBX.3.1", "OBX.5"], ctx);
    const byModel = await call(hl7FieldTool, { file: "oru_r01.hl7", paths: ["OBX.3.1", "OBX.5"] }, ctx);
    eq(byModel, byHand);
    const text = await Deno.readTextFile(fixturePath("adt_a01.hl7"));
    const literal = await call(hl7ShowTool, { text }, ctx);
    eq(literal, await manual(hl7ShowTool, ["adt_a01.hl7"], ctx));
  } finally {
    await done();
  }
});

Deno.test("hl7 tools: literal text, stdin and positional shifting by hand", async (t) => {
  const { ctx, done } = await fixtureContext();
  const adt = await Deno.readTextFile(fixturePath("adt_a01.hl7"));
  const v2 = await Deno.readTextFile(fixturePath("adt_a01_v2.hl7"));
  try {
    await t.step("--text with paths after it", async () => {
      const r = await manual(hl7FieldTool, ["--text", adt, "PID.3.1", "MSH.9.2"], ctx);
      eq(r.text, "PID.3.1\tMSH.9.2\nMRN100001~900001234\tA01\n");
    });
    await t.step("- reads standard input by hand", async () => {
      const r = await manual(hl7FieldTool, ["-", "PID.5.1"], ctx, adt);
      eq(r.text, "PID.5.1\nTESTPATIENT~NICK\n");
    });
    await t.step("- is refused for the model", async () => {
      const e = errorOf(await call(hl7FieldTool, { file: "-", paths: ["PID.5"] }, ctx));
      eq(e.error, "bad_input");
      ok(/standard input/.test(e.message));
    });
    await t.step("diff: left text and a right file, and stdin on one side", async () => {
      const a = await manual(hl7DiffTool, ["--left-text", adt, "adt_a01_v2.hl7"], ctx);
      const b = await manual(hl7DiffTool, ["adt_a01.hl7", "adt_a01_v2.hl7"], ctx);
      eq(a.text, b.text);
      const c = await manual(hl7DiffTool, ["adt_a01.hl7", "-"], ctx, v2);
      eq(c.text, b.text);
      eq(errorOf(await manual(hl7DiffTool, ["-", "-"], ctx, v2)).error, "bad_input");
    });
    await t.step("diff: an explicit ignore list replaces the default", async () => {
      const r = await call(hl7DiffTool, {
        left_text: adt,
        right_text: v2,
        ignore: ["MSH.7", "PID", "PV1", "ZPI"],
      }, ctx);
      ok(r.text.includes("  MSH.10  MSG10001 -> MSG10002\n"));
      ok(!r.text.includes("PID.5"));
      ok(r.text.endsWith("ignored: MSH.7 PID PV1 ZPI"));
      const none = await call(hl7DiffTool, { left_text: adt, right_text: v2, ignore: [] }, ctx);
      ok(none.text.endsWith("ignored: nothing"));
    });
    await t.step("show: one message of several", async () => {
      const r = await manual(hl7ShowTool, ["batch.hl7", "--message", "2"], ctx);
      ok(r.text.startsWith("message 2 of 3: ADT^A08^ADT_A01, control id B0002\nMSH  Message Header\n"));
      ok(!r.text.includes("FHS"));
      ok(!r.text.includes("message 1 of"));
    });
    await t.step("show: a limit leaves a note", async () => {
      const r = await manual(hl7ShowTool, ["batch.hl7", "--limit", "1"], ctx);
      ok(r.text.includes("message 1 of 3"));
      ok(!r.text.includes("message 2 of 3"));
      ok(r.text.includes("\n... 2 more messages not shown (use --message N)"));
    });
  } finally {
    await done();
  }
});

Deno.test("hl7 tools: framed input (MLLP and len10) reads like plain files", async () => {
  const { ctx, done } = await fixtureContext();
  try {
    const adt = await Deno.readTextFile(fixturePath("adt_a01.hl7"));
    const oru = await Deno.readTextFile(fixturePath("oru_r01.hl7"));
    const len = (s: string) => String(new TextEncoder().encode(s).length).padStart(10, "0");
    const expected = "MSH.9\tPID.3.1\nADT^A01^ADT_A01\tMRN100001~900001234\nORU^R01^ORU_R01\tMRN100001\n";
    for (
      const text of [`\x0b${adt}\x1c\r\x0b${oru}\x1c\r`, len(adt) + adt + len(oru) + oru, `${adt}\n${oru}`]
    ) {
      eq((await call(hl7FieldTool, { text, paths: ["MSH.9", "PID.3.1"] }, ctx)).text, expected);
    }
  } finally {
    await done();
  }
});

Deno.test("hl7 tools: protected paths, missing files and bad input are structured errors", async () => {
  const { ctx, home, done } = await fixtureContext();
  try {
    const adt = await Deno.readTextFile(fixturePath("adt_a01.hl7"));
    await Deno.writeTextFile(`${home}/log/auto-phi.log`, adt);
    for (const def of [hl7FieldTool, hl7ShowTool, hl7DiffTool]) {
      const input: Record<string, unknown> = def === hl7DiffTool
        ? { left: `${home}/log/auto-phi.log`, right: "adt_a01.hl7" }
        : { file: `${home}/log/auto-phi.log`, ...(def === hl7FieldTool ? { paths: ["PID.5"] } : {}) };
      const r = await call(def, input, ctx);
      const e = errorOf(r);
      eq(e.error, "protected_path", def.name);
      ok(!r.text.includes("TESTPATIENT"), `${def.name} must not leak the protected file`);
    }
    eq(errorOf(await call(hl7ShowTool, { file: "nope.hl7" }, ctx)).error, "not_found");
    eq(errorOf(await call(hl7ShowTool, {}, ctx)).error, "bad_input");
    eq(errorOf(await call(hl7ShowTool, { file: "adt_a01.hl7", text: adt }, ctx)).error, "bad_input");
    eq(errorOf(await call(hl7FieldTool, { file: "adt_a01.hl7", paths: [] }, ctx)).error, "bad_input");
    const badPath = errorOf(await call(hl7FieldTool, { file: "adt_a01.hl7", paths: ["PID.0"] }, ctx));
    eq(
      badPath,
      {
        error: "bad_path",
        message: 'bad HL7 path "PID.0": field numbers are 1-based, so the first is PID.1',
        path: "PID.0",
      } as never,
    );
    const parse = errorOf(await call(hl7ShowTool, { text: "PID|1\rMSH|^^|X\r" }, ctx));
    eq(parse.error, "hl7_parse_error");
    eq(
      parse.message,
      'text: line 2, column 6: MSH-2 (encoding characters) "^^" uses "^" twice; each delimiter must differ',
    );
    eq(errorOf(await call(hl7ShowTool, { text: "just some words\n" }, ctx)), {
      error: "no_messages",
      message: "no HL7 messages found in text",
    });
    eq(
      errorOf(await call(hl7ShowTool, { file: "batch.hl7", message: 9 }, ctx)).message,
      "no message 9: batch.hl7 holds 3",
    );
    eq(errorOf(await call(hl7DiffTool, { left: "adt_a01.hl7" }, ctx)).error, "bad_input");
    eq(
      errorOf(await call(hl7DiffTool, { left: "adt_a01.hl7", right: "adt_a01.hl7", key: "MSH.x" }, ctx))
        .error,
      "bad_path",
    );
  } finally {
    await done();
  }
});

Deno.test("hl7 tools: registered, and the modules keep the parser behind a dynamic import", async () => {
  const { findTool } = await import("../../../tools/registry.ts");
  eq([findTool("hl7_field"), findTool("hl7_diff"), findTool("hl7_show")], [
    hl7FieldTool,
    hl7DiffTool,
    hl7ShowTool,
  ]);
  for (const name of ["hl7_field", "hl7_diff", "hl7_show"]) {
    const source = await Deno.readTextFile(new URL(`../../../tools/hl7/${name}_tool.ts`, import.meta.url));
    const staticImports = source.split("\n").filter((l) => /^import\s/.test(l));
    ok(
      staticImports.every((l) => /from "(\.\.\/types\.ts|\.\.\/\.\.\/core\/lazy\.ts)"/.test(l)),
      `${name}: ${staticImports.join("; ")}`,
    );
  }
});

Deno.test("hl7_show --all on pathological input stops at its cap and says so (issue #29 item 9)", async () => {
  await using tmp = await tempDir();
  const ctx = contextFor(`${tmp.path}/.assist`, tmp.path);
  const msh = "MSH|^~\\&|A|B|C|D|20240101||ADT^A01|1|P|2.5\r";
  const inputs = {
    // Millions of empty components and subcomponents in one field: a row each.
    "one field of ^&": `${msh}PID|1||${"^&".repeat(1_500_000)}\r`,
    // A segment id that is a whole line of junk: every row's path column as wide as it.
    "a junk segment id": `${msh}${"Z".repeat(400_000)}|${"a^".repeat(100_000)}\rPID|1||${
      "^".repeat(50_000)
    }\r`,
    // Millions of segments with nothing in them: a heading each.
    "empty segments": msh + "ZZZ\r".repeat(1_500_000),
  };
  for (const [what, text] of Object.entries(inputs)) {
    const r = await call(hl7ShowTool, { text, all: true }, ctx);
    ok(!r.isError, `${what}: ${r.text.slice(0, 200)}`);
    ok(r.text.length < 40 * 1024 * 1024, `${what}: ${r.text.length} characters`);
    ok(
      r.text.includes(
        "[hl7_show: stopped at 100,000 lines or 16 MB of text; show one message with --message N, " +
          "leave out --all, or read one field with hl7_field]",
      ),
      `${what}: ${r.text.slice(-300)}`,
    );
  }
  // An ordinary message is not cut.
  const plain = await call(hl7ShowTool, { text: `${msh}PID|1||123^^^H^MR\r`, all: true }, ctx);
  ok(!plain.text.includes("[hl7_show: stopped"), plain.text);
});
