/**
 * CDA R2 / C-CDA XML read by structure (phi/cda.ts): the hand-written corpus follows HL7's C-CDA R2.1
 * examples (HL7/C-CDA-Examples: CCD, Discharge Summary, Unstructured Document) in shape, with
 * synthetic persons of our own; the generated one comes from tests/phi/_fhir_cda_gen.ts. Each checks
 * values that must be tokenized and engine facts that must stay, through the real engine, with a
 * byte-exact round trip.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { assertSpansExact, leaks, testEngine } from "./_support.ts";
import { cda, scanCda } from "../../phi/cda.ts";
import { scanRecords } from "../../phi/records.ts";
import { mulberry32, randomText } from "../support/prng.ts";
import { cdaDocument } from "./_fhir_cda_gen.ts";

/** After the C-CDA R2.1 CCD example: every participant kind, an encounter, narrative, entries. */
const CCD = `<?xml version="1.0" encoding="utf-8"?>
<?xml-stylesheet type="text/xsl" href="CDA.xsl"?>
<!-- Continuity of Care Document: synthetic persons -->
<ClinicalDocument xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns="urn:hl7-org:v3" xmlns:sdtc="urn:hl7-org:sdtc">
  <realmCode code="US" />
  <typeId extension="POCD_HD000040" root="2.16.840.1.113883.1.3" />
  <templateId root="2.16.840.1.113883.10.20.22.1.2" extension="2015-08-01" />
  <id extension="TT4471" root="2.16.840.1.113883.19.5.99999.1" />
  <code code="34133-9" displayName="Summary of episode note" codeSystem="2.16.840.1.113883.6.1" codeSystemName="LOINC" />
  <title>Patient Chart Summary</title>
  <effectiveTime value="20261104103000-0800" />
  <confidentialityCode code="N" codeSystem="2.16.840.1.113883.5.25" />
  <setId extension="sTT4471" root="2.16.840.1.113883.19.5.99999.19" />
  <versionNumber value="1" />
  <recordTarget>
    <patientRole>
      <id extension="998991447" root="2.16.840.1.113883.4.1" />
      <id extension="MRN-0038271" root="2.16.840.1.113883.19.5.99999.2" />
      <addr use="HP">
        <streetAddressLine>3107 Sorrel Bend</streetAddressLine>
        <streetAddressLine>Unit 4B</streetAddressLine>
        <city>Tillamook</city>
        <county>Tillamook County</county>
        <state>OR</state>
        <postalCode>97141</postalCode>
        <country>US</country>
      </addr>
      <telecom value="tel:+1(503)555-2817" use="HP" />
      <telecom value="mailto:wrenna.holcombe@example.org" use="HP" />
      <patient>
        <name use="L">
          <prefix>Mrs.</prefix>
          <given>Wrenna</given>
          <given qualifier="CL">Wren</given>
          <family qualifier="SP">Holcombe</family>
        </name>
        <name use="SRCH"><given>Wrenna</given><family qualifier="BR">Faircloth</family></name>
        <administrativeGenderCode code="F" displayName="Female" codeSystem="2.16.840.1.113883.5.1" />
        <birthTime value="19660817" />
        <sdtc:deceasedInd value="false" />
        <maritalStatusCode code="M" displayName="Married" codeSystem="2.16.840.1.113883.5.2" />
        <raceCode code="2106-3" displayName="White" codeSystem="2.16.840.1.113883.6.238" codeSystemName="Race &amp; Ethnicity - CDC" />
        <guardian>
          <code code="POWATT" displayName="Power of Attorney" codeSystem="2.16.840.1.113883.1.11.19830" />
          <addr use="HP"><streetAddressLine>19 Cape Meares Loop</streetAddressLine><city>Netarts</city><state>OR</state><postalCode>97143</postalCode></addr>
          <telecom value="tel:+1(503)555-2290" use="MC" />
          <guardianPerson><name><given>Osric</given><family>Holcombe</family></name></guardianPerson>
        </guardian>
        <birthplace><place><addr><city>Astoria</city><state>OR</state></addr></place></birthplace>
        <languageCommunication><languageCode code="en" /><preferenceInd value="true" /></languageCommunication>
      </patient>
      <providerOrganization>
        <id extension="219BX" root="2.16.840.1.113883.4.6" />
        <name>The DoctorsTogether Physician Group</name>
        <telecom use="WP" value="tel: +1(555)555-5000" />
        <addr><streetAddressLine>1007 Health Drive</streetAddressLine><city>Portland</city><state>OR</state><postalCode>99123</postalCode></addr>
      </providerOrganization>
    </patientRole>
  </recordTarget>
  <author>
    <time value="20261104103000-0800" />
    <assignedAuthor>
      <id extension="1588667638" root="2.16.840.1.113883.4.6" />
      <code code="207QA0505X" codeSystem="2.16.840.1.113883.6.101" codeSystemName="Healthcare Provider Taxonomy (HIPAA)" />
      <telecom use="WP" value="tel:+1(555)555-1004" />
      <assignedPerson><name><given>Lucasta</given><family>Merriweather</family><suffix qualifier="AC">M.D.</suffix></name></assignedPerson>
    </assignedAuthor>
  </author>
  <dataEnterer><assignedEntity><id extension="333777777" root="2.16.840.1.113883.4.6" /><assignedPerson><name><given>Ellery</given><family>Thistlewood</family></name></assignedPerson></assignedEntity></dataEnterer>
  <informant>
    <relatedEntity classCode="PRS">
      <code code="SPS" displayName="SPOUSE" codeSystem="2.16.840.1.113883.1.11.19563" />
      <relatedPerson><name><given>Osric</given><family>Holcombe</family></name></relatedPerson>
    </relatedEntity>
  </informant>
  <custodian><assignedCustodian><representedCustodianOrganization>
    <id extension="321CX" root="2.16.840.1.113883.4.6" /><name>Good Health HIE</name>
    <telecom use="WP" value="tel:+1(555)555-1009" />
  </representedCustodianOrganization></assignedCustodian></custodian>
  <informationRecipient><intendedRecipient><informationRecipient><name><given>Sabine</given><family>Kettleworth</family><suffix>M.D.</suffix></name></informationRecipient>
    <receivedOrganization><name>The DoctorsApart Physician Group</name></receivedOrganization></intendedRecipient></informationRecipient>
  <legalAuthenticator><time value="20261104223615-0800" /><signatureCode code="S" />
    <assignedEntity><id extension="1588667638" root="2.16.840.1.113883.4.6" /><assignedPerson><name><given>Lucasta</given><family>Merriweather</family></name></assignedPerson></assignedEntity>
  </legalAuthenticator>
  <participant typeCode="IND">
    <associatedEntity classCode="NOK">
      <id extension="NOK-5521" root="2.16.840.1.113883.19.5.99999.7" />
      <addr><streetAddressLine>442 Whiskey Creek Rd</streetAddressLine><city>Netarts</city><state>OR</state></addr>
      <telecom value="tel:+1(503)555-7731" />
      <associatedPerson><name><given>Imelda</given><family>Faircloth</family></name></associatedPerson>
    </associatedEntity>
  </participant>
  <documentationOf><serviceEvent classCode="PCPR"><effectiveTime><low value="20250301" /><high value="20261104" /></effectiveTime>
    <performer typeCode="PRF"><assignedEntity><id extension="1588667638" root="2.16.840.1.113883.4.6" />
      <assignedPerson><name><given>Lucasta</given><family>Merriweather</family></name></assignedPerson>
      <representedOrganization><name>Good Health Clinic</name></representedOrganization></assignedEntity></performer>
  </serviceEvent></documentationOf>
  <componentOf><encompassingEncounter>
    <id extension="ENC-20261101-0917" root="2.16.840.1.113883.19.5.99999.4" />
    <code code="IMP" codeSystem="2.16.840.1.113883.5.4" />
    <effectiveTime><low value="202611010917-0800" /><high value="202611031400-0800" /></effectiveTime>
    <location><healthCareFacility><id root="2.16.840.1.113883.19.5.9" extension="FAC-77" /><location><name>Good Health Hospital</name></location></healthCareFacility></location>
  </encompassingEncounter></componentOf>
  <component><structuredBody>
    <component><section>
      <templateId root="2.16.840.1.113883.10.20.22.2.6.1" extension="2015-08-01" />
      <code code="48765-2" codeSystem="2.16.840.1.113883.6.1" displayName="Allergies and adverse reactions" />
      <title>ALLERGIES AND ADVERSE REACTIONS</title>
      <text>
        <table border="1" width="100%"><thead><tr><th>Substance</th><th>Reaction</th></tr></thead>
          <tbody><tr ID="ALGSUMMARY_1"><td ID="ALGSUB_1">Penicillin G benzathine</td><td>Hives</td></tr></tbody></table>
        <paragraph>History given by Wrenna Holcombe and her husband Osric (cell 503-555-4410) on 11/01/2026.</paragraph>
      </text>
      <entry typeCode="DRIV"><act classCode="ACT" moodCode="EVN">
        <templateId root="2.16.840.1.113883.10.20.22.4.30" extension="2015-08-01" />
        <id root="36e3e930-7b14-11db-9fe1-0800200c9a66" />
        <code code="CONC" codeSystem="2.16.840.1.113883.5.6" />
        <statusCode code="active" />
        <effectiveTime><low value="199805011430-0800" /></effectiveTime>
        <entryRelationship typeCode="SUBJ"><observation classCode="OBS" moodCode="EVN">
          <id root="4adc1020-7b14-11db-9fe1-0800200c9a66" />
          <code code="ASSERTION" codeSystem="2.16.840.1.113883.5.4" />
          <value xsi:type="CD" code="419511003" codeSystem="2.16.840.1.113883.6.96" />
          <participant typeCode="CSM"><participantRole classCode="MANU"><playingEntity classCode="MMAT">
            <code code="7982" displayName="Penicillin G benzathine" codeSystem="2.16.840.1.113883.6.88" />
            <name>Penicillin G benzathine</name>
          </playingEntity></participantRole></participant>
        </observation></entryRelationship>
      </act></entry>
    </section></component>
    <component><section>
      <code code="8716-3" codeSystem="2.16.840.1.113883.6.1" />
      <title>VITAL SIGNS</title>
      <text><list><item>Weight 71.4 kg</item></list></text>
      <entry><observation classCode="OBS" moodCode="EVN"><code code="29463-7" codeSystem="2.16.840.1.113883.6.1" />
        <effectiveTime value="20261102" /><value xsi:type="PQ" value="71.4" unit="kg" /></observation></entry>
      <entry><observation classCode="OBS" moodCode="EVN"><code code="8302-2" codeSystem="2.16.840.1.113883.6.1" />
        <value xsi:type="ST">Patient Wrenna reports home scale reads 72 kg</value></observation></entry>
    </section></component>
  </structuredBody></component>
</ClinicalDocument>`;

