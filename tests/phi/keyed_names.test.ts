/**
 * Names given by their key (JSON `lastName`/`firstName`, FHIR `family`/`given` in JSON and XML,
 * XML elements, `key=value`) and known names in the cells of `|` rows.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { leaks, testEngine } from "./_support.ts";
import { findKeyedNames } from "../../phi/keyed_names.ts";
import { hl7Corpus, PhiFactory, toolOutputCorpus } from "../support/phi_corpus.ts";

Deno.test("keyed names: the value of each name key, in each carrier", () => {
  const v = (t: string) => findKeyedNames(t).map((k) => [k.value, k.part]);
  assertEquals(v('{"lastName":"Vanderhoeven","firstName":"Horatio"}'), [
    ["Vanderhoeven", "family"],
    ["Horatio", "given"],
  ]);
  assertEquals(v('{"name":[{"use":"official","family":"Chalmers","given":["Peter","James"]}]}'), [
    ["Chalmers", "family"],
    ["Peter", "given"],
    ["James", "given"],
  ]);
  assertEquals(v('<name><family value="Chalmers"/><given value="Peter"/></name>'), [
    ["Chalmers", "family"],
    ["Peter", "given"],
  ]);
  assertEquals(v("<ns:PatientName>Jane Roe</ns:PatientName>"), [["Jane Roe", "whole"]]);
  assertEquals(v('msg={\\"last_name\\":\\"Okafor\\",\\"first-name\\":\\"Ngozi\\"}'), [
    ["Okafor", "family"],
    ["Ngozi", "given"],
  ]);
  assertEquals(v("lname=Smith fname=adt.tcl patient_name=Mary Ann Jones status=ok"), [
    ["Smith", "family"],
    ["Mary Ann Jones", "whole"],
  ]);
  // Generic keys, placeholders, codes and numbers are not names.
  assertEquals(v('{"name":"adt_in","family":"ADT","given":null,"lastName":"unknown","surname":"N/A"}'), []);
  assertEquals(v('{"firstName":"12345","lastName":"","patientName":"[[NAME_1]]"}'), []);
});

Deno.test("keyed names through the gate: every record of a generated FHIR bundle and JSON export, exact round trip", async () => {
  await using h = await testEngine("on");
  const f = new PhiFactory(909);
  const people = Array.from({ length: 30 }, () => f.person());
  const cap = (w: string) => w[0] + w.slice(1).toLowerCase();
  const bundle = JSON.stringify(
    {
      resourceType: "Bundle",
      entry: people.slice(0, 15).map((p, i) => ({
        resource: {
          resourceType: "Patient",
          id: `pat-${i}`,
          name: [{ use: "official", family: cap(p.last), given: [cap(p.first), p.middle] }],
          gender: i % 2 ? "male" : "female",
        },
      })),
    },
    null,
    2,
  );
  const exportRows = JSON.stringify(
    people.slice(15).map((p, i) => ({ lastName: p.last, firstName: cap(p.first), thread: `adt_in_${i}` })),
  );
  const xml = people.slice(0, 5).map((p) =>
    `<Patient><name><family value="${cap(p.last)}"/><given value="${cap(p.first)}"/></name></Patient>`
  ).join("\n");
  for (const [label, text] of [["bundle", bundle], ["export", exportRows], ["xml", xml]]) {
    for (const surface of ["prompt", "tool"] as const) {
      const r = surface === "prompt"
        ? await h.engine.tokenizeUserInput(text)
        : await h.engine.sanitizeToolResult(text, "read_file");
      for (const p of people) {
        for (const w of [p.last, cap(p.last), cap(p.first)]) {
          if (text.includes(`"${w}"`)) assert(!leaks(r.text, w), `${label} (${surface}): ${w} leaked`);
        }
      }
      assertEquals(h.engine.detokenize(r.text).text, text, `${label} (${surface})`);
      // Keys and the rest stay.
      for (
        const keep of ['"resourceType"', '"family"', '"given"', '"lastName"', "adt_in_3", "<family value="]
      ) {
        if (text.includes(keep)) assert(r.text.includes(keep), `${label}: ${keep} changed`);
      }
    }
  }
});

Deno.test("known names in the cells of | rows get tokens; other rows stay", async () => {
  await using h = await testEngine("on");
  let checked = 0;
  for (const m of hl7Corpus(20, 1212)) {
    const [last, first] = m.phi.find((p) => p.where === "PID.5")!.value.split("^");
    await h.engine.sanitizeToolResult(m.text, "read_file"); // the name is known from here on
    const rows = `last|first|thread\n${last}|${first}|adt_in\n${first} | ${last} | adt_out`;
    const r = await h.engine.sanitizeToolResult(rows, "bash_exec");
    for (const w of [last, first]) {
      checked++;
      assert(!leaks(r.text, w), `${w} leaked:\n${r.text}`);
    }
    assert(r.text.startsWith("last|first|thread\n") && r.text.includes("|adt_in\n"), r.text);
    assertEquals(r.text.split("|").length, rows.split("|").length, "cells kept");
    assertEquals(h.engine.detokenize(r.text).text, rows);
  }
  assertEquals(checked, 40);
  const plain = "vendor|product\nEpic|Cerner\nInfor|Cloverleaf\nadt_in|up|4211";
  assertEquals((await h.engine.sanitizeToolResult(plain, "bash_exec")).text, plain);
});

Deno.test("keyed names: the whole value is one name, before any other finder takes part of it", async () => {
  await using h = await testEngine("on");
  const text = "patient_name=Mary Ann Jones status=ok lname=smith";
  const r = await h.engine.sanitizeToolResult(text, "bash_exec");
  assertEquals(r.tokenized.map((t) => t.value), ["Mary Ann Jones", "smith"], r.text);
  assertEquals(h.engine.detokenize(r.text).text, text);
});

Deno.test("keyed names: operator JSON and logs without person keys stay as they are", async () => {
  await using h = await testEngine("on");
  const plain = [
    '{"name":"adt_in","type":"thread","state":"up","port":7001,"family":"ADT","given":null}',
    '{"threads":[{"name":"ib_epic","status":"running"}],"lastName":null,"firstName":""}',
    "<thread><name>adt_out</name><family>ADT</family><state>up</state></thread>",
    "proc=tps_route lname=tps_x.tcl user=hci host=engine01",
    "Set family = ADT and given = A08 in the route config",
    '{"thread":"adt_in","family":"inbound","given":"tcp","lastName":"N/A","port":7001}',
  ];
  for (const t of plain) assertEquals((await h.engine.sanitizeToolResult(t, "bash_exec")).text, t);
  for (const t of toolOutputCorpus(77)) {
    const r = await h.engine.sanitizeToolResult(t, "bash_exec");
    assertEquals(r.tokenized.filter((x) => x.context?.startsWith("key ")), []);
  }
});
