/**
 * FHIR R4 JSON read by structure (phi/fhir.ts): the hand-written corpus follows the FHIR R4
 * specification's example resources (patient-example, bundle-transaction, encounter-example,
 * coverage-example, device-example, practitioner-example) with synthetic persons of our own; the
 * generated one comes from tests/phi/_fhir_cda_gen.ts. Each checks values that must be tokenized
 * and engine facts that must stay, through the real engine, with a byte-exact round trip.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { assertSpansExact, leaks, testEngine } from "./_support.ts";
import { fhir, scanFhir } from "../../phi/fhir.ts";
import { parseJsonAt } from "../../phi/_json_pos.ts";
import { scanRecords } from "../../phi/records.ts";
import { mulberry32, randomText } from "../support/prng.ts";
import { fhirBundle } from "./_fhir_cda_gen.ts";

/** After the FHIR R4 patient-example: narrative, MRN, names, telecom, address, contact. */
const PATIENT = `{
  "resourceType": "Patient",
  "id": "pat-20931",
  "meta": { "versionId": "3", "lastUpdated": "2026-11-01T07:12:44.120Z" },
  "text": {
    "status": "generated",
    "div": "<div xmlns=\\"http://www.w3.org/1999/xhtml\\"><table><tbody><tr><td>Name</td><td>Anselm Tobiah <b>Quarrington</b> (\\"Tobi\\")</td></tr><tr><td>Address</td><td>77 Kestrel Rise, Wodonga</td></tr><tr><td>Id</td><td>MRN: 7730418 (Murray Valley Health)</td></tr></tbody></table></div>"
  },
  "identifier": [
    {
      "use": "usual",
      "type": { "coding": [{ "system": "http://terminology.hl7.org/CodeSystem/v2-0203", "code": "MR" }] },
      "system": "urn:oid:1.2.36.146.595.217.0.1",
      "value": "7730418",
      "period": { "start": "2001-05-06" },
      "assigner": { "display": "Murray Valley Health" }
    },
    { "system": "http://hl7.org/fhir/sid/us-ssn", "value": "512-73-0094" },
    {
      "type": { "coding": [{ "system": "http://terminology.hl7.org/CodeSystem/v2-0203", "code": "DL" }] },
      "system": "urn:oid:2.16.840.1.113883.4.3.25",
      "value": "S99-3391-0472"
    }
  ],
  "active": true,
  "name": [
    { "use": "official", "family": "Quarrington", "given": ["Anselm", "Tobiah"], "prefix": ["Mr"] },
    { "use": "usual", "given": ["Tobi"] },
    { "use": "maiden", "text": "Anselm Brookfield" }
  ],
  "telecom": [
    { "use": "home" },
    { "system": "phone", "value": "(03) 5555 8817", "use": "work", "rank": 1 },
    { "system": "email", "value": "a.quarrington@example.com.au" },
    { "system": "url", "value": "https://portal.example.org/p?mrn=7730418" }
  ],
  "gender": "male",
  "birthDate": "1974-12-25",
  "_birthDate": { "extension": [{ "url": "http://hl7.org/fhir/StructureDefinition/patient-birthTime", "valueDateTime": "1974-12-25T14:35:45-05:00" }] },
  "deceasedBoolean": false,
  "extension": [
    { "url": "http://hl7.org/fhir/StructureDefinition/patient-mothersMaidenName", "valueString": "Pettigrew" },
    { "url": "http://hl7.org/fhir/us/core/StructureDefinition/us-core-birthsex", "valueCode": "M" }
  ],
  "address": [
    {
      "use": "home",
      "type": "both",
      "text": "77 Kestrel Rise, Wodonga, VIC 3690",
      "line": ["77 Kestrel Rise"],
      "city": "Wodonga",
      "district": "Rainbow",
      "state": "VIC",
      "postalCode": "3690",
      "period": { "start": "1974-12-25" }
    }
  ],
  "contact": [
    {
      "relationship": [{ "coding": [{ "system": "http://terminology.hl7.org/CodeSystem/v2-0131", "code": "N" }] }],
      "name": { "family": "Marchetti", "_family": { "extension": [{ "url": "http://hl7.org/fhir/StructureDefinition/humanname-own-prefix", "valueString": "di" }] }, "given": ["Bénédicte"] },
      "telecom": [{ "system": "phone", "value": "+33 (237) 998327" }],
      "address": { "line": ["12 Rue des Lilas"], "city": "Chartres", "postalCode": "28000", "country": "FRA" },
      "gender": "female",
      "period": { "start": "2012" }
    }
  ],
  "photo": [{ "contentType": "image/jpeg", "url": "https://img.example.org/photos/pat-20931.jpg", "title": "Badge photo" }],
  "managingOrganization": { "reference": "Organization/1", "display": "Murray Valley Health" },
  "generalPractitioner": [{ "reference": "Practitioner/pr-4471", "display": "Dr. Imogen Rathbone" }],
  "link": [{ "other": { "reference": "Patient/pat-20931b" }, "type": "seealso" }]
}`;