const CCD_PHI: [string, string][] = [
  ["998991447", "SSN"],
  ["MRN-0038271", "MRN"],
  ["3107 Sorrel Bend", "ADDRESS"],
  ["Unit 4B", "ADDRESS"],
  ["Tillamook", "ADDRESS"],
  ["Tillamook County", "ADDRESS"],
  ["97141", "ADDRESS"],
  ["+1(503)555-2817", "PHONE"],
  ["wrenna.holcombe@example.org", "EMAIL"],
  ["Wrenna", "NAME"],
  ["Wren", "NAME"],
  ["Holcombe", "NAME"],
  ["Faircloth", "NAME"],
  ["19660817", "DOB"],
  ["19 Cape Meares Loop", "ADDRESS"],
  ["Netarts", "ADDRESS"],
  ["97143", "ADDRESS"],
  ["+1(503)555-2290", "PHONE"],
  ["Osric", "NAME"],
  ["Astoria", "ADDRESS"],
  ["1588667638", "NPI"],
  ["Lucasta", "NAME"],
  ["Merriweather", "NAME"],
  ["+1(555)555-1004", "PHONE"],
  ["333777777", "NPI"],
  ["Ellery", "NAME"],
  ["Thistlewood", "NAME"],
  ["Sabine", "NAME"],
  ["Kettleworth", "NAME"],
  ["NOK-5521", "MRN"],
  ["442 Whiskey Creek Rd", "ADDRESS"],
  ["+1(503)555-7731", "PHONE"],
  ["Imelda", "NAME"],
  ["ENC-20261101-0917", "VISIT"],
  ["202611010917-0800", "DATE"],
  ["202611031400-0800", "DATE"],
];

