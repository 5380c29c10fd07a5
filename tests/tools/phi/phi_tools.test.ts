/** phi_scan and phi_sanitize as an operator runs them: `assist tools ...` under the shipped permissions. */
import { deepStrictEqual as assertEquals, match, ok as assert } from "node:assert/strict";
import { runAssist, tempDir } from "../../support/run_assist.ts";
import { hl7Corpus } from "../../support/phi_corpus.ts";
import { LookupTable } from "../../../phi/lookup.ts";
import { phiScanTool } from "../../../tools/phi/phi_scan_tool.ts";
import { testConfig } from "../../phi/_support.ts";
import { runTool } from "../../../tools/by_name.ts";

const env = (home: string) => ({ HOME: home, ASSIST_HOME: `${home}/.assist`, ASSIST_PHI_PORT: "9" });

Deno.test("phi_sanitize: a de-identified copy with tokens from the lookup table, reversible locally", async () => {
  await using tmp = await tempDir();
  const [msg] = hl7Corpus(1, 33);
  await Deno.writeTextFile(`${tmp.path}/adt.hl7`, msg.text);
  const r = await runAssist(["tools", "phi_sanitize", "adt.hl7"], { env: env(tmp.path), cwd: tmp.path });
  assertEquals(r.code, 0, r.stderr);
  for (const p of msg.phi) assert(!r.stdout.includes(p.value), `${p.where} leaked`);
  assert(r.stdout.startsWith("MSH|^~\\&|"));
  const table = await LookupTable.open(`${tmp.path}/.assist/sanitize/lookup.tsv`);
  const { detokenizeText } = await import("../../../phi/detokenize.ts");
  assertEquals(detokenizeText(r.stdout, (t) => table.valueOf(t)).text, msg.text + "\n");
  // Same input again, from standard input: the same tokens.
  const again = await runAssist(["tools", "phi_sanitize", "-"], {
    env: env(tmp.path),
    cwd: tmp.path,
    stdin: msg.text,
  });
  assertEquals(again.stdout, r.stdout);
  // To a file: a one-line summary; the file holds the copy, mode 0600.
  const out = await runAssist(["tools", "phi_sanitize", "adt.hl7", "--output", "adt.deid.hl7"], {
    env: env(tmp.path),
    cwd: tmp.path,
  });
  assertEquals(out.code, 0, out.stderr);
  match(
    out.stdout,
    /^phi_sanitize: wrote adt\.deid\.hl7; \d+ distinct value\(s\) tokenized, \d+ occurrence\(s\); distinct values by category: /,
  );
  // Manual mode ends stdout with a newline; the file holds the copy exactly.
  assertEquals(await Deno.readTextFile(`${tmp.path}/adt.deid.hl7`) + "\n", r.stdout);
  if (Deno.build.os !== "windows") {
    assertEquals((await Deno.stat(`${tmp.path}/adt.deid.hl7`)).mode! & 0o777, 0o600);
  }
});

Deno.test("phi_sanitize and phi_scan refuse protected paths (the lookup table itself)", async () => {
  await using tmp = await tempDir();
  await Deno.mkdir(`${tmp.path}/.assist/sanitize`, { recursive: true });
  await Deno.writeTextFile(`${tmp.path}/.assist/sanitize/lookup.tsv`, "[[MRN_1]]\tMRN\t1\t1\n");
  for (const tool of ["phi_sanitize", "phi_scan"]) {
    const r = await runAssist(["tools", tool, `${tmp.path}/.assist/sanitize/lookup.tsv`], {
      env: env(tmp.path),
    });
    assertEquals(r.code, 1, tool);
    match(r.stderr, /protected/);
  }
  await Deno.writeTextFile(`${tmp.path}/x.txt`, "MRN 1234567");
  const w = await runAssist(["tools", "phi_sanitize", "x.txt", "--output", `${tmp.path}/.assist/log/x`], {
    env: env(tmp.path),
    cwd: tmp.path,
  });
  assertEquals(w.code, 1);
  match(w.stderr, /protected/);
});

