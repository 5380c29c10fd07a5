import { deepStrictEqual as eq, ok } from "node:assert/strict";
import {
  BUILTIN_SEGMENTS,
  completeHl7,
  componentsOf,
  describePath,
  fieldDef,
  formatFieldHelp,
  formatSegmentHelp,
  isSiteSpecific,
  parsePath,
  segmentDef,
} from "../../hl7/mod.ts";

Deno.test("schema: the 18 segments with full v2.5.1 field lists", () => {
  const counts: Record<string, number> = {
    MSH: 21,
    PID: 39,
    PV1: 52,
    PV2: 49,
    EVN: 7,
    MSA: 6,
    ERR: 12,
    NK1: 39,
    GT1: 57, // deno-fmt-ignore-line
    IN1: 53,
    IN2: 72,
    OBR: 50,
    OBX: 25,
    ORC: 31,
    AL1: 6,
    DG1: 21,
    PR1: 20,
    ROL: 12,
  };
  eq([...BUILTIN_SEGMENTS].sort(), Object.keys(counts).sort());
  for (const [id, n] of Object.entries(counts)) {
    const def = segmentDef(id)!;
    eq(def.fields.length, n, id);
    def.fields.forEach((f, i) => {
      eq(f.number, i + 1);
      ok(
        f.name.length > 0 && /^[A-Za-z0-9]+$|^varies$/.test(f.type),
        `${id}.${f.number} ${f.name} ${f.type}`,
      );
    });
  }
  eq(segmentDef("pid")?.name, "Patient Identification");
  eq(segmentDef("NTE"), undefined);
  eq(segmentDef("ZPI"), undefined);
});

Deno.test("schema: names and types of well-known fields", () => {
  const expect: [string, number, string, string][] = [
    ["MSH", 1, "Field Separator", "ST"],
    ["MSH", 2, "Encoding Characters", "ST"],
    ["MSH", 3, "Sending Application", "HD"],
    ["MSH", 9, "Message Type", "MSG"],
    ["MSH", 10, "Message Control ID", "ST"],
    ["PID", 3, "Patient Identifier List", "CX"],
    ["PID", 5, "Patient Name", "XPN"],
    ["PID", 7, "Date/Time of Birth", "TS"],
    ["PID", 11, "Patient Address", "XAD"],
    ["PID", 18, "Patient Account Number", "CX"],
    ["PV1", 3, "Assigned Patient Location", "PL"],
    ["PV1", 19, "Visit Number", "CX"],
    ["NK1", 4, "Address", "XAD"],
    ["OBX", 3, "Observation Identifier", "CE"],
    ["OBX", 5, "Observation Value", "varies"],
    ["IN1", 4, "Insurance Company Name", "XON"],
    ["GT1", 3, "Guarantor Name", "XPN"],
    ["IN2", 72, "CMS Patient's Relationship to Insured", "CE"],
    ["ROL", 4, "Role Person", "XCN"],
  ];
  for (const [seg, n, name, type] of expect) eq(fieldDef(seg, n), { number: n, name, type }, `${seg}.${n}`);
  eq(fieldDef("PID", 40), undefined);
});

Deno.test("schema: components of the fields the spec names", () => {
  const names = (seg: string, n: number) => componentsOf(fieldDef(seg, n)!.type)!.map((c) => c.name);
  eq(names("MSH", 9), ["Message Code", "Trigger Event", "Message Structure"]);
  eq(names("PID", 3).slice(0, 6), [
    "ID Number",
    "Check Digit",
    "Check Digit Scheme",
    "Assigning Authority",
    "Identifier Type Code", // deno-fmt-ignore-line
    "Assigning Facility",
  ]);
  eq(names("PID", 5).slice(0, 3), [
    "Family Name",
    "Given Name",
    "Second and Further Given Names or Initials Thereof",
  ]);
  eq(names("PID", 11).slice(0, 5), [
    "Street Address",
    "Other Designation",
    "City",
    "State or Province",
    "Zip or Postal Code",
  ]);
  eq(names("PV1", 3).slice(0, 4), ["Point of Care", "Room", "Bed", "Facility"]);
  eq(names("NK1", 4)[2], "City");
  eq(names("OBX", 3), [
    "Identifier",
    "Text",
    "Name of Coding System",
    "Alternate Identifier",
    "Alternate Text",
    "Name of Alternate Coding System",
  ]);
  eq(names("IN1", 4)[0], "Organization Name");
  eq(componentsOf("ST"), undefined);
  eq(describePath(parsePath("PID.3.4.1"))?.subcomponent?.name, "Namespace ID");
  eq(describePath(parsePath("PID.5.1.1"))?.subcomponent?.name, "Surname");
  eq(describePath(parsePath("ZPI.1")), undefined);
  ok(isSiteSpecific("ZPI") && isSiteSpecific("z01") && !isSiteSpecific("PID") && !isSiteSpecific("ZZZZ"));
});