const CCD_FACTS = [
  '<id extension="TT4471" root="2.16.840.1.113883.19.5.99999.1" />',
  '<setId extension="sTT4471"',
  'templateId root="2.16.840.1.113883.10.20.22.1.2" extension="2015-08-01"',
  'code="34133-9"',
  '<effectiveTime value="20261104103000-0800" />',
  "<state>OR</state>",
  "<country>US</country>",
  "<prefix>Mrs.</prefix>",
  '<suffix qualifier="AC">M.D.</suffix>',
  "The DoctorsTogether Physician Group",
  '<id extension="219BX" root="2.16.840.1.113883.4.6" />',
  'value="tel:',
  "1007 Health Drive",
  "Good Health HIE",
  "321CX",
  "The DoctorsApart Physician Group",
  "Good Health Hospital",
  "FAC-77",
  '<low value="20250301" />',
  '<low value="199805011430-0800" />',
  "Penicillin G benzathine",
  'code="207QA0505X"',
  "36e3e930-7b14-11db-9fe1-0800200c9a66",
  '<time value="20261104223615-0800" />',
  'value="tel:',
  'value="mailto:',
  "Weight 71.4 kg",
  '<effectiveTime value="20261102" />',
  'value="71.4" unit="kg"',
];

const found = (text: string) => (scanCda(text)?.structured ?? []).map((c) => [c.value, c.category]);

