import { deepStrictEqual as assertEquals, match, ok as assert, rejects } from "node:assert/strict";
import type { ConfirmRequest, PhiPrompter, ReviewRequest } from "../../phi/mod.ts";
import { PhiRefusedError } from "../../phi/mod.ts";
import type { SidecarDetector, SidecarEntity } from "../../phi/sidecar/client.ts";
import { hl7Corpus } from "../support/phi_corpus.ts";
import { testEngine } from "./_support.ts";
import { AuditLines, type AuditRecord } from "../../phi/audit.ts";
import { mulberry32, randomText } from "../support/prng.ts";

const posix = Deno.build.os !== "windows";

class FakePrompter implements PhiPrompter {
  confirms: ConfirmRequest[] = [];
  reviews: ReviewRequest[] = [];
  shown: string[] = [];
  constructor(
    public confirmAnswer: (r: ConfirmRequest) => boolean = () => true,
    public reviewAnswers: Array<"y" | "n" | "i"> = [],
  ) {}
  confirmValue(r: ConfirmRequest) {
    this.confirms.push(r);
    return Promise.resolve(this.confirmAnswer(r));
  }
  reviewToolResult(r: ReviewRequest) {
    this.reviews.push(r);
    return Promise.resolve(this.reviewAnswers.shift() ?? "y");
  }
  showToolResult(text: string) {
    this.shown.push(text);
  }
}

const HL7 = "MSH|^~\\&|A|B|C|D|20240115||ADT^A01|1|P|2.5.1\rPID|1||M7654321^^^H^MR||DOE^JANE||19800315\r";

Deno.test("mode on: all tiers tokenize without asking", async () => {
  const p = new FakePrompter();
  await using h = await testEngine("on", { prompter: p });
  await h.engine.tokenizeValue("DOE^JANE");
  const r = await h.engine.tokenizeUserInput("PID.3: 7654321 for Jane Doe, MRN 1234567, ssn 123-45-6789");
  assertEquals(r.text, "PID.3: [[MRN_1]] for [[NAME_1]], MRN [[MRN_2]], ssn [[SSN_1]]");
  assertEquals(r.tokenized.map((t) => t.tier), ["hl7", "known", "contextual", "definite"]);
  assertEquals(p.confirms.length, 0);
});

Deno.test("mode confirm: tiers 1-2 always; tiers 3-4 ask once per canonical value; no means raw", async () => {
  const p = new FakePrompter((r) => r.value !== "7654321");
  await using h = await testEngine("confirm", { prompter: p });
  await h.engine.tokenizeValue("DOE^JANE");
  const r = await h.engine.tokenizeUserInput("PID.3: 7654321 for Jane Doe, MRN 1234567, ssn 123-45-6789");
  assertEquals(r.text, "PID.3: 7654321 for [[NAME_1]], MRN [[MRN_1]], ssn [[SSN_1]]");
  assertEquals(p.confirms.map((c) => [c.tier, c.category, c.value, c.surface]), [
    ["hl7", "MRN", "7654321", "user_input"],
    ["known", "NAME", "Jane Doe", "user_input"],
  ]);
  // Decisions are cached by canonical value: "Doe, Jane" and the declined number are not asked again.
  const again = await h.engine.tokenizeUserInput("PID.3 = 7654321; Doe, Jane");
  assertEquals(again.text, "PID.3 = 7654321; [[NAME_1]]");
  assertEquals(p.confirms.length, 2);
});

Deno.test("mode confirm without a terminal: the default answer (tokenize) is taken", async () => {
  await using h = await testEngine("confirm");
  await h.engine.tokenizeValue("DOE^JANE");
  const r = await h.engine.tokenizeUserInput("seen Jane Doe");
  assertEquals(r.text, "seen [[NAME_1]]");
});

Deno.test("mode off: no automatic tiers; markers and the HL7 field policy still apply; no review", async () => {
  const p = new FakePrompter(() => true, ["n"]);
  await using h = await testEngine("off", { prompter: p });
  const r = await h.engine.tokenizeUserInput("MRN 1234567 ssn 123-45-6789 @@Jane Doe@@");
  assertEquals(r.text, "MRN 1234567 ssn 123-45-6789 [[NAME_1]]");
  assertEquals(r.notice, undefined);
  const t = await h.engine.sanitizeToolResult(HL7 + "note: call 555-123-4567\n", "bash_exec");
  assertEquals(
    t.text,
    HL7.replace("M7654321", "[[MRN_1]]").replace("DOE^JANE", "[[NAME_1]]").replace("19800315", "[[DOB_1]]") +
      "note: call 555-123-4567\n",
  );
  assertEquals([t.reviewed, p.reviews.length], [false, 0]);
});

