/**
 * Every help text the program prints, scanned as an operator reads it: no trailing spaces, no tabs,
 * no words glued together by a string split across source lines, every line within reach of a
 * terminal. The texts are generated from the definitions, so a new tool or command is covered
 * without touching this test.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { TOOLS } from "../../tools/registry.ts";
import { toolHelp } from "../../tools/args.ts";
import { headlessHelpText, helpText } from "../../cli/help.ts";
import { toolsListText } from "../../cli/manual.ts";
import {
  CLI_GROUPS,
  cliGroupUsage,
  COMMANDS,
  helpText as slashHelp,
  usageLine,
} from "../../cli/commands/table.ts";
import { REPO_ROOT } from "../support/run_assist.ts";

async function allHelpTexts(): Promise<Array<[string, string]>> {
  const out: Array<[string, string]> = [
    ["assist --help", helpText()],
    ["assist -p --help", headlessHelpText()],
    ["assist tools list", await toolsListText()],
    ["/help", slashHelp()],
  ];
  for (const t of TOOLS) out.push([`assist tools ${t.name} --help`, toolHelp(t)]);
  for (const g of CLI_GROUPS) out.push([`assist ${g} --help`, cliGroupUsage(g)]);
  for (const c of COMMANDS) {
    out.push([`/${c.name} --help`, `${usageLine(c, "repl")}\n  ${c.summary}`]);
    if (c.cli) out.push([`assist ${c.cli.join(" ")} --help`, `${usageLine(c, "cli")}\n  ${c.summary}`]);
  }
  return out;
}

/** What is wrong with one help text, line by line. */
function problemsIn(where: string, text: string): string[] {
  const problems: string[] = [];
  for (const line of text.split("\n")) {
    if (/\s$/.test(line)) problems.push(`${where}: trailing space in ${JSON.stringify(line)}`);
    if (line.includes("\t")) problems.push(`${where}: tab in ${JSON.stringify(line)}`);
    // English words here are short; a run of 25 letters is two words that lost their space.
    for (const w of line.match(/[A-Za-z]{25,}/g) ?? []) problems.push(`${where}: glued word "${w}"`);
    // A sentence that ends and the next that starts without a space: "files.Read", "path;the".
    for (const m of line.matchAll(/[a-z]{3}[.;,:][A-Z][a-z]{2}|[a-z]{3}[;,][a-z]{3}/g)) {
      problems.push(`${where}: missing space in "${m[0]}"`);
    }
    // An option's placeholder run into its description: "--json OBJECTthe whole input", "<alias>the".
    const glued = /^\s*-{1,2}[a-z][\w-]* (?:[A-Z][A-Z0-9_]*[a-z]|\S*>[a-z])/.exec(line);
    if (glued) problems.push(`${where}: placeholder glued to its description in "${glued[0]}"`);
  }
  return problems;
}

Deno.test("help texts: no trailing spaces, no tabs, no glued words", async () => {
  const texts = await allHelpTexts();
  assertEquals(texts.flatMap(([where, text]) => problemsIn(where, text)), []);
  assert(texts.length > TOOLS.length + COMMANDS.length, "every tool and command was scanned");
});

Deno.test("help sources: no string split across lines without the space between its words", async () => {
  // `"...the saved" +\n "NetConfigs"` prints "savedNetConfigs": the cause of glued words, found at the source.
  const problems: string[] = [];
  for (const dir of ["tools", "cli", "core"]) {
    for await (const file of walk(`${REPO_ROOT}${dir}`)) {
      const text = await Deno.readTextFile(file);
      for (const m of text.matchAll(/([A-Za-z0-9,.;:)])["`]\s*\+\s*\n\s*["`]([A-Za-z0-9(])/g)) {
        const line = text.slice(0, m.index).split("\n").length;
        problems.push(`${file.slice(REPO_ROOT.length)}:${line}: ${JSON.stringify(m[0])}`);
      }
    }
  }
  assertEquals(problems, []);
});

Deno.test("the scan catches a glued word, a missing space and a trailing space", () => {
  const found = problemsIn(
    "x",
    "usage: x \nthe saved revisionsfoldersofthesiteandmore\nfolders.Read them;then go",
  );
  assertEquals(found.length, 4, found.join("\n"));
  // A placeholder run into its description; a row that keeps its column passes.
  const rows = problemsIn(
    "y",
    "  --json OBJECTthe whole input\n  --alias <alias>the host\n  --limit N      at most N\n  --utc          UTC times",
  );
  assertEquals(rows, [
    'y: placeholder glued to its description in "  --json OBJECTt"',
    'y: placeholder glued to its description in "  --alias <alias>t"',
  ]);
});

async function* walk(dir: string): AsyncGenerator<string> {
  for await (const e of Deno.readDir(dir)) {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory) yield* walk(path);
    else if (e.name.endsWith(".ts")) yield path;
  }
}
