import { deepStrictEqual as eq, ok, throws } from "node:assert/strict";
import {
  formatPath,
  getAll,
  getValue,
  Hl7PathError,
  parseMessage,
  parsePath,
  pathCovers,
  serializeMessage,
  setValue,
} from "../../hl7/mod.ts";
import { fixture } from "./_util.ts";

Deno.test("parsePath: the forms of the path language", () => {
  eq(parsePath("PID"), { segment: "PID" });
  eq(parsePath("PID.5"), { segment: "PID", field: 5 });
  eq(parsePath("PID.5.1"), { segment: "PID", field: 5, component: 1 });
  eq(parsePath("PID.5.1.2"), { segment: "PID", field: 5, component: 1, subcomponent: 2 });
  eq(parsePath("PID.3[2].1"), { segment: "PID", field: 3, repetition: 2, component: 1 });
  eq(parsePath("OBX[3].5"), { segment: "OBX", segmentIndex: 3, field: 5 });
  eq(parsePath("MSH.9.2"), { segment: "MSH", field: 9, component: 2 });
  eq(parsePath("pid-5-1"), { segment: "PID", field: 5, component: 1 }, "HL7-standard dashes, any case");
  eq(parsePath(" ZPI.2 "), { segment: "ZPI", field: 2 });
  eq(parsePath("IN1.4"), { segment: "IN1", field: 4 });
});

Deno.test("parsePath: clear errors for bad paths", () => {
  const cases: [string, RegExp][] = [
    ["", /^empty HL7 path; expected e\.g\. PID\.5/],
    ["PI", /segment id of three capitals or digits/],
    ["1ID.3", /segment id of three capitals or digits/],
    ["PID.0", /field numbers are 1-based, so the first is PID\.1$/],
    ["PID.5.0", /component numbers are 1-based, so the first is PID\.5\.1$/],
    ["PID.3[0]", /repetition indexes are 1-based, so the first is PID\.3\[1\]$/],
    ["OBX[0].5", /segment indexes are 1-based, so the first is OBX\[1\]$/],
    ["PID.x", /expected a field number after "\."/],
    ["PID.", /expected a field number after "\."/],
    ["PID.3[a]", /repetition index must be a number in brackets, e\.g\. PID\.3\[2\]/],
    ["PID.3[2", /repetition index must be a number in brackets/],
    ["PID.5.1[2]", /only a segment or a field takes an index in brackets/],
    ["PID.5.1.2.3", /goes at most to segment\.field\.component\.subcomponent/],
    ["PID 5", /unexpected " 5"/],
    ["PID.99999", /field number 99999 is too large/],
  ];
  for (const [text, re] of cases) {
    throws(() => parsePath(text), (e: unknown) => {
      ok(e instanceof Hl7PathError, text);
      ok(re.test(e.message), `${JSON.stringify(text)}: ${e.message}`);
      eq(e.path, text);
      return true;
    });
  }
});

Deno.test("formatPath and pathCovers", () => {
  for (const p of ["PID", "OBX[3]", "PID.5", "PID.3[2]", "PID.3[2].1", "PID.5.1.2", "OBX[2].5[1].3.1"]) {
    eq(formatPath(parsePath(p)), p);
  }
  eq(formatPath(parsePath("pid-3-1")), "PID.3.1");
  ok(pathCovers(parsePath("PID.5"), parsePath("PID.5.1")));
  ok(pathCovers(parsePath("PID.5"), parsePath("PID[2].5[3].1")));
  ok(pathCovers(parsePath("OBX[2]"), parsePath("OBX[2].5")));
  ok(!pathCovers(parsePath("OBX[2]"), parsePath("OBX.5")));
  ok(!pathCovers(parsePath("PID.5.1"), parsePath("PID.5")));
  ok(!pathCovers(parsePath("PID.5"), parsePath("PV1.5")));
});

const ADT = fixture("adt_a01.hl7");