const PATIENT_PHI: [string, string][] = [
  ["pat-20931", "MRN"],
  ["7730418", "MRN"],
  ["512-73-0094", "SSN"],
  ["S99-3391-0472", "LICENSE"],
  ["Quarrington", "NAME"],
  ["Pettigrew", "NAME"],
  ["Anselm", "NAME"],
  ["Tobiah", "NAME"],
  ["Tobi", "NAME"],
  ["Anselm Brookfield", "NAME"],
  ["(03) 5555 8817", "PHONE"],
  ["a.quarrington@example.com.au", "EMAIL"],
  ["https://portal.example.org/p?mrn=7730418", "URL"],
  ["1974-12-25", "DOB"],
  ["1974-12-25T14:35:45-05:00", "DOB"],
  ["2001-05-06", "DATE"],
  ["77 Kestrel Rise, Wodonga, VIC 3690", "ADDRESS"],
  ["77 Kestrel Rise", "ADDRESS"],
  ["Wodonga", "ADDRESS"],
  ["Rainbow", "ADDRESS"],
  ["3690", "ADDRESS"],
  ["Marchetti", "NAME"],
  ["Bénédicte", "NAME"],
  ["+33 (237) 998327", "PHONE"],
  ["12 Rue des Lilas", "ADDRESS"],
  ["Chartres", "ADDRESS"],
  ["28000", "ADDRESS"],
  ["https://img.example.org/photos/pat-20931.jpg", "URL"],
  ["Dr. Imogen Rathbone", "NAME"],
  ["pat-20931b", "MRN"],
];

/** Facts of the Patient that stay. */
const PATIENT_FACTS = [
  '"resourceType": "Patient"',
  '"lastUpdated": "2026-11-01T07:12:44.120Z"',
  '"versionId": "3"',
  "http://terminology.hl7.org/CodeSystem/v2-0203",
  '"code": "MR"',
  "urn:oid:1.2.36.146.595.217.0.1",
  '"state": "VIC"',
  '"country": "FRA"',
  '"gender": "male"',
  '"reference": "Organization/1", "display": "Murray Valley Health"',
  "Practitioner/pr-4471",
  '"prefix": ["Mr"]',
  '"contentType": "image/jpeg"',
  "http://hl7.org/fhir/StructureDefinition/patient-birthTime",
  '"valueCode": "M"',
];

