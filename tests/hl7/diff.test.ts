import { deepStrictEqual as eq } from "node:assert/strict";
import {
  DEFAULT_IGNORE,
  diffMessageLists,
  diffMessages,
  formatDiff,
  parseMessage,
  parseMessages,
} from "../../hl7/mod.ts";
import { fixture } from "./_util.ts";

const m = (text: string) => parseMessage(text.replaceAll("\n", "\r"));
const HDR = "MSH|^~\\&|A|B|C|D|20240101||ADT^A01|ID1|P|2.5.1";

Deno.test("diff: values at the level where both sides are single values", () => {
  const a = m(`${HDR}\nPID|1||111^^^MR~222^^^SS||SMITH^JO||19800101|F`);
  const b = m(`${HDR}\nPID|1||111^^^MR~223^^^SS||SMYTH^JO||19800101|M`);
  eq(diffMessages(a, b), [
    { kind: "field", path: "PID.3[2].1", left: "222", right: "223" },
    { kind: "field", path: "PID.5.1", left: "SMITH", right: "SMYTH" },
    { kind: "field", path: "PID.8", left: "F", right: "M" },
  ]);
});

Deno.test("diff: components and subcomponents appearing on one side", () => {
  const a = m(`${HDR}\nPV1|1|I|4N`);
  const b = m(`${HDR}\nPV1|1|I|4N^401^A^SYN&1.2&ISO`);
  eq(diffMessages(a, b), [
    { kind: "field", path: "PV1.3.2", left: "", right: "401" },
    { kind: "field", path: "PV1.3.3", left: "", right: "A" },
    { kind: "field", path: "PV1.3.4.1", left: "", right: "SYN" },
    { kind: "field", path: "PV1.3.4.2", left: "", right: "1.2" },
    { kind: "field", path: "PV1.3.4.3", left: "", right: "ISO" },
  ]);
});

Deno.test("diff: segments pair by id and occurrence; added and removed segments", () => {
  const a = m(`${HDR}\nPID|1\nOBX|1||GLU||98\nOBX|2||NA||139\nNTE|1||x`);
  const b = m(`${HDR}\nPID|1\nNTE|1||x\nOBX|1||GLU||99\nOBX|2||NA||139\nOBX|3||K||4.1`);
  eq(diffMessages(a, b), [
    { kind: "field", path: "OBX[1].5", left: "98", right: "99" },
    { kind: "segment", path: "OBX[3]", side: "right", raw: "OBX|3||K||4.1" },
  ]);
  eq(diffMessages(b, a).at(-1), { kind: "segment", path: "OBX[3]", side: "left", raw: "OBX|3||K||4.1" });
});

Deno.test("diff: the ignore list (default MSH.7 and MSH.10; covering paths; nothing)", () => {
  const a = m(`${HDR}\nPID|1||1||A^B\nZPI|1|x`);
  const b = m(`${HDR.replace("20240101", "20240202").replace("ID1", "ID2")}\nPID|1||1||C^D`);
  eq(DEFAULT_IGNORE, ["MSH.7", "MSH.10"]);
  eq(diffMessages(a, b).map((c) => c.path), ["PID.5.1", "PID.5.2", "ZPI"]);
  eq(diffMessages(a, b, { ignore: [] }).map((c) => c.path), ["MSH.7", "MSH.10", "PID.5.1", "PID.5.2", "ZPI"]);
  eq(diffMessages(a, b, { ignore: ["MSH.7", "MSH.10", "PID.5", "ZPI"] }), []);
  eq(diffMessages(a, b, { ignore: ["MSH", "PID.5.2", "ZPI"] }).map((c) => c.path), ["PID.5.1"]);
  eq(diffMessages(a, b, { ignore: ["MSH.7.1", "MSH.10[1]", "ZPI"] }).map((c) => c.path), [
    "PID.5.1",
    "PID.5.2",
  ]);
});

Deno.test('diff: values compare unescaped; null "" differs from empty', () => {
  const a = m(`${HDR}\nPID|1||A\\X42\\C||""`);
  const b = m(`${HDR}\nPID|1||ABC||`);
  eq(diffMessages(a, b), [{ kind: "field", path: "PID.5", left: '""', right: "" }]);
  const odd = parseMessages(fixture("odd_delims.hl7")).messages[0];
  const std = parseMessage(fixture("odd_as_standard.hl7"));
  eq(diffMessages(odd, std).map((c) => c.path), ["MSH.1", "MSH.2"], "same content, other delimiters");
});

Deno.test("diff: lists by position and by key", () => {
  const left = parseMessages(fixture("batch.hl7")).messages;
  const right = parseMessages(fixture("batch_v2.hl7")).messages;
  const byKey = diffMessageLists(left, right, { key: "PID.3.1" });
  eq(byKey.pairs.map((p) => [p.left, p.right, p.key]), [[1, 2, "MRN200001"], [3, 1, "MRN200003"]]);
  eq(byKey.onlyLeft, [{ index: 2, key: "MRN200002" }]);
  eq(byKey.onlyRight, [{ index: 3, key: "MRN200004" }]);
  eq(byKey.key, "PID.3.1");
  const byPos = diffMessageLists(left, right.slice(0, 2));
  eq(byPos.pairs.length, 2);
  eq(byPos.onlyLeft, [{ index: 3 }]);
  eq(byPos.key, undefined);
});

Deno.test("formatDiff: exact text", () => {
  const a = m(`${HDR}\nPID|1||1||SMITH^JO\nNTE|1||gone`);
  const b = m(`${HDR}\nPID|1||1||SMYTH^JO\nAL1|1|DA|PCN`);
  eq(
    formatDiff(diffMessageLists([a, a], [b, a, b])),
    [
      "message 1 vs message 1",
      "  PID.5.1  SMITH -> SMYTH",
      "  - NTE  NTE|1||gone",
      "  + AL1  AL1|1|DA|PCN",
      "only in right: message 3",
      "summary: 2 pairs compared (paired by position), 1 with differences; 1 field changed, 1 segment added, " +
      "1 segment removed; 0 messages only in left, 1 only in right; ignored: MSH.7 MSH.10",
    ].join("\n"),
  );
  eq(
    formatDiff(diffMessageLists([a], [a], { ignore: [] })),
    "no differences\nsummary: 1 pair compared (paired by position), 0 with differences; 0 fields changed, " +
      "0 segments added, 0 segments removed; 0 messages only in left, 0 only in right; ignored: nothing",
  );
});