Deno.test("cda scan: every person of a CCD, by role; document facts are not reported", () => {
  const got = found(CCD);
  const have = new Set(got.map((v) => `${v[0]} ${v[1]}`));
  for (const [v, c] of CCD_PHI) assert(have.has(`${v} ${c}`), `${c} ${v} missing: ${JSON.stringify(got)}`);
  const values = new Set(got.map((v) => v[0]));
  for (
    const keep of [
      "TT4471",
      "sTT4471",
      "219BX",
      "321CX",
      "FAC-77",
      "OR",
      "US",
      "Mrs.",
      "M.D.",
      "Portland",
      "20250301",
      "Penicillin G benzathine",
      "Good Health HIE",
    ]
  ) assert(!values.has(keep), `${keep} reported`);
  const s = scanCda(CCD)!;
  // Contexts name the path; the scheme of a telecom stays outside the value.
  assert(
    s.structured.some((c) => c.context === "CDA ClinicalDocument/recordTarget/patientRole/id/@extension"),
  );
  assert(!s.structured.some((c) => c.value.startsWith("tel:") || c.value.startsWith("mailto:")));
  // Section narrative and an ST value are free text; the record is one segment from its root.
  assert(s.free.some((f) => CCD.slice(f.start, f.end).startsWith("<table")));
  assert(s.free.some((f) => CCD.slice(f.start, f.end) === "Patient Wrenna reports home scale reads 72 kg"));
  // The document's extent, cut at its free spans (so a reader that claims one, e.g. HL7 in the
  // narrative, takes only that piece): contiguous pieces from the root's start to its end.
  const segs = s.segments;
  for (let i = 1; i < segs.length; i++) assertEquals(segs[i].start, segs[i - 1].end);
  assert(CCD.slice(segs[0].start).startsWith("<ClinicalDocument"));
  assert(CCD.slice(0, segs[segs.length - 1].end).endsWith("</ClinicalDocument>"));
});

Deno.test("cda through the gate: the CCD as a tool result and a prompt, facts stay, exact round trip", async () => {
  await using h = await testEngine("on");
  for (const surface of ["tool", "prompt"]) {
    const r = surface === "tool"
      ? await h.engine.sanitizeToolResult(CCD, "read_file")
      : await h.engine.tokenizeUserInput(CCD);
    for (const [v] of CCD_PHI) assert(!leaks(r.text, v), `${surface}: ${v} leaked`);
    for (const f of CCD_FACTS) assert(r.text.includes(f), `${surface}: fact ${f} changed`);
    // The narrative: the record's names, the guardian's phone (tier 1) and no date of the person left.
    assert(!r.text.includes("Wrenna Holcombe") && !leaks(r.text, "503-555-4410"), surface);
    assertEquals(h.engine.detokenize(r.text).text, CCD);
  }
});