const values = (input: string) => completeHl7(input).map((c) => c.value);

Deno.test("complete: segments, fields, components; exact match wins", async (t) => {
  await t.step("segment prefixes", () => {
    eq(values("").length, 18);
    eq(values("P"), ["PID", "PR1", "PV1", "PV2"]);
    eq(values("OB"), ["OBR", "OBX"]);
    eq(values("ms"), ["MSA", "MSH"]);
    eq(completeHl7("PV"), [
      { value: "PV1", description: "Patient Visit" },
      { value: "PV2", description: "Patient Visit - Additional Information" },
    ]);
  });
  await t.step("an exact segment wins", () => eq(values("MSH"), ["MSH"]));
  await t.step("fields", () => {
    eq(values("PID.").length, 39);
    eq(values("PID.1"), ["PID.1"], "exact PID.1 wins over PID.10 to PID.19");
    eq(values("PV1.4"), ["PV1.4"]);
    eq(values("PV1.5").length, 1);
    eq(completeHl7("PID.5"), [{ value: "PID.5", description: "Patient Name (XPN)" }]);
    eq(values("GT1.5"), ["GT1.5"]);
    eq(values("IN2.7"), ["IN2.7"]);
    eq(values("IN2.6"), ["IN2.6"]);
    eq(values("pid-1"), ["PID.1"]);
  });
  await t.step("a typed number always names its field exactly (a prefix of a valid number is valid)", () => {
    // So the siblings PID.10..PID.19 are listed from "PID." and never from "PID.1".
    for (const seg of ["PID", "PV1", "OBX", "IN2"]) {
      for (let n = 1; n <= segmentDef(seg)!.fields.length; n++) eq(values(`${seg}.${n}`), [`${seg}.${n}`]);
    }
    eq(values("PV1.0"), []);
  });
  await t.step("components and subcomponents", () => {
    eq(values("MSH.9."), ["MSH.9.1", "MSH.9.2", "MSH.9.3"]);
    eq(completeHl7("MSH.9.2"), [{ value: "MSH.9.2", description: "Trigger Event (ID)" }]);
    eq(values("PID.5.1"), ["PID.5.1"], "exact PID.5.1 wins over PID.5.10 to PID.5.14");
    eq(values("PID.5.").length, 14);
    eq(values("PID.3.4."), ["PID.3.4.1", "PID.3.4.2", "PID.3.4.3"]);
    eq(values("PID.8."), [], "a primitive field has no components");
    eq(values("OBX.5."), [], "OBX-5 varies");
  });
  await t.step("indexes are kept", () => {
    eq(values("PID.3[2]."), values("PID.3.").map((v) => v.replace("PID.3", "PID.3[2]")));
    eq(values("OBX[2].3.1"), ["OBX[2].3.1"]);
    eq(values("PID.3[2]"), ["PID.3[2]"]);
  });
  await t.step("Z-segments get the site-specific hint", () => {
    const hint = completeHl7("ZPI.");
    eq(hint.length, 1);
    eq(hint[0].value, "ZPI.");
    ok(/site-specific/.test(hint[0].description));
    ok(/site-specific/.test(completeHl7("z")[0].description));
  });
  await t.step("nothing for what the schema does not have", () => {
    eq(values("XYZ"), []);
    eq(values("NTE."), []);
    eq(values("PID.40"), []);
    eq(values("PID.5.15"), []);
    eq(values("PID..1"), []);
    eq(values("PID.5.1.1."), []);
    eq(values("P I"), []);
  });
});

