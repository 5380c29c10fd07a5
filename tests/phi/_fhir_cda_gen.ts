/**
 * Generated FHIR R4 Bundles and C-CDA documents for the record-format tests and bench: synthetic
 * persons (tests/support/phi_corpus.ts PhiFactory over the seeded PRNG), every person value listed
 * with its category, and the engine facts (codes, systems, ids of resources, transaction dates,
 * organization data) that must stay. The shapes follow the FHIR R4 specification's example
 * resources (patient-example, bundle-transaction, encounter-example, coverage-example,
 * device-example) and HL7's C-CDA R2.1 examples (CCD, Discharge Summary): key order, pretty-printing
 * and optional elements vary by seed so no two records read alike.
 */
import { PhiFactory } from "../support/phi_corpus.ts";

export interface Placed {
  value: string;
  category: string;
}

export interface GenRecord {
  text: string;
  /** Values that must be tokenized. */
  phi: Placed[];
  /** Engine facts that must stay in clear. */
  facts: string[];
}

const cap = (w: string) => w[0] + w.slice(1).toLowerCase();
const pad = (n: number) => String(n).padStart(2, "0");
const STREETS = [
  "Larkspur Ln",
  "Quarry Hill Rd",
  "Wexford Ct",
  "Old Mill Way",
  "Tamarack Dr",
  "Harbor View Ter",
];
const CITIES = ["Okemos", "Montpelier", "Cheyenne Wells", "Saugatuck", "Brattleboro", "Ypsilanti"];
const COUNTIES = ["Ingham", "Washington", "Kit Carson", "Allegan", "Windham", "Washtenaw"];
const STATES = ["MI", "VT", "CO", "OR", "WA", "NM"];
const LOINC = [["8302-2", "Body height"], ["29463-7", "Body weight"], ["4548-4", "Hemoglobin A1c"]];

/** Shuffles the keys of a plain object (FHIR does not fix key order; resourceType not always first). */
function shuffle<T extends Record<string, unknown>>(f: PhiFactory, o: T): T {
  const keys = Object.keys(o);
  for (let i = keys.length - 1; i > 0; i--) {
    const j = f.int(0, i);
    [keys[i], keys[j]] = [keys[j], keys[i]];
  }
  const out: Record<string, unknown> = {};
  for (const k of keys) out[k] = o[k];
  return out as T;
}