/** After bundle-transaction and encounter/coverage/device/practitioner examples. */
const BUNDLE =
  `{"resourceType":"Bundle","id":"bundle-transaction","meta":{"lastUpdated":"2026-11-03T01:43:30Z"},"type":"transaction","timestamp":"2026-11-03T01:43:30Z",
"identifier":{"system":"urn:ietf:rfc:3986","value":"urn:uuid:0c3151bd-1cbf-4d64-b04d-cd9187a4c6e0"},
"entry":[
{"fullUrl":"urn:uuid:61ebe359-bfdc-4613-8bf2-c5e300945f0a","resource":{"resourceType":"Patient","text":{"status":"generated","div":"<div xmlns=\\"http://www.w3.org/1999/xhtml\\">Odalys Fenwick-Ngata, born 1988-02-29</div>"},"active":true,"name":[{"use":"official","family":"Fenwick-Ngata","given":["Odalys"]}],"gender":"female","birthDate":"1988-02-29","deceasedDateTime":"2026-10-30T22:05:00+13:00","identifier":[{"type":{"coding":[{"code":"MB"}]},"system":"http://example.org/members","value":"MBR88310472"},{"type":{"text":"Medical record number"},"value":"HSP6287305"}]},"request":{"method":"POST","url":"Patient"}},
{"fullUrl":"http://example.org/fhir/Practitioner/prac-1","resource":{"resourceType":"Practitioner","id":"prac-1","identifier":[{"system":"http://hl7.org/fhir/sid/us-npi","value":"1144221847"},{"system":"http://www.acme.org/practitioners","value":"23"}],"name":[{"family":"Okonjo","given":["Adaeze"],"prefix":["Dr"],"suffix":["MD"]}],"telecom":[{"system":"phone","value":"0491 570 156","use":"work"}],"qualification":[{"identifier":[{"system":"http://example.org/UniversityIdentifier","value":"MED-LIC-99021"}],"code":{"coding":[{"system":"http://terminology.hl7.org/CodeSystem/v2-0360/2.7","code":"BS"}]}}]},"request":{"method":"PUT","url":"Practitioner/prac-1"}},
{"resource":{"resourceType":"Encounter","id":"enc-771","status":"finished","class":{"system":"http://terminology.hl7.org/CodeSystem/v3-ActCode","code":"IMP"},"identifier":[{"use":"official","system":"http://www.amc.nl/zorgportal/identifiers/visits","value":"VN-4471-0092"}],"subject":{"reference":"urn:uuid:61ebe359-bfdc-4613-8bf2-c5e300945f0a"},"participant":[{"individual":{"reference":"Practitioner/prac-1","display":"Adaeze Okonjo"}}],"period":{"start":"2026-10-28T10:00:00+13:00","end":"2026-10-30T22:05:00+13:00"},"hospitalization":{"admitSource":{"coding":[{"system":"http://snomed.info/sct","code":"305956004","display":"Referral by physician"}]}},"serviceProvider":{"reference":"Organization/f001","display":"Burgers University Medical Center"}}},
{"resource":{"resourceType":"Account","id":"acct-1","identifier":[{"value":"AC-55310982"}],"name":"Inpatient stay 2026","subject":[{"reference":"urn:uuid:61ebe359-bfdc-4613-8bf2-c5e300945f0a"}]}},
{"resource":{"resourceType":"Coverage","id":"9876B1","status":"active","identifier":[{"system":"http://benefitsinc.com/certificate","value":"12345"}],"subscriberId":"AB9876543","beneficiary":{"reference":"urn:uuid:61ebe359-bfdc-4613-8bf2-c5e300945f0a"},"relationship":{"coding":[{"code":"self"}]},"payor":[{"reference":"Organization/2","display":"Benefits Inc."}]}},
{"resource":{"resourceType":"Device","id":"dev-3","identifier":[{"system":"http://acme.com/devices/pacemakers/octane/serial","value":"1234-5678-90AB-CDEF"}],"udiCarrier":[{"deviceIdentifier":"09504000059118","carrierHRF":"(01)09504000059118(17)141120(10)7654321D(21)10987654d321"}],"serialNumber":"AMID-342135-8464","lotNumber":"43453424","patient":{"reference":"urn:uuid:61ebe359-bfdc-4613-8bf2-c5e300945f0a"}}},
{"resource":{"resourceType":"Observation","id":"obs-glu","status":"final","code":{"coding":[{"system":"http://loinc.org","code":"15074-8","display":"Glucose [Moles/volume] in Blood"}]},"subject":{"reference":"urn:uuid:61ebe359-bfdc-4613-8bf2-c5e300945f0a","display":"Odalys Fenwick-Ngata"},"effectiveDateTime":"2026-10-29T09:30:00+13:00","issued":"2026-10-29T11:45:00+13:00","valueQuantity":{"value":6.3,"unit":"mmol/l","system":"http://unitsofmeasure.org","code":"mmol/L"},"note":[{"text":"Call back Mrs Fenwick-Ngata on 021 555 0199 re fasting."}]}},
{"resource":{"resourceType":"Organization","id":"f001","identifier":[{"system":"http://hl7.org/fhir/sid/us-npi","value":"1922083044"}],"name":"Burgers University Medical Center","telecom":[{"system":"phone","value":"022-655 2300"}],"address":[{"line":["Galapagosweg 91"],"city":"Den Burg","postalCode":"9105 PZ"}]}}
]}`;