Deno.test("cda carriers: log prefix, JSON string (one and two levels), entity-escaped, fragment, several", async () => {
  await using h = await testEngine("on");
  const flat = CCD.replace(/\n\s*/g, "");
  const entity = flat.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(
    /"/g,
    "&quot;",
  );
  const fragment = CCD.slice(CCD.indexOf("<recordTarget>"), CCD.indexOf("</recordTarget>") + 15);
  const carriers: [string, string][] = [
    ["log prefix", `2026-11-04 10:31:02 [ob_cda_out] sending ${flat} to 10.2.4.7:7710`],
    ["json string", JSON.stringify({ thread: "ob_cda", document: CCD, bytes: CCD.length })],
    [
      "json string, bare root",
      JSON.stringify({
        document: flat.slice(flat.indexOf("<ClinicalDocument")).replace(
          /<ClinicalDocument [^>]*>/,
          "<ClinicalDocument>",
        ),
      }),
    ],
    ["double escaped", JSON.stringify({ wrapper: JSON.stringify({ document: flat }) })],
    ["entity-escaped in xml", `<Envelope><Body><Submit><doc>${entity}</doc></Submit></Body></Envelope>`],
    ["entity-escaped in json", JSON.stringify({ payload: entity })],
    ["fragment after prose", `The patient block of the failing document:\n${fragment}\nrest of the log`],
    ["two documents", `${flat}\n--\n${flat.replace(/Wrenna/g, "Wrennabel")}`],
  ];
  for (const [label, text] of carriers) {
    const r = await h.engine.sanitizeToolResult(text, "read_file");
    for (
      const v of [
        "998991447",
        "MRN-0038271",
        "3107 Sorrel Bend",
        "Tillamook",
        "Holcombe",
        "Wrenna",
        "19660817",
      ]
    ) {
      assert(!leaks(r.text, v), `${label}: ${v} leaked:\n${r.text.slice(0, 2500)}`);
    }
    if (text.includes("Merriweather")) {
      assert(!leaks(r.text, "Merriweather") && !leaks(r.text, "1588667638"), label);
    }
    assertEquals(h.engine.detokenize(r.text).text, text, label);
    for (const keep of ["34133-9", "2.16.840.1.113883.4.1", "TT4471"]) {
      if (text.includes(keep)) assert(r.text.includes(keep), `${label}: ${keep} changed`);
    }
  }
});

Deno.test("cda: an HL7 message in the narrative is the HL7 scan's; the document's other values stay tokenized", async () => {
  await using h = await testEngine("on");
  const doc = CCD.replace(
    "<list><item>Weight 71.4 kg</item></list>",
    "<paragraph>Source message:\nMSH|^~\\&amp;|LAB|GH|EHR|GH|20261102080000||ORU^R01|MSG00417|P|2.5.1\n" +
      "PID|1||77120094^^^GH^MR||QUENNELL^TAMSIN^R||19820311|F|||8 Birch Row^^Tillamook^OR^97141</paragraph>",
  );
  const r = await h.engine.sanitizeToolResult(doc, "read_file");
  for (
    const v of [
      "77120094",
      "QUENNELL",
      "19820311",
      "8 Birch Row",
      "998991447",
      "Holcombe",
      "3107 Sorrel Bend",
      "1588667638",
    ]
  ) {
    assert(!leaks(r.text, v), `${v} leaked`);
  }
  assert(r.text.includes("MSG00417") && r.text.includes("ORU^R01") && r.text.includes('code="34133-9"'));
  assertEquals(h.engine.detokenize(r.text).text, doc);
});