/** A FHIR Bundle of `patients` patients, each with an encounter, coverage, device and observation. */
export function fhirBundle(seed: number, patients = 3, pretty = true): GenRecord {
  const f = new PhiFactory(seed);
  const phi: Placed[] = [];
  const facts: string[] = [
    '"resourceType"',
    '"Bundle"',
    '"transaction"',
    "2026-11-02T08:00:00Z",
    "http://loinc.org",
  ];
  const put = (value: string, category: string) => (phi.push({ value, category }), value);
  const entry: unknown[] = [];
  const orgId = `org-${seed}`;
  entry.push({
    fullUrl: `http://fhir.example.org/Organization/${orgId}`,
    resource: {
      resourceType: "Organization",
      id: orgId,
      identifier: [{ system: "http://hl7.org/fhir/sid/us-npi", value: "1679576722" }],
      name: "Riverside Community Hospital",
      telecom: [{ system: "phone", value: "(800) 555-0100" }],
      address: [{ line: ["1 Hospital Plaza"], city: "Fairhaven", state: "MI", postalCode: "49401" }],
    },
    request: { method: "PUT", url: `Organization/${orgId}` },
  });
  facts.push("Riverside Community Hospital", "1 Hospital Plaza", "1679576722", `Organization/${orgId}`);
  const pracNpi = f.npi();
  const prac = f.person();
  entry.push({
    fullUrl: "urn:uuid:6f1e2c3a-0000-4000-8000-00000000d0c7",
    resource: shuffle(f, {
      resourceType: "Practitioner",
      id: `prac-${seed}`,
      identifier: [{ system: "http://hl7.org/fhir/sid/us-npi", value: put(pracNpi, "NPI") }],
      name: [{ family: put(cap(prac.last), "NAME"), given: [put(cap(prac.first), "NAME")], prefix: ["Dr"] }],
      telecom: [{ system: "phone", value: put(f.phone(1), "PHONE"), use: "work" }],
    }),
    request: { method: "POST", url: "Practitioner" },
  });
  for (let k = 0; k < patients; k++) {
    const p = f.person();
    const kin = f.person();
    const mrn = put(`E${f.mrn()}`, "MRN");
    const uuid = `urn:uuid:${f.uniqueDigits(8)}-7c1d-4b8e-9a2f-${f.uniqueDigits(12)}`;
    const b = f.dob();
    const dob = `${b.y}-${pad(b.m)}-${pad(b.d)}`;
    const i = f.int(0, STREETS.length - 1);
    const street = `${f.int(10, 9899)} ${STREETS[i]}`;
    const phone = f.phone();
    const email = f.email(p);
    const zip = `${f.int(1, 9)}${f.uniqueDigits(4)}`;
    const ssn = f.ssn();
    const given = cap(p.first), family = cap(p.last);
    const kinFamily = cap(kin.last);
    put(uuid.slice(9), "MRN");
    put(given, "NAME");
    put(family, "NAME");
    put(dob, "DOB");
    put(street, "ADDRESS");
    put(CITIES[i], "ADDRESS");
    put(COUNTIES[i], "ADDRESS");
    put(zip, "ADDRESS");
    put(phone, "PHONE");
    put(email, "EMAIL");
    put(ssn, "SSN");
    put(kinFamily, "NAME");
    const kinPhone = put(f.phone(2), "PHONE");
    const patient = shuffle(f, {
      resourceType: "Patient",
      id: uuid.slice(9),
      meta: {
        lastUpdated: "2026-11-02T08:00:00Z",
        profile: ["http://hl7.org/fhir/us/core/StructureDefinition/us-core-patient"],
      },
      text: {
        status: "generated",
        div: `<div xmlns="http://www.w3.org/1999/xhtml"><p>${given} ${family}, MRN ${mrn}</p></div>`,
      },
      identifier: [
        {
          use: "usual",
          type: { coding: [{ system: "http://terminology.hl7.org/CodeSystem/v2-0203", code: "MR" }] },
          system: "urn:oid:2.16.840.1.113883.19.5",
          value: mrn,
        },
        { system: "http://hl7.org/fhir/sid/us-ssn", value: ssn },
      ],
      name: [{ use: "official", family, given: [given, p.middle], suffix: k % 2 ? ["Jr"] : undefined }],
      telecom: [{ system: "phone", value: phone, use: "home" }, { system: "email", value: email }],
      gender: k % 2 ? "male" : "female",
      birthDate: dob,
      address: [{
        use: "home",
        line: [street],
        city: CITIES[i],
        district: COUNTIES[i],
        state: STATES[i],
        postalCode: zip,
        country: "US",
      }],
      contact: [{
        relationship: [{ coding: [{ system: "http://terminology.hl7.org/CodeSystem/v2-0131", code: "N" }] }],
        name: { family: kinFamily, given: [cap(kin.first)] },
        telecom: [{ system: "phone", value: kinPhone }],
      }],
      managingOrganization: { reference: `Organization/${orgId}`, display: "Riverside Community Hospital" },
      generalPractitioner: [{ reference: "urn:uuid:6f1e2c3a-0000-4000-8000-00000000d0c7" }],
    });
    put(cap(kin.first), "NAME");
    entry.push({ fullUrl: uuid, resource: patient, request: { method: "POST", url: "Patient" } });
    const visit = put(`V${f.uniqueDigits(8)}`, "VISIT");
    const start = `2026-10-${pad(f.int(10, 28))}T${pad(f.int(0, 23))}:15:00-05:00`;
    put(start, "DATE");
    const encId = `enc-${seed}-${k}`;
    entry.push({
      fullUrl: `urn:uuid:0e5b${f.uniqueDigits(4)}-1111-4222-8333-${f.uniqueDigits(12)}`,
      resource: shuffle(f, {
        resourceType: "Encounter",
        id: encId,
        status: "finished",
        class: { system: "http://terminology.hl7.org/CodeSystem/v3-ActCode", code: "IMP" },
        identifier: [{
          type: { coding: [{ code: "VN" }] },
          system: "urn:oid:2.16.840.1.113883.19.5.2",
          value: visit,
        }],
        subject: { reference: uuid, display: `${given} ${family}` },
        participant: [{ individual: { reference: "urn:uuid:6f1e2c3a-0000-4000-8000-00000000d0c7" } }],
        period: { start },
        serviceProvider: { reference: `Organization/${orgId}`, display: "Riverside Community Hospital" },
      }),
      request: { method: "POST", url: "Encounter" },
    });
    facts.push(encId, '"finished"', '"IMP"');
    const member = put(`XGM${f.uniqueDigits(9)}`, "MEMBER");
    entry.push({
      resource: {
        resourceType: "Coverage",
        id: `cov-${seed}-${k}`,
        status: "active",
        subscriberId: member,
        beneficiary: { reference: uuid },
        payor: [{ reference: `Organization/${orgId}` }],
        class: [{
          type: { coding: [{ code: "group" }] },
          value: "CB135",
          name: "Corporate Baker's Inc. Local #35",
        }],
      },
    });
    facts.push("CB135", "Corporate Baker's Inc. Local #35");
    const serial = put(`SN-${f.uniqueDigits(7)}`, "DEVICE");
    const udi = put(`(01)0088${f.uniqueDigits(10)}(21)${f.uniqueDigits(6)}`, "DEVICE");
    entry.push({
      resource: {
        resourceType: "Device",
        id: `dev-${seed}-${k}`,
        udiCarrier: [{ deviceIdentifier: "00884838014", carrierHRF: udi }],
        serialNumber: serial,
        patient: { reference: uuid },
        type: { coding: [{ system: "http://snomed.info/sct", code: "468063009" }] },
      },
    });
    facts.push("468063009", "http://snomed.info/sct");
    const [code, display] = LOINC[k % LOINC.length];
    entry.push({
      resource: shuffle(f, {
        resourceType: "Observation",
        id: `obs-${seed}-${k}`,
        status: "final",
        code: { coding: [{ system: "http://loinc.org", code, display }] },
        subject: { reference: uuid },
        effectiveDateTime: "2026-10-31T09:30:00-05:00",
        valueQuantity: { value: 72.5 + k, unit: "kg", system: "http://unitsofmeasure.org", code: "kg" },
        note: [{ text: `Reviewed with ${given} ${family} by phone ${phone}.` }],
      }),
    });
    facts.push(code, display, `obs-${seed}-${k}`, "2026-10-31T09:30:00-05:00", "http://unitsofmeasure.org");
  }
  const bundle = {
    resourceType: "Bundle",
    id: `bundle-${seed}`,
    meta: { lastUpdated: "2026-11-02T08:00:00Z" },
    type: "transaction",
    timestamp: "2026-11-02T08:00:00Z",
    entry,
  };
  facts.push(`bundle-${seed}`);
  return { text: pretty ? JSON.stringify(bundle, null, 2) : JSON.stringify(bundle), phi, facts };
}