const BUNDLE_PHI: [string, string][] = [
  ["61ebe359-bfdc-4613-8bf2-c5e300945f0a", "MRN"],
  ["Fenwick-Ngata", "NAME"],
  ["Odalys", "NAME"],
  ["1988-02-29", "DOB"],
  ["2026-10-30T22:05:00+13:00", "DATE"],
  ["MBR88310472", "MEMBER"],
  ["HSP6287305", "MRN"],
  ["1144221847", "NPI"],
  ["Okonjo", "NAME"],
  ["Adaeze", "NAME"],
  ["0491 570 156", "PHONE"],
  ["MED-LIC-99021", "LICENSE"],
  ["VN-4471-0092", "VISIT"],
  ["Adaeze Okonjo", "NAME"],
  ["2026-10-28T10:00:00+13:00", "DATE"],
  ["AC-55310982", "ACCOUNT"],
  ["AB9876543", "MEMBER"],
  ["12345", "MEMBER"],
  ["1234-5678-90AB-CDEF", "DEVICE"],
  ["(01)09504000059118(17)141120(10)7654321D(21)10987654d321", "DEVICE"],
  ["09504000059118", "DEVICE"],
  ["AMID-342135-8464", "DEVICE"],
  ["Odalys Fenwick-Ngata", "NAME"],
];

const BUNDLE_FACTS = [
  '"resourceType":"Bundle"',
  '"id":"bundle-transaction"',
  '"lastUpdated":"2026-11-03T01:43:30Z"',
  '"timestamp":"2026-11-03T01:43:30Z"',
  "urn:uuid:0c3151bd-1cbf-4d64-b04d-cd9187a4c6e0",
  '"url":"Patient"',
  "Practitioner/prac-1",
  '"id":"enc-771"',
  '"code":"IMP"',
  '"code":"305956004"',
  "Burgers University Medical Center",
  '"id":"9876B1"',
  "Benefits Inc.",
  '"lotNumber":"43453424"',
  '"code":"15074-8"',
  '"effectiveDateTime":"2026-10-29T09:30:00+13:00"',
  '"issued":"2026-10-29T11:45:00+13:00"',
  '"value":6.3',
  "1922083044",
  "Galapagosweg 91",
  "022-655 2300",
  '"status":"final"',
  '"name":"Inpatient stay 2026"',
];

/** The values and categories the scan reports, in text order. */
const found = (text: string) => (scanFhir(text)?.structured ?? []).map((c) => [c.value, c.category]);

function assertCovers(text: string, want: [string, string][], label: string) {
  const got = found(text);
  const key = (v: string[]) => `${v[0]}\u0000${v[1]}`;
  const have = new Set(got.map(key));
  for (const w of want) {
    assert(have.has(key(w)), `${label}: ${w[1]} ${w[0]} not found; got ${JSON.stringify(got)}`);
  }
}

Deno.test("fhir scan: every person element of a Patient, by category; facts are not reported", () => {
  assertCovers(PATIENT, PATIENT_PHI, "patient");
  const values = new Set(found(PATIENT).map((v) => v[0]));
  for (
    const keep of [
      "Mr",
      "VIC",
      "FRA",
      "male",
      "Murray Valley Health",
      "pr-4471",
      "2026-11-01T07:12:44.120Z",
      "3",
    ]
  ) {
    assert(!values.has(keep), `${keep} reported`);
  }
  // Context names the element.
  const pairs = new Set(scanFhir(PATIENT)!.structured.map((c) => `${c.value} @ ${c.context}`));
  for (
    const p of [
      "Quarrington @ FHIR Patient.name.family",
      "Marchetti @ FHIR Patient.contact.name.family",
      "512-73-0094 @ FHIR Patient.identifier.value",
      "1974-12-25 @ FHIR Patient.birthDate",
      "2001-05-06 @ FHIR Patient.identifier.period.start",
      "pat-20931b @ FHIR Patient.link.other.reference",
    ]
  ) assert(pairs.has(p), `${p}: ${[...pairs].join("; ")}`);
  // The narrative is free text, its names the record's own.
  const s = scanFhir(PATIENT)!;
  assert(s.free.some((f) => PATIENT.slice(f.start, f.end).startsWith("<div")), "div is free");
  assert(s.structured.some((c) => c.context === "FHIR narrative" && c.value === "Quarrington"));
});

