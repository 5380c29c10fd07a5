import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { MarkdownStyler } from "../../../cli/repl/markdown.ts";
import { TurnOutput } from "../../../cli/repl/turn_output.ts";
import { mulberry32 } from "../../support/prng.ts";

const B = "\x1b[1m", B0 = "\x1b[22m", D = "\x1b[2m", C = "\x1b[36m", C0 = "\x1b[39m";

function style(text: string): string {
  const m = new MarkdownStyler();
  return m.push(text) + m.end();
}

const SAMPLE = [
  "## Next steps",
  "Restart **ADT_IN** with `hcicmd -p adt_in -c 'pstart'` first.",
  "",
  "```tcl",
  "set x `y`",
  "",
  "```",
  "> the engine log says so",
  "#include stays, 2 ** 3 stays, a * b stays",
  "| thread | `state` |",
  "unclosed `code and **bold",
  "after",
].join("\n");

Deno.test("markdown: headings, bold, code spans, fences and quotes are styled; the rest is as it came", () => {
  assertEquals(
    style(SAMPLE),
    [
      `${B}Next steps${B0}`,
      `Restart ${B}ADT_IN${B0} with ${C}hcicmd -p adt_in -c 'pstart'${C0} first.`,
      "",
      `${D}\`\`\`tcl${B0}`,
      `${C}set x \`y\`${C0}`,
      "",
      `${D}\`\`\`${B0}`,
      `${D}> the engine log says so${B0}`,
      "#include stays, 2 ** 3 stays, a * b stays",
      `| thread | ${C}state${C0} |`,
      // An unmatched marker styles up to the end of its line only.
      `unclosed ${C}code and **bold${C0}`,
      "after",
    ].join("\n"),
  );
});

Deno.test("markdown: the output does not depend on how the stream was cut", () => {
  const whole = style(SAMPLE);
  const rand = mulberry32(7);
  for (let run = 0; run < 200; run++) {
    const m = new MarkdownStyler();
    let out = "";
    for (let i = 0; i < SAMPLE.length;) {
      const n = 1 + Math.floor(rand() * 6);
      out += m.push(SAMPLE.slice(i, i + n));
      i += n;
    }
    assertEquals(out + m.end(), whole);
  }
});

Deno.test("markdown: a tool line between two parts closes styles and the next part starts a line", () => {
  let out = "";
  const view = new TurnOutput({ write: (s) => out += s, live: false, color: true, markdown: true });
  view.text("Checking **the");
  view.line("tool> list_dir path=.");
  view.text("# Result\nall `up`");
  view.finish();
  assertEquals(
    out,
    `Checking ${B}the${B0}\ntool> list_dir path=.\n${B}Result${B0}\nall ${C}up${C0}\n`,
  );
  // Without markdown (NO_COLOR, scripted use) the text is exactly as the model wrote it.
  let plain = "";
  const p = new TurnOutput({ write: (s) => plain += s, live: false, color: false });
  p.text("# Result\nall `up` **now**");
  p.finish();
  assertEquals(plain, "# Result\nall `up` **now**\n");
});