/** A C-CDA document (CCD shape) with a guardian, an author, an encounter and narrative. */
export function cdaDocument(seed: number, pretty = true): GenRecord {
  const f = new PhiFactory(seed);
  const phi: Placed[] = [];
  const put = (value: string, category: string) => (phi.push({ value, category }), value);
  const p = f.person(), g = f.person(), a = f.person();
  const mrn = put(f.mrn(), "MRN");
  const ssnDigits = put(f.uniqueDigits(9), "SSN");
  const i = f.int(0, STREETS.length - 1);
  const street = put(`${f.int(10, 9899)} ${STREETS[i]}`, "ADDRESS");
  const city = put(CITIES[i], "ADDRESS");
  const county = put(COUNTIES[i], "ADDRESS");
  const zip = put(`${f.int(1, 9)}${f.uniqueDigits(4)}`, "ADDRESS");
  const phone = f.phone(3).replace(/^\+1 /, "+1-");
  put(phone, "PHONE");
  const email = put(f.email(p), "EMAIL");
  const given = put(cap(p.first), "NAME"), family = put(cap(p.last), "NAME");
  const b = f.dob();
  const dob = put(`${b.y}${pad(b.m)}${pad(b.d)}`, "DOB");
  const gGiven = put(cap(g.first), "NAME"), gFamily = put(cap(g.last), "NAME");
  const gPhone = f.phone(1);
  put(gPhone, "PHONE");
  const npi = put(f.npi(), "NPI");
  const aGiven = put(cap(a.first), "NAME"), aFamily = put(cap(a.last), "NAME");
  const visit = put(`${f.uniqueDigits(9)}`, "VISIT");
  const low = put(`202610${pad(f.int(10, 20))}0815-0500`, "DATE");
  const high = put(`202610${pad(f.int(21, 28))}1400-0500`, "DATE");
  const docId = `TT${f.uniqueDigits(6)}`;
  const facts = [
    docId,
    "2.16.840.1.113883.10.20.22.1.2",
    "34133-9",
    "2.16.840.1.113883.6.1",
    "20261102103000-0500",
    "Good Health HIE",
    "321CX",
    "tel:",
    "mailto:",
    "1007 Health Drive",
    "Portland",
    "48765-2",
    "Penicillin G benzathine",
  ];
  const nl = pretty ? "\n" : "";
  const ind = (n: number) => (pretty ? "  ".repeat(n) : "");
  const lines = [
    `<ClinicalDocument xmlns="urn:hl7-org:v3" xmlns:sdtc="urn:hl7-org:sdtc" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">`,
    `${ind(1)}<realmCode code="US"/>`,
    `${ind(1)}<templateId root="2.16.840.1.113883.10.20.22.1.2" extension="2015-08-01"/>`,
    `${ind(1)}<id extension="${docId}" root="2.16.840.1.113883.19.5.99999.1"/>`,
    `${
      ind(1)
    }<code code="34133-9" displayName="Summary of episode note" codeSystem="2.16.840.1.113883.6.1"/>`,
    `${ind(1)}<title>Patient Chart Summary</title>`,
    `${ind(1)}<effectiveTime value="20261102103000-0500"/>`,
    `${ind(1)}<recordTarget>`,
    `${ind(2)}<patientRole>`,
    `${ind(3)}<id extension="${mrn}" root="2.16.840.1.113883.19.5.99999.2"/>`,
    `${ind(3)}<id extension="${ssnDigits}" root="2.16.840.1.113883.4.1"/>`,
    `${
      ind(3)
    }<addr use="HP"><streetAddressLine>${street}</streetAddressLine><city>${city}</city><county>${county}</county><state>${
      STATES[i]
    }</state><postalCode>${zip}</postalCode><country>US</country></addr>`,
    `${ind(3)}<telecom value="tel:${phone}" use="HP"/>`,
    `${ind(3)}<telecom value="mailto:${email}"/>`,
    `${ind(3)}<patient>`,
    `${
      ind(4)
    }<name use="L"><prefix>Ms.</prefix><given>${given}</given><given>${p.middle}</given><family>${family}</family></name>`,
    `${ind(4)}<administrativeGenderCode code="F" codeSystem="2.16.840.1.113883.5.1"/>`,
    `${ind(4)}<birthTime value="${dob}"/>`,
    `${ind(4)}<guardian>`,
    `${
      ind(5)
    }<code code="POWATT" displayName="Power of Attorney" codeSystem="2.16.840.1.113883.1.11.19830"/>`,
    `${ind(5)}<telecom value="tel:${gPhone}" use="MC"/>`,
    `${
      ind(5)
    }<guardianPerson><name><given>${gGiven}</given><family>${gFamily}</family></name></guardianPerson>`,
    `${ind(4)}</guardian>`,
    `${ind(3)}</patient>`,
    `${
      ind(3)
    }<providerOrganization><id extension="219BX" root="2.16.840.1.113883.4.6"/><name>Good Health Clinic</name>` +
    `<telecom use="WP" value="tel:+1(555)555-5000"/><addr><streetAddressLine>1007 Health Drive</streetAddressLine><city>Portland</city><state>OR</state></addr></providerOrganization>`,
    `${ind(2)}</patientRole>`,
    `${ind(1)}</recordTarget>`,
    `${
      ind(1)
    }<author><time value="20261102103000-0500"/><assignedAuthor><id extension="${npi}" root="2.16.840.1.113883.4.6"/>` +
    `<code code="207QA0505X" codeSystem="2.16.840.1.113883.6.101"/><assignedPerson><name><given>${aGiven}</given><family>${aFamily}</family><suffix>MD</suffix></name></assignedPerson></assignedAuthor></author>`,
    `${
      ind(1)
    }<custodian><assignedCustodian><representedCustodianOrganization><id extension="321CX" root="2.16.840.1.113883.4.6"/><name>Good Health HIE</name></representedCustodianOrganization></assignedCustodian></custodian>`,
    `${
      ind(1)
    }<componentOf><encompassingEncounter><id extension="${visit}" root="2.16.840.1.113883.19.5.99999.4"/>` +
    `<effectiveTime><low value="${low}"/><high value="${high}"/></effectiveTime></encompassingEncounter></componentOf>`,
    `${ind(1)}<component><structuredBody><component><section>`,
    `${
      ind(2)
    }<templateId root="2.16.840.1.113883.10.20.22.2.6.1"/><code code="48765-2" codeSystem="2.16.840.1.113883.6.1"/>`,
    `${ind(2)}<title>Allergies</title>`,
    `${ind(2)}<text><table><tbody><tr><td>Penicillin G benzathine</td><td>Hives</td></tr></tbody></table>` +
    `<paragraph>Reported by ${given} ${family}; guardian ${gGiven} ${gFamily} reachable at ${gPhone}.</paragraph></text>`,
    `${
      ind(2)
    }<entry><act classCode="ACT" moodCode="EVN"><id root="36e3e930-7b14-11db-9fe1-0800200c9a66"/><code code="CONC" codeSystem="2.16.840.1.113883.5.6"/>` +
    `<effectiveTime><low value="20261001"/></effectiveTime><participant typeCode="CSM"><participantRole classCode="MANU"><playingEntity classCode="MMAT">` +
    `<code code="7982" codeSystem="2.16.840.1.113883.6.88"/><name>Penicillin G benzathine</name></playingEntity></participantRole></participant></act></entry>`,
    `${ind(1)}</section></component></structuredBody></component>`,
    `</ClinicalDocument>`,
  ];
  return { text: lines.join(nl), phi, facts };
}