Deno.test("mode strict: a failing or empty HL7 sanitizer gives the refusal sentinel or aborts the turn", async () => {
  for (
    const [what, scanner] of [
      ["throws", () => {
        throw new Error("boom");
      }],
      ["finds nothing", () => ({ structured: [], free: [], segments: [] })],
    ] as const
  ) {
    await using h = await testEngine("strict", { hl7Scanner: scanner });
    const t = await h.engine.sanitizeToolResult(HL7, "bash_exec");
    assertEquals(t.refused, "strict", what);
    assertEquals(JSON.parse(t.text).error, "phi_strict_refusal");
    assert(!t.text.includes("DOE^JANE") && !t.text.includes("MSH|"), "raw HL7 never reaches the model");
    await rejects(() => h.engine.tokenizeUserInput(HL7), PhiRefusedError);
    const plain = await h.engine.sanitizeToolResult("no HL7 here, MRN 1234567", "bash_exec");
    assertEquals([plain.refused, plain.text], [undefined, "no HL7 here, MRN [[MRN_1]]"]);
    h.engine.mode = "on";
    const lenient = await h.engine.sanitizeToolResult(HL7, "bash_exec");
    assertEquals(lenient.refused, undefined, "other modes go on with the tiers");
  }
  // The real sanitizer in strict mode.
  await using s = await testEngine("strict");
  const ok = await s.engine.sanitizeToolResult(HL7, "bash_exec");
  assertEquals(ok.refused, undefined);
  assert(ok.text.includes("[[NAME_1]]"));
});

Deno.test("mode strict: a lookup table that cannot be written refuses; other modes keep tokens in memory", async () => {
  await using h = await testEngine("strict");
  await Deno.mkdir(`${h.home}/sanitize/lookup.tsv`, { recursive: true }); // a folder where the file should be
  const t = await h.engine.sanitizeToolResult("Patient MRN 1234567", "bash_exec");
  assertEquals(t.refused, "strict");
  await rejects(() => h.engine.tokenizeUserInput("MRN 1234567"), PhiRefusedError);
  h.engine.mode = "on";
  const r = await h.engine.tokenizeUserInput("MRN 1234567");
  // A token that could not be stored is this process's own: no other process can mint it.
  match(r.text, /^MRN \[\[MRN_m[a-z2-7]{6}_1\]\]$/);
  assertEquals(r.warnings.length, 1);
  match(r.warnings[0], /the lookup table .* could not be (read|written)/);
  assert(!r.warnings[0].includes("1234567"));
  assertEquals(h.engine.detokenize(r.text).text, "MRN 1234567");
});

Deno.test("review gate: size and HL7 rules for tools that ask for it, always, y/n/i answers", async () => {
  const p = new FakePrompter(() => true, ["i", "n", "y"]);
  await using h = await testEngine("on", { prompter: p, config: { toolResultReviewThreshold: 100 } });
  const review = { review: true };
  const small = await h.engine.sanitizeToolResult("ok", "bash_exec", review);
  assertEquals(small.reviewed, false);
  const other = await h.engine.sanitizeToolResult("x".repeat(500), "read_file");
  assertEquals(other.reviewed, false, "read_file is not under the size rule");
  const big = await h.engine.sanitizeToolResult("Patient MRN 1234567 " + "x".repeat(200), "ssh_exec", review);
  assertEquals([big.reviewed, big.refused], [true, "review"]);
  assertEquals(JSON.parse(big.text).error, "withheld_by_operator");
  assertEquals(p.shown.length, 1, "i showed the result, then asked again");
  assert(p.shown[0].startsWith("Patient MRN [[MRN_1]]"), "the operator reviews the sanitized text");
  assertEquals(p.reviews[0].text, p.shown[0]);
  const hl7 = await h.engine.sanitizeToolResult(HL7, "ssh_pull", review);
  assertEquals([hl7.reviewed, hl7.refused, hl7.hl7Shaped], [true, undefined, true], "HL7-shaped: reviewed");
  await using a = await testEngine("on", {
    prompter: new FakePrompter(),
    config: { toolResultReview: "always" },
  });
  assertEquals((await a.engine.sanitizeToolResult("ok", "read_file")).reviewed, true);
  await using none = await testEngine("on", { config: { toolResultReview: "always" } });
  assertEquals(
    (await none.engine.sanitizeToolResult("ok", "read_file")).reviewed,
    false,
    "no terminal: skipped",
  );
});