Deno.test("phi_scan: tier, category, token or new, masked values; nothing written", async () => {
  await using tmp = await tempDir();
  await Deno.writeTextFile(
    `${tmp.path}/n.txt`,
    "MSH|^~\\&|A|B|C|D|20240101||ADT^A01|1|P|2.5\rPID|1||M7654321||DOE^JANE\r\nnote: MRN 1234567, call 555-123-4567\n",
  );
  const r = await runAssist(["tools", "phi_scan", "n.txt"], { env: env(tmp.path), cwd: tmp.path });
  assertEquals(r.code, 0, r.stderr);
  const lines = r.stdout.trimEnd().split("\n");
  assertEquals(lines.slice(0, -1).map((l) => l.split("\t")), [
    ["2:8", "hl7_pipeline", "MRN", "new", "M…(8)", "PID.3"],
    ["2:18", "hl7_pipeline", "NAME", "new", "D…(8)", "PID.5"],
    ["3:11", "contextual", "MRN", "new", "1…(7)", ""],
    ["3:25", "definite", "PHONE", "new", "5…(12)", ""],
  ]);
  assertEquals(
    lines.at(-1),
    "phi_scan: 4 occurrence(s) of 4 distinct value(s) (phi_sanitize counts distinct values); " +
      "occurrences by category: MRN×2 NAME×1 PHONE×1",
  );
  for (const v of ["7654321", "DOE^JANE", "1234567", "555-123-4567"]) assert(!r.stdout.includes(v), v);
  const shown = await runAssist(["tools", "phi_scan", "n.txt", "--show-values"], {
    env: env(tmp.path),
    cwd: tmp.path,
  });
  assert(shown.stdout.includes('"DOE^JANE"'));
  await Deno.stat(`${tmp.path}/.assist/sanitize/lookup.tsv`).then(
    () => assert(false, "phi_scan wrote the lookup table"),
    () => {},
  );
  // The counts agree with phi_sanitize's: distinct values there, occurrences here (a repeated name).
  await Deno.writeTextFile(
    `${tmp.path}/r.txt`,
    "Spoke with Dana Whitfield. MRN 1234567 again MRN 1234567.\nDana Whitfield called back.\n",
  );
  const scan = await runAssist(["tools", "phi_scan", "r.txt"], { env: env(tmp.path), cwd: tmp.path });
  match(scan.stdout, /phi_scan: 4 occurrence\(s\) of 2 distinct value\(s\)/);
  const san = await runAssist(["tools", "phi_sanitize", "r.txt", "--output", "r.deid.txt"], {
    env: env(tmp.path),
    cwd: tmp.path,
  });
  match(san.stdout, /2 distinct value\(s\) tokenized, 4 occurrence\(s\)/);
  // Names not covered (sidecar down, built-in recognizer off): both tools say so, also without --output.
  const offEnv = { ...env(tmp.path), ASSIST_PHI_NAMES: "off" };
  const s2 = await runAssist(["tools", "phi_scan", "r.txt"], { env: offEnv, cwd: tmp.path });
  match(s2.stdout, /names in free text are NOT covered/);
  const s3 = await runAssist(["tools", "phi_sanitize", "r.txt"], { env: offEnv, cwd: tmp.path });
  match(s3.stderr, /names in free text are NOT covered/);
  assert(!s3.stdout.includes("NOT covered"), "the copy on stdout stays clean");
  // For the model, unmasked values are refused.
  await using home = await tempDir();
  const res = await runTool(phiScanTool, { path: "-", show_values: true, as_prompt: false }, {
    config: { ...testConfig(home.path), autoPhi: "on" } as never,
    cwd: home.path,
    caller: "model",
  });
  assertEquals(res.isError, true);
});