Deno.test("format: /hl7 <SEG>", () => {
  eq(
    formatSegmentHelp("evn"),
    [
      "EVN  Event Type (HL7 v2.5.1, 7 fields)",
      "  EVN.1  Event Type Code          ID",
      "  EVN.2  Recorded Date/Time       TS   2 components",
      "  EVN.3  Date/Time Planned Event  TS   2 components",
      "  EVN.4  Event Reason Code        IS",
      "  EVN.5  Operator ID              XCN  23 components",
      "  EVN.6  Event Occurred           TS   2 components",
      "  EVN.7  Event Facility           HD   3 components",
      "",
      "/hl7-fields EVN.N lists the components of field N.",
    ].join("\n"),
  );
  const msh = formatSegmentHelp("MSH");
  ok(
    msh.includes(
      "MSH.1 is the field separator itself and MSH.2 the encoding characters, so MSH.3 is the first",
    ),
  );
  ok(msh.includes("\n  MSH.9   Message Type                             MSG  3 components\n"));
  eq(formatSegmentHelp("PID").split("\n").length, 1 + 39 + 2);
  ok(/^ZPI: site-specific segment \(Z-segment\)/.test(formatSegmentHelp("ZPI")));
  ok(
    /^NTE is not in the built-in schema \(HL7 v2\.5\.1\), which has: AL1 DG1 ERR/.test(
      formatSegmentHelp("NTE"),
    ),
  );
  eq(formatSegmentHelp("pid.5"), "usage: /hl7 <SEG>, e.g. /hl7 PID");
});

Deno.test("format: /hl7-fields <SEG.N>", () => {
  eq(
    formatFieldHelp("MSH.9"),
    [
      "MSH.9  Message Type (MSG: Message Type, 3 components)",
      "  MSH.9.1  Message Code       ID",
      "  MSH.9.2  Trigger Event      ID",
      "  MSH.9.3  Message Structure  ID",
    ].join("\n"),
  );
  const pid5 = formatFieldHelp("PID.5").split("\n");
  eq(pid5[0], "PID.5  Patient Name (XPN: Extended Person Name, 14 components)");
  eq(pid5[1], "  PID.5.1   Family Name                                         FN  5 subcomponents");
  eq(pid5.length, 15);
  eq(formatFieldHelp("PID.5.1").split("\n")[0], "PID.5.1  Family Name (FN: Family Name, 5 subcomponents)");
  eq(
    formatFieldHelp("PID.8"),
    "PID.8  Administrative Sex (IS: Coded Value for User-Defined Tables): a single value with no components",
  );
  eq(
    formatFieldHelp("OBX.5"),
    "OBX.5  Observation Value (varies): its data type is given by OBX-2 (value type) in each OBX",
  );
  eq(
    formatFieldHelp("IN2.28"),
    "IN2.28  Room Coverage Type/Amount (RMC): its components are not in the built-in schema",
  );
  eq(formatFieldHelp("PID.40"), "PID has 39 fields in HL7 v2.5.1; there is no PID.40");
  eq(formatFieldHelp("PID.5.15"), "PID.5 (XPN) has 14 components; there is no PID.5.15");
  eq(formatFieldHelp("PID"), "usage: /hl7-fields <SEG.N>, e.g. /hl7-fields PID.5");
  eq(formatFieldHelp(""), "usage: /hl7-fields <SEG.N>, e.g. /hl7-fields PID.5");
  eq(formatFieldHelp("PID.0"), 'bad HL7 path "PID.0": field numbers are 1-based, so the first is PID.1');
  ok(/^ZPI: site-specific/.test(formatFieldHelp("ZPI.2")));
  ok(/^NTE is not in the built-in schema/.test(formatFieldHelp("NTE.3")));
});