Deno.test("base64 pass: HL7 inside base64 is sanitized and re-encoded, other runs untouched", async () => {
  await using h = await testEngine("on");
  const msg = hl7Corpus(2, 9).map((m) => m.text).join("\n");
  const b64 = new TextEncoder().encode(msg).toBase64();
  const plain = new TextEncoder().encode("just some text ".repeat(20)).toBase64();
  const text = `id\tmessage\n1\t${b64}\n2\t${plain}\n`;
  const r = await h.engine.sanitizeToolResult(text, "ssh_pull_smat");
  assert(!r.text.includes(b64));
  assert(r.text.includes(plain), "non-HL7 base64 is untouched");
  const inner = new TextDecoder().decode(Uint8Array.fromBase64(r.text.split("\n")[1].split("\t")[1]));
  assert(inner.includes("[[NAME_"), "tokens inside the re-encoded message");
  for (const m of hl7Corpus(2, 9)) for (const p of m.phi) assert(!inner.includes(p.value), p.where);
  assert(r.tokenized.some((t) => t.context?.startsWith("base64 PID.5")));
  assertEquals(h.engine.detokenize(r.text).text, text, "detokenize restores inside base64 too");
});

Deno.test("audit log: JSONL with the spec's fields, 0600 in a 0700 folder; notice has no values or secrets", async () => {
  await using h = await testEngine("on", { now: () => new Date("2024-05-01T12:00:00Z") });
  const secret = "sk-ant-api03-SECRETSECRETSECRET";
  const r = await h.engine.tokenizeUserInput(
    `key ${secret}; MRN 1234567; mail jane.doe@example.org; MRN 1234567 again`,
  );
  assertEquals(r.notice, "phi> auto-tokenized 2 value(s) [user_input]: EMAIL×1 MRN×1");
  for (const leak of ["1234567", "jane.doe", "example.org", secret, "SECRET"]) {
    assert(!r.notice!.includes(leak), leak);
    for (const w of r.warnings) assert(!w.includes(leak), leak);
  }
  const t = await h.engine.sanitizeToolResult(HL7, "read_file");
  assert(t.notice && !["M7654321", "DOE", "JANE", "19800315"].some((v) => t.notice!.includes(v)));
  const path = `${h.home}/log/auto-phi.log`;
  const lines = (await Deno.readTextFile(path)).trim().split("\n").map((l) => JSON.parse(l));
  assertEquals(lines[0], {
    ts: "2024-05-01T12:00:00.000Z",
    value: "1234567",
    category: "MRN",
    token: "[[MRN_1]]",
    tier: "contextual",
    surface: "user_input",
    context: "prompt",
  });
  assertEquals(lines.length, 5);
  assertEquals(lines[2].tier, "hl7_pipeline");
  assertEquals(lines[2].context, "read_file PID.3");
  assertEquals(
    lines.map((l) => Object.keys(l).join()),
    lines.map(() => "ts,value,category,token,tier,surface,context"),
  );
  assert(!(await Deno.readTextFile(path)).includes(secret));
  if (posix) {
    assertEquals((await Deno.stat(path)).mode! & 0o777, 0o600);
    assertEquals((await Deno.stat(`${h.home}/log`)).mode! & 0o777, 0o700);
  }
});

Deno.test("audit log: a value is recorded once per session, surface and source, however often it is seen", async () => {
  await using h = await testEngine("on");
  const path = `${h.home}/log/auto-phi.log`;
  const count = async () => (await Deno.readTextFile(path)).trim().split("\n").length;
  const first = await h.engine.sanitizeToolResult(HL7, "read_file");
  const n = await count();
  assertEquals(n, first.tokenized.length);
  const again = await h.engine.sanitizeToolResult(HL7, "read_file");
  assertEquals(again.notice, first.notice, "the notice still counts what this pass tokenized");
  assertEquals(await count(), n, "same place: nothing new");
  await h.engine.sanitizeToolResult(HL7, "bash_exec");
  assertEquals(await count(), 2 * n, "another tool: recorded again");
  await h.engine.tokenizeUserInput(`look at ${HL7}`);
  assertEquals(await count(), 3 * n, "the prompt: recorded again");
  await h.engine.sanitizeToolResult(HL7, "read_file");
  await h.engine.sanitizeToolResult(HL7, "bash_exec");
  await h.engine.tokenizeUserInput(`look at ${HL7}`);
  assertEquals(await count(), 3 * n, "every place seen before: nothing new");
});