Deno.test("cda: the ids of a patient (also the deprecated patient/id) and of relatives; not of entries", () => {
  const s = scanCda(
    `<recordTarget><patientRole><id root="2.16.840.1.113883.19.5" extension="P-55102"/><patient><id extension="OLD-9931" root="1.2.3"/>` +
      `<name>Tamsin Quennell</name></patient></patientRole></recordTarget>` +
      `<entry><observation><id root="1.2.3.4" extension="OBS-1"/><value xsi:type="ST">seen by Tamsin Quennell</value></observation></entry>`,
  )!;
  assertEquals(s.structured.map((c) => [c.value, c.category]), [
    ["P-55102", "MRN"],
    ["OLD-9931", "MRN"],
    ["Tamsin Quennell", "NAME"],
  ]);
  // A participantRole's playingEntity: a person when the name has parts, a drug when it is text.
  const p = scanCda(
    `<ClinicalDocument><recordTarget><patientRole><id extension="1" root="1.2"/></patientRole></recordTarget><participant typeCode="VRF"><participantRole><playingEntity>` +
      `<name><prefix>Dr.</prefix><family>Pendergast</family><given>Orla</given></name></playingEntity></participantRole></participant>` +
      `<participant typeCode="CSM"><participantRole classCode="MANU"><playingEntity classCode="MMAT"><name>Penicillin</name>` +
      `</playingEntity></participantRole></participant></ClinicalDocument>`,
  )!;
  assertEquals(p.structured.map((c) => c.value), ["1", "Pendergast", "Orla"]);
});

Deno.test("cda: a nonXMLBody in base64 is opened by the engine's base64 pass", async () => {
  await using h = await testEngine("on");
  const note =
    "Discharge note. Patient: Holcombe, Wrenna  MRN 00381277  DOB 19660817  phone +1(503)555-2817.\n" +
    "Follow up with Dr. Lucasta Merriweather in 2 weeks.\n";
  const b64 = btoa(String.fromCharCode(...new TextEncoder().encode(note))).replace(/(.{76})/g, "$1\n");
  const doc = CCD.replace(
    /<component><structuredBody>[\s\S]*<\/structuredBody><\/component>/,
    `<component><nonXMLBody><text mediaType="text/plain" representation="B64">\n${b64}\n</text></nonXMLBody></component>`,
  );
  assert(doc.includes("nonXMLBody"));
  const s = scanCda(doc)!;
  assert(
    !s.free.some((f) => doc.slice(f.start, f.end).includes(b64.slice(0, 40))),
    "base64 is not free text",
  );
  const r = await h.engine.sanitizeToolResult(doc, "read_file");
  assert(!r.text.includes(b64.slice(0, 60)), "the base64 run was rewritten");
  const run = /representation="B64">\n([\s\S]*?)\n<\/text>/.exec(r.text)![1];
  const decoded = new TextDecoder().decode(
    Uint8Array.from(atob(run.replace(/\s+/g, "")), (c) => c.charCodeAt(0)),
  );
  // (Values written as in the structure: a token has one written form for detokenization, so
  // `08/17/1966` beside `19660817` would come back as the first.)
  // What the tiers read in prose (cues, shapes, known values): the body's identifiers and cued names.
  // (A bare "Wrenna Holcombe" in the body, and the given name after "Holcombe, ", are not found: the
  // record gives family and given as two one-word names, and tier 4 looks for known names of two
  // words or more. An engine change, reported.)
  for (const v of ["Holcombe", "00381277", "19660817", "+1(503)555-2817", "Merriweather"]) {
    assert(!leaks(decoded, v), `${v} in the decoded body: ${decoded}`);
  }
  assertEquals(h.engine.detokenize(r.text).text, doc);
});

Deno.test("cda: a document in base64 inside a FHIR DocumentReference is read by structure in the base64 pass", async () => {
  await using h = await testEngine("on");
  const g = cdaDocument(7, true);
  const data = btoa(String.fromCharCode(...new TextEncoder().encode(g.text)));
  const text = JSON.stringify(
    {
      resourceType: "DocumentReference",
      id: "dr-1",
      status: "current",
      subject: { reference: "Patient/p-99812" },
      content: [{ attachment: { contentType: "application/hl7-cda+xml", data } }],
    },
    null,
    2,
  );
  const r = await h.engine.sanitizeToolResult(text, "read_file");
  const out = JSON.parse(r.text).content[0].attachment.data as string;
  const decoded = new TextDecoder().decode(Uint8Array.from(atob(out), (c) => c.charCodeAt(0)));
  for (const p of g.phi) assert(!leaks(decoded, p.value), `${p.category} ${p.value} in the decoded document`);
  for (const f of g.facts) assert(decoded.includes(f), `fact ${f} changed`);
  assert(!leaks(r.text, "p-99812") && r.text.includes('"id": "dr-1"'));
  assertEquals(h.engine.detokenize(r.text).text, text);
});