Deno.test("getAll: every occurrence and repetition unless indexed", () => {
  const m = parseMessage(ADT);
  const raw = (p: string) => getAll(m, p).map((v) => v.raw);
  eq(raw("PID.3"), ["MRN100001^^^SYNTH^MR", "900001234^^^SSA^SS"]);
  eq(raw("PID.3.1"), ["MRN100001", "900001234"]);
  eq(raw("PID.3[2].1"), ["900001234"]);
  eq(raw("PID.3[2].5"), ["SS"]);
  eq(raw("PID.3[3]"), [""], "a missing repetition is one empty value");
  eq(getAll(m, "PID.3[3]")[0].present, false);
  eq(raw("PV1.3.4.2"), ["1.2.840.99999.1"], "subcomponent");
  eq(raw("PV1.3.4"), ["SYNTH&1.2.840.99999.1&ISO"]);
  eq(raw("PID.11.2"), ["APT 4\\S\\B"], "raw keeps escapes");
  eq(raw("NTE.3"), [], "a segment that does not occur gives nothing");
  eq(raw("PID.99"), [""], "a field past the end is one empty value");
  eq(raw("PID"), [m.segments[2].raw], "segment-only path");
  const oru = parseMessage(fixture("oru_r01.hl7"));
  eq(getAll(oru, "OBX.5").length, 14, "13 OBX, the 12th has two repetitions");
  eq(getAll(oru, "OBX[12].5.2").map((v) => v.raw), ["Yellow", "Clear"]);
  eq(getAll(oru, "OBX[3].5").map((v) => [v.occurrence, v.raw]), [[3, "22"]]);
  eq(getAll(oru, "OBX.3.1").map((v) => v.occurrence), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
});

Deno.test("getAll: MSH.1 and MSH.2 are the delimiters and never split", () => {
  const m = parseMessage(ADT);
  eq(getAll(m, "MSH.1").map((v) => v.raw), ["|"]);
  eq(getAll(m, "MSH.2").map((v) => v.raw), ["^~\\&"], "not split on ~ or ^");
  eq(getAll(m, "MSH.2.1").map((v) => v.raw), ["^~\\&"]);
  eq(getAll(m, "MSH.2.2").map((v) => v.present), [false]);
  eq(getAll(m, "MSH.3").map((v) => v.raw), ["SYNTHADT"]);
  eq(getAll(m, "MSH.9.2").map((v) => v.raw), ["A01"]);
});

Deno.test("getValue: the first value, unescaped when it is a single value", () => {
  const m = parseMessage(ADT);
  eq(getValue(m, "MSH.10"), "MSG10001");
  eq(getValue(m, "MSH.2"), "^~\\&");
  eq(getValue(m, "PID.11.2"), "APT 4^B");
  eq(getValue(m, "PID.5"), "TESTPATIENT^ALPHA^Q^JR^^^L", "a composite stays raw");
  eq(getValue(m, "ZPI.4"), "custom\\value");
  eq(getValue(m, "ZPI.5"), "C:\\temp\\in", "a lone escape character is kept");
  eq(getValue(m, "ZPI.3"), '""', "null is not empty");
  eq(getValue(m, "ZPI.9"), "", "absent field in a present segment");
  eq(getValue(m, "NTE.3"), undefined, "absent segment");
  eq(getValue(m, "PID[2].3"), undefined);
});

Deno.test("setValue: writes one value, escaped, keeping the rest byte for byte", () => {
  const m = parseMessage(ADT);
  setValue(m, "PID.5.1", "O^BRIEN");
  eq(getValue(m, "PID.5.1"), "O^BRIEN");
  ok(m.segments[2].raw.includes("|O\\S\\BRIEN^ALPHA^Q^JR^^^L~NICK"));
  setValue(m, "PID.5.1", "TESTPATIENT");
  eq(serializeMessage(m), ADT, "setting the old value back restores the exact bytes");
  setValue(m, "PID.3[2].4.2", "2.16.840.1");
  eq(getValue(m, "PID.3[2].4"), "SSA&2.16.840.1");
  setValue(m, "NK1.40", "X");
  eq(m.segments[3].fieldCount, 40);
  setValue(m, "PID.13[3]", "^PRN^CP", { raw: true });
  eq(getAll(m, "PID.13.2").map((v) => v.raw), ["PRN", "NET", "PRN"]);
  throws(() => setValue(m, "MSH.2", "x"), Hl7PathError);
  throws(() => setValue(m, "NTE.1", "x"), /no such segment/);
  throws(() => setValue(m, "PID", "x"), /names no field/);
});
