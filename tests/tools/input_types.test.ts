/**
 * A body's input type comes from its definition's parameters (tools/types.ts `InputOf`): a
 * misspelled or renamed parameter, a wrong type or a word outside an enum is a type error. These
 * checks run in `deno task check` (deno check of tests/) and in `deno test`, which type-checks too;
 * each `@ts-expect-error` fails the check if the line it covers ever compiles.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import type { InputOf, ToolContext, ToolDef } from "../../tools/types.ts";
import type { ToolBodies } from "../../tools/by_name.ts";
import type { readFileTool } from "../../tools/files/read_file_tool.ts";
import type { ncDiffInterfaceTool } from "../../tools/engine/nc_diff_interface_tool.ts";
import type { listSitesTool } from "../../tools/engine/list_sites_tool.ts";
import type { bashExecTool } from "../../tools/bash/bash_exec_tool.ts";
import type { run as readFileRun } from "../../tools/files/run/read_file.ts";

/** true when A and B are the same type (not merely assignable one way). */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false;

/** The names of the bodies whose `run` takes anything but `InputOf<typeof def>`. */
type Misfits = {
  [K in keyof ToolBodies]: Awaited<ReturnType<ToolBodies[K]>> extends {
    def: infer D extends ToolDef;
    run: (input: infer I, ctx: ToolContext) => unknown;
  } ? Equal<I, InputOf<D>> extends true ? never : K
    : K;
}[keyof ToolBodies];

Deno.test("every body's run takes exactly the input its definition declares", () => {
  const misfits: [Misfits] extends [never] ? [] : [Misfits] = [];
  assertEquals(misfits, []);
});

Deno.test("a misspelled or renamed parameter does not build", () => {
  type ReadFile = Parameters<typeof readFileRun>[0];
  const input: ReadFile = { path: "notes.txt", start_line: 10 };
  // @ts-expect-error: read_file has no parameter "paht"
  const _misspelled = input.paht;
  // @ts-expect-error: nor "file" (its parameter is "path")
  const _renamed: ReadFile = { file: "notes.txt" };
  // @ts-expect-error: path is required, so always present
  const _noPath: ReadFile = { start_line: 1 };
  // @ts-expect-error: start_line is an integer
  const _wrongType: ReadFile = { path: "x", start_line: "10" };
  assertEquals(input.path, "notes.txt");
});

Deno.test("required and defaulted parameters are present; enums are their words; shared params count", () => {
  const required: Equal<InputOf<typeof readFileTool>["path"], string> = true;
  const optional: Equal<InputOf<typeof readFileTool>["end_line"], number | undefined> = true;
  // timeout_seconds and max_lines come from tools/exec_params.ts, with defaults.
  const defaulted: Equal<InputOf<typeof bashExecTool>["timeout_seconds"], number> = true;
  const format: Equal<InputOf<typeof ncDiffInterfaceTool>["format"], "text" | "json"> = true;
  // alias, hciroot and format come from tools/engine/common_tool.ts.
  const shared: Equal<keyof InputOf<typeof listSitesTool>, "alias" | "hciroot" | "format"> = true;
  const tableFormat: Equal<InputOf<typeof listSitesTool>["format"], "text" | "tsv" | "json"> = true;
  // @ts-expect-error: "tsv" is not one of nc_diff_interface's formats
  const _tsv: InputOf<typeof ncDiffInterfaceTool>["format"] = "tsv";
  assertEquals([required, optional, defaulted, format, shared, tableFormat], [
    true,
    true,
    true,
    true,
    true,
    true,
  ]);
});
