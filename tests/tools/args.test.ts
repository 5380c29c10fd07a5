import { deepStrictEqual as assertEquals, throws } from "node:assert/strict";
import { inputSchema, parseManualArgs, toolHelp, validateInput } from "../../tools/args.ts";
import type { ToolDef } from "../../tools/types.ts";
import { TOOLS } from "../../tools/registry.ts";

const def: ToolDef = {
  name: "demo",
  summary: "demo",
  description: "A demo tool.",
  params: [
    { name: "path", type: "string", description: "p", required: true, positional: true },
    { name: "max_lines", type: "integer", description: "n", default: 500, min: 1, max: 1000 },
    { name: "format", type: "string", description: "f", enum: ["text", "tsv", "json"], default: "text" },
    { name: "all", type: "boolean", description: "a", default: false },
    { name: "ignore", type: "string[]", description: "i" },
  ],
};

Deno.test("parseManualArgs: flags in both spellings, positionals, booleans, lists, defaults", () => {
  assertEquals(parseManualArgs(def, ["f.hl7"]), {
    path: "f.hl7",
    max_lines: 500,
    format: "text",
    all: false,
  });
  assertEquals(
    parseManualArgs(def, [
      "--max-lines",
      "20\r",
      "f",
      "--format=tsv",
      "--all",
      "--ignore",
      "MSH.7",
      "--ignore=MSH.10",
    ]),
    { path: "f", max_lines: 20, format: "tsv", all: true, ignore: ["MSH.7", "MSH.10"] },
  );
  assertEquals(
    parseManualArgs(def, ["--max_lines=3", "--no-all", "--", "--weird-name"]).path,
    "--weird-name",
  );
  assertEquals(parseManualArgs(def, ["--json", '{"path":"x","all":true}']), {
    path: "x",
    all: true,
    max_lines: 500,
    format: "text",
  });
});

Deno.test("parseManualArgs / validateInput: errors name the tool and the problem", () => {
  throws(
    () => parseManualArgs(def, []),
    /^AssistError: demo: missing path \(see `assist tools demo --help`\)$/,
  );
  throws(
    () => parseManualArgs(def, ["x", "--max-lines", "0"]),
    /max_lines must be an integer from 1 to 1000/,
  );
  throws(() => parseManualArgs(def, ["x", "--format", "xml"]), /format must be one of text, tsv, json/);
  throws(() => parseManualArgs(def, ["x", "--max-lines"]), /--max-lines needs a value/);
  throws(() => parseManualArgs(def, ["x", "--path", "y"]), /unexpected argument "x"/);
  throws(() => parseManualArgs(def, ["x", "--json", "{}"]), /--json cannot be combined/);
  throws(() => validateInput(def, { path: "x", extra: 1 }), /unknown argument "extra"/);
  throws(() => validateInput(def, { path: 3 }), /path must be a string/);
  throws(() => validateInput(def, ["x"]), /input must be a JSON object/);
  throws(() => validateInput(def, { path: "x", all: "perhaps" }), /all must be true or false/);
});

Deno.test("validateInput for the model: names what the tool takes and shows a call in JSON, never --help", () => {
  const diff = TOOLS.find((t) => t.name === "nc_diff_interface")!;
  const takes =
    "nc_diff_interface takes site, thread, other, to_site, alias, to_alias, hciroot, to_hciroot, " +
    "netconfig, to_netconfig, cosmetic, format, exit_code";
  const example = 'e.g. {"site":"adt","thread":"adt_in","to_hciroot":"/hci/test/integrator"}';
  throws(() => validateInput(diff, { left: "adt_in" }), {
    message: `unknown argument "left"; ${takes}; ${example}`,
  });
  throws(() => validateInput(diff, { thread: "adt_in", format: "tsv" }), {
    message: `format must be one of text, json; ${example}`,
  });
  const read = TOOLS.find((t) => t.name === "read_file")!;
  throws(() => validateInput(read, {}), {
    message: "missing path; read_file takes path (required), start_line, end_line; " +
      'e.g. {"path":"/hci/prod/siteA/NetConfig","start_line":100,"end_line":160}',
  });
  throws(() => validateInput(def, "x"), {
    message: "input must be a JSON object; demo takes path (required), " +
      "max_lines, format, all, ignore",
  });
  // By hand (and `--json`), the operator's own way out.
  throws(() => validateInput(diff, { left: "x" }, "manual"), {
    message: 'nc_diff_interface: unknown argument "left" (see `assist tools nc_diff_interface --help`)',
  });
  throws(
    () => parseManualArgs(diff, ["--json", '{"left":"x"}']),
    /see `assist tools nc_diff_interface --help`/,
  );
});

Deno.test("every registered tool has an example input that validates", () => {
  for (const t of TOOLS) {
    assertEquals(t.exampleInput !== undefined, true, `${t.name} has no exampleInput`);
    const valid = validateInput(t, t.exampleInput);
    for (const [k, v] of Object.entries(t.exampleInput!)) assertEquals(valid[k], v, `${t.name}.${k}`);
  }
});

Deno.test("inputSchema is JSON schema for the model", () => {
  assertEquals(inputSchema(def), {
    type: "object",
    properties: {
      path: { description: "p", type: "string" },
      max_lines: { description: "n", type: "integer", default: 500, minimum: 1, maximum: 1000 },
      format: { description: "f", type: "string", enum: ["text", "tsv", "json"], default: "text" },
      all: { description: "a", type: "boolean", default: false },
      ignore: { description: "i", type: "array", items: { type: "string" } },
    },
    required: ["path"],
    additionalProperties: false,
  });
});

Deno.test("every registered tool: unique snake_case name, summary, schema, help, defaults that validate", () => {
  const names = new Set<string>();
  for (const t of TOOLS) {
    assertEquals(/^[a-z][a-z0-9_]*$/.test(t.name), true, t.name);
    assertEquals(names.has(t.name), false, `duplicate ${t.name}`);
    names.add(t.name);
    assertEquals(t.summary.length > 0 && !t.summary.includes("\n"), true, t.name);
    assertEquals((inputSchema(t) as { type: string }).type, "object");
    assertEquals(toolHelp(t).startsWith(`usage: assist tools ${t.name}`), true);
    for (const p of t.params) {
      if (p.default !== undefined) validateInput({ ...t, params: [p] }, { [p.name]: p.default });
    }
  }
});