Deno.test("fhir scan: a transaction Bundle (urn:uuid references, Encounter, Coverage, Device, Practitioner)", () => {
  assertCovers(BUNDLE, BUNDLE_PHI, "bundle");
  const s = scanFhir(BUNDLE)!;
  // The patient's uuid in its fullUrl and in every reference to it: one value each time.
  const uuid = s.structured.filter((c) => c.value === "61ebe359-bfdc-4613-8bf2-c5e300945f0a");
  assertEquals(uuid.length, 6);
  const values = new Set(s.structured.map((c) => c.value));
  for (
    const keep of [
      "0c3151bd-1cbf-4d64-b04d-cd9187a4c6e0",
      "1922083044",
      "Galapagosweg 91",
      "43453424",
      "prac-1",
    ]
  ) assert(!values.has(keep), `${keep} reported`);
  // Practitioner: untyped local id is an NPI too.
  assert(s.structured.some((c) => c.value === "23" && c.category === "NPI"));
});

Deno.test("fhir through the gate: hand-written Patient and Bundle, tool result and prompt, exact round trip", async () => {
  await using h = await testEngine("on");
  for (
    const [text, phi, facts] of [[PATIENT, PATIENT_PHI, PATIENT_FACTS], [
      BUNDLE,
      BUNDLE_PHI,
      BUNDLE_FACTS,
    ]] as const
  ) {
    for (const surface of ["tool", "prompt"]) {
      const r = surface === "tool"
        ? await h.engine.sanitizeToolResult(text, "read_file")
        : await h.engine.tokenizeUserInput(text);
      for (const [v] of phi) assert(!leaks(r.text, v), `${surface}: ${v} leaked`);
      for (const f of facts) assert(r.text.includes(f), `${surface}: fact ${f} changed`);
      assertEquals(h.engine.detokenize(r.text).text, text);
    }
  }
});

