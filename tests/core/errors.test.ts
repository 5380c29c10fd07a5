/**
 * One error family (issue #27 item 5): every error the program defines extends AssistError with its
 * level, and one mapper gives the exit code every front uses.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { AssistError, EXIT, exitCodeOf } from "../../core/errors.ts";
import { ModelError } from "../../cli/model/errors.ts";
import { Hl7ParseError } from "../../hl7/errors.ts";
import { EngineInputError } from "../../tools/engine/errors.ts";
import { REPO_ROOT } from "../support/run_assist.ts";

Deno.test("exitCodeOf: usage and config 2, other levels and foreign errors 1, Ctrl-C 130", () => {
  assertEquals(exitCodeOf(new AssistError("x", { level: "usage" })), EXIT.usage);
  assertEquals(exitCodeOf(new AssistError("x", { level: "config" })), EXIT.usage);
  assertEquals(exitCodeOf(new AssistError("x", { level: "io" })), EXIT.failure);
  assertEquals(exitCodeOf(new AssistError("x", { exitCode: EXIT.interrupted })), EXIT.interrupted);
  assertEquals(exitCodeOf(new ModelError("authentication", "bad key")), EXIT.failure);
  assertEquals(exitCodeOf(new Hl7ParseError("no MSH", 0, 1, 1)), EXIT.failure);
  assertEquals(exitCodeOf(new EngineInputError("bad_time", "--since x")), EXIT.failure);
  assertEquals(exitCodeOf(new TypeError("boom")), EXIT.failure);
  assertEquals(exitCodeOf("a string"), EXIT.failure);
});

Deno.test("the model API's and the libraries' errors are AssistErrors, matched by class, not by name", () => {
  const model = new ModelError("rate_limit", "slow down", { retryAfter: 2 });
  assertEquals([model instanceof AssistError, model.level, model.name, model.kind], [
    true,
    "network",
    "ModelError",
    "rate_limit",
  ]);
  assertEquals(new Hl7ParseError("no MSH", 0, 1, 1) instanceof AssistError, true);
});

Deno.test("no source module defines an error outside the family or matches one by its name string", async () => {
  const bad: string[] = [];
  const ours = new Set<string>();
  const named: [string, string][] = [];
  const walk = async (dir: string) => {
    for await (const e of Deno.readDir(`${REPO_ROOT}/${dir}`)) {
      const rel = `${dir}/${e.name}`;
      if (e.isDirectory) await walk(rel);
      else if (rel.endsWith(".ts")) {
        const text = await Deno.readTextFile(`${REPO_ROOT}/${rel}`);
        for (const m of text.matchAll(/class (\w+Error) extends \w+/g)) ours.add(m[1]);
        for (const m of text.matchAll(/class (\w+) extends Error\b/g)) {
          // AssistError itself; a private signal inside one module (never thrown out of it).
          const allowed = (rel === "core/errors.ts" && m[1] === "AssistError") ||
            (rel === "cli/model/client.ts" && m[1] === "StreamParseError");
          if (!allowed) bad.push(`${rel}: ${m[1]}`);
        }
        for (const m of text.matchAll(/\.name === "(\w*Error)"/g)) named.push([rel, m[1]]);
      }
    }
  };
  for (const dir of ["cli", "core", "tools", "phi", "ssh", "update", "hl7"]) await walk(dir);
  // The platform's own (a DOMException's TimeoutError) are matched by name; ours by class.
  for (const [rel, name] of named) if (ours.has(name)) bad.push(`${rel}: matches ${name} by name`);
  assertEquals(bad, []);
});
