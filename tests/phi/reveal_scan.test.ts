/**
 * `assist phi-reveal` (cli/commands/_reveal.ts): values back from the lookup table, refused under
 * the model's tools and for outputs inside $ASSIST_HOME; phi_scan's piecewise pass and line:column
 * walk agree with the one-pass result.
 */
import { deepStrictEqual as assertEquals, ok as assert, rejects } from "node:assert/strict";
import { testEngine } from "./_support.ts";
import { insideHome, parseRevealArgs, reveal } from "../../cli/commands/_reveal.ts";
import { lineCols, pieceEnds } from "../../tools/phi/run/phi_scan.ts";
import { loadConfig } from "../../core/config.ts";
import type { CommandContext } from "../../cli/commands/types.ts";
import { COMMANDS } from "../../cli/commands/table.ts";
import { TOOLS } from "../../tools/registry.ts";

Deno.test("phi-reveal: restores tokens into a file outside $ASSIST_HOME; refuses inside it and under the model", async () => {
  await using h = await testEngine("on");
  const token = await h.engine.tokenizeValue("Dana Whitfield", "NAME");
  const outside = await Deno.makeTempDir();
  const input = `${outside}/reply.txt`;
  await Deno.writeTextFile(input, `Vendor: we looked at ${token} and [[NAME_999]].\n`);
  const shown: string[] = [];
  const ctx: CommandContext = {
    config: { ...loadConfig(), home: h.home },
    io: {
      front: "cli",
      out: (t) => shown.push(t),
      warn: (t) => shown.push(t),
      readSecret: () => Promise.reject(),
    },
  };
  const line = await reveal([input, "--output", `${outside}/reply.clear.txt`], ctx);
  assertEquals(
    await Deno.readTextFile(`${outside}/reply.clear.txt`),
    "Vendor: we looked at Dana Whitfield and [[NAME_999]].\n",
  );
  assert(line.includes("1 token(s) restored") && line.includes("1 token(s) not in the lookup table"), line);
  if (Deno.build.os !== "windows") {
    assertEquals((await Deno.stat(`${outside}/reply.clear.txt`)).mode! & 0o777, 0o600);
  }
  await rejects(reveal([input, "--output", `${h.home}/clear.txt`], ctx), /inside \$ASSIST_HOME/);
  assert(insideHome(`${h.home}/sub/x`, h.home, "/"));
  assert(!insideHome(`${outside}/x`, h.home, "/"));
  Deno.env.set("ASSISTED_BY_MODEL", "1");
  try {
    await rejects(reveal([input, "--output", `${outside}/again.txt`], ctx), /operator only/);
  } finally {
    Deno.env.delete("ASSISTED_BY_MODEL");
  }
  assertEquals(parseRevealArgs(["-", "--output=x"]), { file: "-", output: "x" });
  // A command of the table, never a tool the model is offered.
  assert(COMMANDS.some((c) => c.name === "phi-reveal" && c.cli?.[0] === "phi-reveal"));
  assert(!TOOLS.some((t) => t.name.includes("reveal") || t.name.includes("detok")));
  await Deno.remove(outside, { recursive: true });
});

Deno.test("phi_scan: pieces cut at line ends before MSH, and line:column in one walk", () => {
  const msg = (i: number) => `MSH|^~\\&|A|B|C|D|2024||ADT^A01|${i}|P|2.5\rPID|1||${1000 + i}\r`;
  const text = Array.from({ length: 400 }, (_, i) => msg(i)).join("\n");
  const ends = pieceEnds(text, 4096);
  assert(ends.length > 3);
  assertEquals(ends.at(-1), text.length);
  for (const e of ends.slice(0, -1)) assert(text.startsWith("MSH|", e), `cut at ${e}`);
  assertEquals(lineCols("ab\r\ncd\ref\ngh", [0, 4, 7, 11, 5]), ["1:1", "2:1", "3:1", "4:2", "2:2"]);
});

Deno.test("phi-reveal: a command the model runs through bash_exec is refused", async () => {
  const { run } = await import("../../tools/bash/run/bash_exec.ts");
  const home = await Deno.makeTempDir();
  const config = { ...loadConfig(), home };
  const r = await run(
    {
      command: Deno.build.os === "windows" ? "echo %ASSISTED_BY_MODEL%" : 'echo "[$ASSISTED_BY_MODEL]"',
      timeout_seconds: 20,
      max_lines: 50,
    },
    { config, cwd: home, caller: "model" },
  );
  assert(r.text.includes(Deno.build.os === "windows" ? "1" : "[1]"), r.text);
  const byHand = await run(
    {
      command: Deno.build.os === "windows" ? "echo none" : 'echo "[$ASSISTED_BY_MODEL]"',
      timeout_seconds: 20,
      max_lines: 50,
    },
    { config, cwd: home, caller: "manual" },
  );
  assert(!byHand.text.includes("[1]"), byHand.text);
  await Deno.remove(home, { recursive: true });
});

Deno.test("phi_scan: a large input shows progress and finds what one whole pass finds", async () => {
  const { def, run } = await import("../../tools/phi/run/phi_scan.ts");
  const { validateInput } = await import("../../tools/args.ts");
  const { hl7RealisticCorpus, notesCorpus } = await import("../support/phi_corpus.ts");
  const { createPhiEngine } = await import("../../phi/mod.ts");
  const home = await Deno.makeTempDir();
  let text = "";
  for (let seed = 1; text.length < 2_500_000; seed++) {
    text += [...hl7RealisticCorpus(20, seed).map((m) => m.text), ...notesCorpus(40, seed).map((m) => m.text)]
      .join("\n") + "\n";
  }
  await Deno.writeTextFile(`${home}/big.txt`, text);
  const config = { ...loadConfig(), home, phiPort: 1 };
  const progress: string[] = [];
  const r = await run(validateInput(def, { path: `${home}/big.txt` }), {
    config,
    cwd: home,
    caller: "manual",
    progress: (l) => progress.push(l),
  });
  assert(progress.length >= 3, progress.join("|"));
  assert(progress[0].startsWith("phi_scan: 1.0 of 2.5 MB"), progress[0]);
  assertEquals(progress.at(-1), "");
  const whole = await (await createPhiEngine({ config, sidecar: false })).scan(text);
  const m = r.text.match(/phi_scan: (\d+) occurrence\(s\) of (\d+) distinct/);
  assert(m, r.text.slice(-300));
  assertEquals(Number(m![1]), whole.length);
  assertEquals(Number(m![2]), new Set(whole.map((f) => f.canonical)).size);
  await Deno.remove(home, { recursive: true });
});