Deno.test("fhir through the gate: narrative and notes are read as prose", async () => {
  await using h = await testEngine("on");
  const r = await h.engine.sanitizeToolResult(BUNDLE, "read_file");
  // The note's phone (tier 1) and the patient's name (the record's own) in the note and narrative.
  assert(!leaks(r.text, "021 555 0199"), r.text);
  assert(!/Fenwick-Ngata(?!")/.test(r.text.replace(/\[\[[^\]]+\]\]/g, "")), "name in prose leaked");
  const p = await h.engine.sanitizeToolResult(PATIENT, "read_file");
  assert(!p.text.includes("Anselm Tobiah"), "narrative name");
  assert(!leaks(p.text, "7730418"), "narrative MRN");
});

Deno.test("fhir: elements not known here are prose when they read as prose; codes, dates, URLs stay", async () => {
  await using h = await testEngine("on");
  const text = JSON.stringify({
    resourceType: "Patient",
    id: "p-4410",
    name: [{ family: "Vandersloot", given: ["Imre"] }],
    extension: [{
      url: "http://vendor.example.org/fhir/ext/remarks",
      valueString: "Imre Vandersloot prefers SMS at 614-555-0148",
    }],
    vendorStatus: "ACTIVE_PENDING",
    vendorSince: "2019-04-01",
    vendorLink: "https://vendor.example.org/x/1",
    vendorRemarks: "Escort: Vandersloot family; call 614-555-0177",
  });
  const s = scanFhir(text)!;
  const free = s.free.map((f) => text.slice(f.start, f.end));
  assert(
    free.includes("Escort: Vandersloot family; call 614-555-0177") && !free.includes("ACTIVE_PENDING"),
    String(free),
  );
  assert(!free.includes("2019-04-01") && !free.includes("https://vendor.example.org/x/1"));
  const r = await h.engine.sanitizeToolResult(text, "read_file");
  for (const v of ["Vandersloot", "Imre", "614-555-0148", "614-555-0177"]) {
    assert(!leaks(r.text, v), `${v} leaked: ${r.text}`);
  }
  for (
    const keep of [
      "ACTIVE_PENDING",
      "2019-04-01",
      "https://vendor.example.org/x/1",
      "http://vendor.example.org/fhir/ext/remarks",
    ]
  ) {
    assert(r.text.includes(keep), keep);
  }
  assertEquals(h.engine.detokenize(r.text).text, text);
});

Deno.test("fhir: an OperationOutcome's diagnostics are prose; its codes stay", async () => {
  await using h = await testEngine("on");
  const text = JSON.stringify({
    resourceType: "OperationOutcome",
    issue: [{
      severity: "error",
      code: "not-found",
      diagnostics: "No Patient with MRN 55102834 (DOB 03/04/1961) in the MPI; phone on file 419-555-0183",
      expression: ["Patient.identifier[0].value"],
    }],
  });
  const r = await h.engine.sanitizeToolResult(text, "read_file");
  for (const v of ["55102834", "03/04/1961", "419-555-0183"]) {
    assert(!leaks(r.text, v), `${v} leaked: ${r.text}`);
  }
  for (const keep of ['"severity":"error"', '"code":"not-found"', "Patient.identifier[0].value"]) {
    assert(r.text.includes(keep), keep);
  }
  assertEquals(h.engine.detokenize(r.text).text, text);
});

Deno.test("fhir carriers: log prefix, one line, several records, JSON string (one and two levels), after prose", async () => {
  await using h = await testEngine("on");
  const one = JSON.stringify(JSON.parse(PATIENT));
  const carriers: [string, string][] = [
    ["log prefix", `2026-11-03 10:14:07.221 INFO  [ib_fhir_in] POST /fhir/Patient body=${one} status=201`],
    [
      "pretty after prose",
      `Here is the resource the vendor sent:\n\n${PATIENT}\n\nIt failed validation at line 4.`,
    ],
    ["two records", `${one}\n${JSON.stringify(JSON.parse(BUNDLE))}\n`],
    ["json string", JSON.stringify({ thread: "ib_fhir", msg: one, port: 7401 })],
    ["json string pretty", JSON.stringify({ thread: "ib_fhir", msg: PATIENT })],
    ["double escaped", JSON.stringify({ wrapper: JSON.stringify({ body: one }) })],
    ["array of resources", `[${one}, ${JSON.stringify(JSON.parse(BUNDLE).entry[1].resource)}]`],
  ];
  for (const [label, text] of carriers) {
    const r = await h.engine.sanitizeToolResult(text, "read_file");
    for (
      const v of [
        "Quarrington",
        "Anselm",
        "7730418",
        "512-73-0094",
        "a.quarrington@example.com.au",
        "Wodonga",
        "Marchetti",
      ]
    ) {
      assert(!leaks(r.text, v), `${label}: ${v} leaked:\n${r.text.slice(0, 3000)}`);
    }
    if (text.includes("Okonjo")) assert(!leaks(r.text, "Okonjo") && !leaks(r.text, "1144221847"), label);
    assertEquals(h.engine.detokenize(r.text).text, text, label);
    for (const keep of ["Patient", "urn:oid:1.2.36.146.595.217.0.1", "2026-11-01T07:12:44.120Z"]) {
      assert(r.text.includes(keep), `${label}: ${keep} changed`);
    }
  }
  const log = (await h.engine.sanitizeToolResult(carriers[0][1], "read_file")).text;
  assert(
    log.startsWith("2026-11-03 10:14:07.221 INFO  [ib_fhir_in] POST /fhir/Patient body={") &&
      log.endsWith("status=201"),
  );
});

Deno.test("fhir: an HL7 message in a valueString is the HL7 scan's; the record's other values stay tokenized", async () => {
  await using h = await testEngine("on");
  const hl7 = "MSH|^~\\&|LAB|GH|EHR|GH|20261102080000||ORU^R01|MSG00417|P|2.5.1\r" +
    "PID|1||77120094^^^GH^MR||QUENNELL^TAMSIN^R||19820311|F|||8 Birch Row^^Wodonga^VIC^3690";
  const obs = {
    resourceType: "Observation",
    id: "obs-src",
    status: "final",
    code: { text: "source message" },
    subject: { reference: "Patient/pat-20931", display: "Anselm Quarrington" },
    valueString: hl7,
  };
  const text = JSON.stringify(
    {
      resourceType: "Bundle",
      type: "collection",
      entry: [{ resource: JSON.parse(PATIENT) }, { resource: obs }],
    },
    null,
    1,
  );
  const r = await h.engine.sanitizeToolResult(text, "read_file");
  for (
    const v of [
      "77120094",
      "QUENNELL",
      "19820311",
      "8 Birch Row",
      "7730418",
      "512-73-0094",
      "Quarrington",
      "pat-20931",
    ]
  ) {
    assert(!leaks(r.text, v), `${v} leaked`);
  }
  assert(r.text.includes("MSG00417") && r.text.includes("ORU^R01") && r.text.includes('"obs-src"'));
  assertEquals(h.engine.detokenize(r.text).text, text);
});

Deno.test("fhir: a searchset's links and a transaction's request URLs carry search parameters: read as prose", async () => {
  await using h = await testEngine("on");
  const text = JSON.stringify({
    resourceType: "Bundle",
    type: "searchset",
    total: 1,
    link: [
      {
        relation: "self",
        url: "https://fhir.example.org/r4/Patient?family=Quarrington&birthdate=1974-12-25&_count=50",
      },
      {
        relation: "next",
        url:
          "https://fhir.example.org/r4/Patient?identifier=urn:oid:1.2.36.146.595.217.0.1%7C7730418&birthdate=ge1974-12-25&given:exact=Anselm&_page=2",
      },
    ],
    entry: [{
      fullUrl: "https://fhir.example.org/r4/Patient/pat-20931",
      resource: JSON.parse(PATIENT),
      search: { mode: "match", score: 1 },
    }],
  });
  const r = await h.engine.sanitizeToolResult(text, "read_file");
  for (const v of ["Quarrington", "1974-12-25", "pat-20931", "7730418", "Anselm"]) {
    assert(!leaks(r.text, v), `${v} leaked`);
  }
  for (
    const keep of [
      "https://fhir.example.org/r4/Patient?family=",
      "&_count=50",
      "identifier=urn:oid:1.2.36.146.595.217.0.1%7C",
      "birthdate=ge",
      "&given:exact=",
      "&_page=2",
    ]
  ) assert(r.text.includes(keep), `${keep} changed: ${r.text.slice(0, 600)}`);
  assert(r.text.includes('"total":1') && r.text.includes('"mode":"match"'));
  assertEquals(h.engine.detokenize(r.text).text, text);
});

Deno.test("fhir: keyed names and the structured scan give one token per name part (no overlap, no double)", async () => {
  await using h = await testEngine("on");
  const r = await h.engine.sanitizeToolResult(PATIENT, "read_file");
  const names = r.tokenized.filter((t) => t.value === "Quarrington");
  assert(names.length >= 1 && names.every((t) => t.tier === "hl7_pipeline"), JSON.stringify(names));
  // Each occurrence is one whole token (family in the name and in the narrative), never a token of
  // a part or a token inside a token.
  const token = names[0].token;
  assertEquals(r.text.split(token).length - 1, PATIENT.split("Quarrington").length - 1);
  assert(!r.text.includes("[[[") && !/\[\[[A-Z]+_\d+\]\][A-Za-z]/.test(r.text), "token glued to a part");
  assertEquals(h.engine.detokenize(r.text).text, PATIENT);
});

Deno.test("fhir: truncated and malformed records are read as far as they parse, never throw", async () => {
  await using h = await testEngine("on");
  const one = JSON.stringify(JSON.parse(BUNDLE));
  for (let cut = 10; cut < one.length; cut += 97) {
    const text = `recv: ${one.slice(0, cut)}`;
    const s = scanFhir(text);
    // Every complete value before the cut that the whole record tokenizes is found.
    for (const [v] of BUNDLE_PHI) {
      const at = text.indexOf(`"${v}"`);
      if (at !== -1 && at + v.length + 2 < text.length - 2 && s) {
        assert(s.structured.some((c) => c.value === v), `cut ${cut}: ${v} missed`);
      }
    }
  }
  for (const cut of [200, 900, 1700, 2600]) {
    const text = one.slice(0, cut);
    const r = await h.engine.sanitizeToolResult(text, "read_file");
    assertEquals(h.engine.detokenize(r.text).text, text);
  }
  // Malformed in the middle: the part before the fault is read.
  const bad = PATIENT.replace('"gender": "male",', '"gender": male,,');
  const s = scanFhir(bad)!;
  assert(s.structured.some((c) => c.value === "Quarrington"));
});

Deno.test("fhir: fuzz (random pieces, random cuts, random bytes) never throws", () => {
  const rand = mulberry32(2323);
  const pieces = [
    "{",
    "}",
    "[",
    "]",
    ",",
    ":",
    '"',
    '\\"',
    "\\",
    '"resourceType"',
    '"Patient"',
    '"name"',
    '"family"',
    '"given"',
    '"entry"',
    '"resource"',
    '"identifier"',
    '"value"',
    '"text"',
    '"div"',
    '"reference"',
    '"Patient/12"',
    '"urn:uuid:1"',
    "null",
    "1e9",
    " ",
    "\n",
    "x",
    "é",
    "\u0000",
  ];
  const one = JSON.stringify(JSON.parse(BUNDLE));
  for (let i = 0; i < 3000; i++) {
    const t = randomText(rand, pieces, 80);
    scanFhir(t);
    scanRecords(t);
    const a = Math.floor(rand() * one.length), b = a + Math.floor(rand() * 400);
    scanFhir(one.slice(a, b) + t);
    const bytes = Array.from({ length: 64 }, () => String.fromCharCode(Math.floor(rand() * 128))).join("");
    scanFhir(`"resourceType"${bytes}`);
    parseJsonAt(t, 0);
  }
  // Deep nesting does not overflow the stack.
  const deep = '{"resourceType":"Patient","x":' + "[".repeat(100_000);
  scanFhir(deep);
  scanFhir('{"resourceType":"Bundle","entry":[' + '{"resource":'.repeat(50_000));
});

Deno.test("fhir: values keep their exact source span under escaping and random cuts", () => {
  const rand = mulberry32(5);
  const src = fhirBundle(3, 2, false).text;
  const bases = [
    src,
    JSON.stringify({ m: src }),
    JSON.stringify({ w: JSON.stringify({ m: src }) }),
  ];
  assertSpansExact(scanFhir, bases, rand);
});

Deno.test("fhir: maybe() is cheap and false for other JSON; plain operator JSON stays as it is", async () => {
  assertEquals(fhir.maybe('{"name":"adt_in","port":7001}'), false);
  assertEquals(scanFhir('{"name":"adt_in","port":7001}'), undefined);
  assertEquals(scanFhir("resourceType is a key of FHIR"), undefined);
  // A definition's contact is its publisher's.
  const sd = JSON.stringify({
    resourceType: "StructureDefinition",
    id: "us-core-patient",
    url: "http://hl7.org/fhir/us/core/StructureDefinition/us-core-patient",
    version: "6.1.0",
    name: "USCorePatientProfile",
    publisher: "HL7 International / Cross-Group Projects",
    contact: [{
      name: "HL7 International / Cross-Group Projects",
      telecom: [{ system: "url", value: "http://www.hl7.org/Special/committees/cgp" }],
    }],
    description: "Defines constraints on the Patient resource.",
    kind: "resource",
    type: "Patient",
  });
  assertEquals(scanFhir(sd)?.structured, []);
  // A cloud inventory's resourceType is not a FHIR resource type.
  assertEquals(
    scanFhir('{"resourceType":"Microsoft.Web/sites","name":"hie-gateway","id":"/subscriptions/1"}'),
    undefined,
  );
  await using h = await testEngine("on");
  const plain =
    '{"thread":"ib_fhir","resourceType":"Patient","count":412,"errors":0,"lastRun":"2026-11-03T10:00:00Z"}';
  assertEquals((await h.engine.sanitizeToolResult(plain, "bash_exec")).text, plain);
});

Deno.test("fhir generated: bundles of 3 patients, 30 seeds, pretty and one line, every value tokenized, facts stay", async () => {
  let checked = 0;
  for (let seed = 1; seed <= 30; seed++) {
    // One lookup table per seed: two seeds may draw the same phone digits in two written forms.
    await using h = await testEngine("on");
    const g = fhirBundle(seed, 3, seed % 2 === 0);
    const text = seed % 3 === 0 ? `2026-11-03T10:00:00Z ib_fhir recv ${g.text}` : g.text;
    const r = await h.engine.sanitizeToolResult(text, "read_file");
    for (const p of g.phi) {
      checked++;
      assert(!leaks(r.text, p.value), `seed ${seed}: ${p.category} ${p.value} leaked`);
    }
    for (const f of g.facts) assert(r.text.includes(f), `seed ${seed}: fact ${f} changed`);
    assertEquals(h.engine.detokenize(r.text).text, text, `seed ${seed}`);
  }
  assert(checked > 1500, String(checked));
});

Deno.test("fhir: a family or given name of a record, written alone later in the text, gets its token", async () => {
  await using h = await testEngine();
  const t = `{"resourceType":"Patient","id":"example","name":[{"family":"Holcombe","given":["Wrenna"]}]}\n` +
    "Holcombe called about the feed; Wrenna said the lab is late.";
  const out = await h.engine.sanitizeToolResult(t, "read_file");
  for (const v of ["Holcombe", "Wrenna"]) assert(!leaks(out.text, v), out.text);
  assert(out.text.includes("called about the feed"), out.text);
  assertEquals(h.engine.detokenize(out.text).text, t);
});