Deno.test("audit lines: each is JSON.stringify of the record in the spec's key order, whatever the value (fuzz)", () => {
  const rand = mulberry32(77);
  const alphabet = [
    '"',
    "\\",
    "\n",
    "\t",
    "\u0000",
    "\u001f",
    "\u007f",
    "é",
    "名",
    "\ud83d",
    "\ude00",
    "😀",
    "a",
    "Z",
    "9",
    " ",
  ];
  const str = () => randomText(rand, alphabet, 12);
  const tiers = ["definite", "contextual", "hl7", "known", "hl7_pipeline", "sidecar", "names"] as const;
  for (const surface of ["tool_result", "user_input"] as const) {
    const source = str();
    const lines = new AuditLines("2024-05-01T12:00:00.000Z", surface, source);
    const want: string[] = [];
    for (let i = 0; i < 1500; i++) {
      const value = str(), token = `[[${str()}_${i}]]`, tier = tiers[i % tiers.length];
      const category = rand() < 0.5 ? "NAME" : str();
      const place = rand() < 0.2 ? undefined : rand() < 0.5 ? "PID.5" : str();
      lines.add(value, category, token, tier, place);
      // Tier 5 is written as `contextual`, the spec's five values only; its own name leads the context.
      const five = tier === "sidecar" || tier === "names";
      const lead = five && !place?.startsWith(`${tier}:`) ? tier : undefined;
      const where = [lead, place].filter((w) => w).join(" ");
      const r: AuditRecord = {
        ts: "2024-05-01T12:00:00.000Z",
        value,
        category,
        token,
        tier: five ? "contextual" : tier,
        surface,
        context: where ? `${source} ${where}` : source,
      };
      want.push(JSON.stringify(r) + "\n");
    }
    assertEquals(lines.text, want.join(""));
    assertEquals(lines.count, 1500);
  }
});

class FakeSidecar implements SidecarDetector {
  address = "127.0.0.1:0";
  lastError?: string;
  seen: string[] = [];
  constructor(public find: (text: string) => SidecarEntity[] | undefined) {}
  detect(text: string) {
    this.seen.push(text);
    const r = this.find(text);
    if (r === undefined) this.lastError = "connection refused";
    return Promise.resolve(r);
  }
}

function entity(text: string, value: string, type: string): SidecarEntity {
  const start = text.indexOf(value);
  return { type, start, end: start + value.length, score: 0.9 };
}

Deno.test("tier 5: sidecar entities become presidio_<TYPE> tokens; never-tokenize list and confirm apply", async () => {
  const sidecar = new FakeSidecar((t) =>
    [
      entity(t, "Ann Lee", "PERSON"),
      entity(t, "/var/data/x", "LOCATION"),
      entity(t, "Boston", "LOCATION"),
    ].filter((e) => e.start >= 0)
  );
  const p = new FakePrompter((r) => r.value !== "Boston");
  await using h = await testEngine("confirm", { prompter: p, sidecar });
  const r = await h.engine.tokenizeUserInput("Ann Lee moved to Boston, file /var/data/x, MRN 1234567");
  assertEquals(r.text, "[[presidio_PERSON_1]] moved to Boston, file /var/data/x, MRN [[MRN_1]]");
  assertEquals(p.confirms.map((c) => [c.tier, c.category]), [["sidecar", "presidio_PERSON"], [
    "sidecar",
    "presidio_LOCATION",
  ]]);
  assertEquals(r.tokenized.find((t) => t.tier === "sidecar")?.category, "presidio_PERSON");
  // The audit log carries only the spec's five tier values: tier 5 is `contextual`, named in context.
  const logged = (await Deno.readTextFile(`${h.home}/log/auto-phi.log`)).trim().split("\n").map((l) =>
    JSON.parse(l)
  );
  const person = logged.find((l) => l.category === "presidio_PERSON");
  assertEquals([person?.tier, person?.context], ["contextual", "prompt sidecar"]);
  for (const l of logged) {
    assert(["definite", "contextual", "hl7", "known", "hl7_pipeline"].includes(l.tier), l.tier);
  }
  // HL7 text: the sidecar sees free text only (outside segments and free-text fields).
  sidecar.seen.length = 0;
  await h.engine.sanitizeToolResult(HL7 + "OBX|1|TX|N||Ann Lee called|\r", "bash_exec");
  assertEquals(sidecar.seen, ["Ann Lee called"]);
});