Deno.test("cda: truncated documents are read as far as they go, never throw", async () => {
  await using h = await testEngine("on");
  for (let cut = 50; cut < CCD.length; cut += 211) {
    const text = `recv ${CCD.slice(0, cut)}`;
    const s = scanCda(text);
    for (const [v] of CCD_PHI) {
      // A value whose element is complete before the cut is found.
      const at = text.indexOf(`>${v}</`);
      if (at !== -1 && text.indexOf(">", at + v.length + 3) !== -1 && s) {
        assert(s.structured.some((c) => c.value === v), `cut ${cut}: ${v} missed`);
      }
    }
  }
  for (const cut of [700, 2100, 4500]) {
    const text = CCD.slice(0, cut);
    const r = await h.engine.sanitizeToolResult(text, "read_file");
    assertEquals(h.engine.detokenize(r.text).text, text);
  }
});

Deno.test("cda: fuzz (random tags, cuts, bytes) never throws", () => {
  const rand = mulberry32(4242);
  const pieces = [
    "<",
    ">",
    "/>",
    "</",
    "ClinicalDocument",
    "patientRole",
    "recordTarget",
    "name",
    "given",
    "family",
    "addr",
    "city",
    "id",
    "telecom",
    ' extension="1"',
    ' value="tel:1"',
    ' root="2.16.840.1.113883.4.1"',
    '="',
    '\\"',
    '"',
    "&lt;",
    "&gt;",
    "&amp;",
    "&#x41;",
    "&#99999999;",
    "<!--",
    "-->",
    "<![CDATA[",
    "]]>",
    "<?",
    "?>",
    " ",
    "\n",
    "x",
    "é",
  ];
  for (let i = 0; i < 3000; i++) {
    const t = randomText(rand, pieces, 80);
    scanCda(t);
    scanRecords(t);
    const a = Math.floor(rand() * CCD.length), b = a + Math.floor(rand() * 600);
    scanCda(`<ClinicalDocument>${CCD.slice(a, b)}${t}`);
    const bytes = Array.from({ length: 64 }, () => String.fromCharCode(Math.floor(rand() * 128))).join("");
    scanCda(`<patientRole ${bytes}`);
    scanCda(`&lt;ClinicalDocument${bytes}`);
  }
  // Deep nesting and many records.
  scanCda("<ClinicalDocument>" + "<section><text>".repeat(50_000));
  scanCda("<patientRole>".repeat(20_000));
});

Deno.test("cda: values keep their exact source span under escaping and random cuts", () => {
  const rand = mulberry32(5);
  const src = cdaDocument(3, false).text;
  const bases = [
    src,
    JSON.stringify({ m: src }),
    JSON.stringify({ w: JSON.stringify({ m: src }) }),
    `<x>${
      src.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;")
    }</x>`,
  ];
  assertSpansExact(scanCda, bases, rand);
});

Deno.test("cda: maybe() is cheap; other XML is not a record and stays as it is", async () => {
  assertEquals(cda.maybe("<thread><name>ob_cda</name></thread>"), false);
  assertEquals(scanCda("the ClinicalDocument root element"), undefined);
  await using h = await testEngine("on");
  const plain =
    '<thread name="ob_cda_out"><protocol>tcpip</protocol><port>7710</port><state>up</state></thread>';
  assertEquals((await h.engine.sanitizeToolResult(plain, "bash_exec")).text, plain);
});

Deno.test("cda generated: 30 documents, pretty and one line, every value tokenized, facts stay", async () => {
  let checked = 0;
  for (let seed = 1; seed <= 30; seed++) {
    await using h = await testEngine("on");
    const g = cdaDocument(seed, seed % 2 === 1);
    const text = seed % 3 === 0 ? JSON.stringify({ thread: "ob_cda", msg: g.text }) : g.text;
    const r = await h.engine.sanitizeToolResult(text, "read_file");
    for (const p of g.phi) {
      checked++;
      assert(!leaks(r.text, p.value), `seed ${seed}: ${p.category} ${p.value} leaked`);
    }
    for (const f of g.facts) assert(r.text.includes(f), `seed ${seed}: fact ${f} changed`);
    assertEquals(h.engine.detokenize(r.text).text, text, `seed ${seed}`);
  }
  assert(checked >= 600, String(checked));
});