Deno.test("tier 5: an unreachable sidecar is a no-op with one warning per session", async () => {
  const sidecar = new FakeSidecar(() => undefined);
  await using h = await testEngine("on", { sidecar });
  const a = await h.engine.tokenizeUserInput("hello there");
  assertEquals(a.warnings.length, 1);
  match(a.warnings[0], /not reachable on 127\.0\.0\.1:0 \(connection refused\); its tier 5 is off/);
  match(a.warnings[0], /the built-in name recognizer covers names in free text/);
  const b = await h.engine.tokenizeUserInput("hello again");
  assertEquals(b.warnings, []);
  // With the built-in recognizer off, the warning says names are not covered.
  await using off = await testEngine("on", { sidecar, config: { phiNames: "off" } });
  match((await off.engine.tokenizeUserInput("hello")).warnings[0], /names in free text are NOT covered/);
});

Deno.test("tier-5 notice: silent by default; with ASSIST_PHI_NOTICE once per session id", async () => {
  const sidecar = new FakeSidecar((t) => [entity(t, "Ann Lee", "PERSON")].filter((e) => e.start >= 0));
  await using quiet = await testEngine("on", { sidecar });
  assertEquals((await quiet.engine.tokenizeUserInput("Ann Lee")).warnings, []);
  await using h = await testEngine("on", { sidecar, sessionId: "s-1", config: { phiNotice: true } });
  assertEquals((await h.engine.tokenizeUserInput("Ann Lee")).warnings.length, 1);
  assertEquals((await h.engine.tokenizeUserInput("Ann Lee")).warnings, []);
  assertEquals((await Deno.readTextFile(`${h.home}/.phi-notice-shown`)).trim(), "s-1");
  const { createPhiEngine } = await import("../../phi/mod.ts");
  const same = await createPhiEngine({
    sidecar,
    sessionId: "s-1",
    config: { ...(await import("./_support.ts")).testConfig(h.home), phiNotice: true },
  });
  assertEquals((await same.tokenizeUserInput("Ann Lee")).warnings, [], "same session id: already shown");
});

Deno.test("scan: a dry run reports tiers and existing tokens and writes nothing", async () => {
  await using h = await testEngine("on");
  await h.engine.tokenizeValue("1234567");
  const found = await h.engine.scan(HL7 + "MRN 1234567, ssn 123-45-6789\n");
  assertEquals(found.map((f) => [f.tier, f.category, f.token ?? "new"]), [
    ["hl7_pipeline", "MRN", "new"],
    ["hl7_pipeline", "NAME", "new"],
    ["hl7_pipeline", "DOB", "new"],
    ["contextual", "MRN", "[[MRN_1]]"],
    ["definite", "SSN", "new"],
  ]);
  assertEquals(h.engine.table.size, 1);
  await rejects(() => Deno.stat(`${h.home}/log/auto-phi.log`), Deno.errors.NotFound);
});

Deno.test("@file-style fenced HL7 in a prompt: the field policy still applies inside the fence", async () => {
  await using h = await testEngine("on");
  const text = "why does this fail?\n```hl7\n" + HL7.replace(/\r$/, "") +
    "\rNTE|1||call 555-123-4567\n```\nthanks";
  const r = await h.engine.tokenizeUserInput(text);
  for (const v of ["M7654321", "DOE^JANE", "19800315", "555-123-4567"]) assert(!r.text.includes(v), v);
  assert(r.text.includes("```hl7\nMSH|^~\\&|"));
  assertEquals(h.engine.detokenize(r.text).text, text);
  // Plain text in a fence stays untouched (the never-tokenize list).
  const plain = await h.engine.tokenizeUserInput("```\nMRN 1234567 call 555-123-4567\n```");
  assertEquals(plain.tokenized, []);
});
