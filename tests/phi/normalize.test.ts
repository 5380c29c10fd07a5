import { deepStrictEqual as assertEquals } from "node:assert/strict";
import {
  canonicalize,
  detectCategory,
  isCanonicalAsciiName,
  normalizeName,
  parseDate,
} from "../../phi/normalize.ts";
import { mulberry32, randomText } from "../support/prng.ts";

Deno.test("NAME: the spec's forms collapse to one canonical value", () => {
  for (
    const form of ["SMITH^JOHN", "Smith, John", "John Smith", "JOHN SMITH", "smith/john", " John  SMITH "]
  ) {
    assertEquals(canonicalize("NAME", form), "john smith", form);
  }
  assertEquals(canonicalize("NAME", "SMITH^JOHN^A^^DR"), "a dr john smith");
  assertEquals(canonicalize("NAME", "O'Brien, Pat"), "o'brien pat");
  assertEquals(canonicalize("NAME", "Núñez^José"), "josé núñez");
  assertEquals(canonicalize("NAME", "Smith Jr., John"), "john jr smith");
  assertEquals(canonicalize("NAME", "smith^smith^john"), "john smith", "unique tokens");
  assertEquals(canonicalize("NAME", "12345"), "12345", "no alphabetic token: trimmed, lowercase");
});

Deno.test("DOB: HL7, ISO and US forms become YYYY-MM-DD; non-dates are trimmed", () => {
  for (
    const form of [
      "19800315",
      "198003151230",
      "19800315123045",
      "19800315123045.5-0500",
      "1980-03-15",
      "1980-03-15T10:00:00Z",
      "1980/03/15",
      "03/15/1980",
      "3/15/1980",
      "03-15-1980",
      "03.15.1980",
      "3/15/80",
      "Mar 15, 1980",
      "March 15 1980",
      "15 Mar 1980",
      "15-Mar-1980",
    ]
  ) {
    assertEquals(canonicalize("DOB", form), "1980-03-15", form);
  }
  assertEquals(parseDate("1980-02-30"), undefined);
  assertEquals(parseDate("2024-02-29"), "2024-02-29");
  assertEquals(parseDate("2023-02-29"), undefined);
  assertEquals(parseDate("13/01/1980"), undefined);
  assertEquals(canonicalize("DOB", " unknown "), "unknown");
});

Deno.test("SSN, PHONE digits; EMAIL lowercase; MRN and MANUAL trimmed; NPI digits when numeric", () => {
  assertEquals(canonicalize("SSN", "123-45-6789"), "123456789");
  assertEquals(canonicalize("PHONE", "(555) 123-4567"), "5551234567");
  assertEquals(canonicalize("EMAIL", " Jane.Doe@Example.ORG "), "jane.doe@example.org");
  assertEquals(canonicalize("MRN", "  E1234567 "), "E1234567");
  assertEquals(canonicalize("MANUAL", " Springfield General "), "Springfield General");
  assertEquals(canonicalize("NPI", "NPI: 1234-567-893"), "1234567893");
  assertEquals(canonicalize("NPI", "DR1234"), "DR1234");
  assertEquals(canonicalize("EMP", " E-77 "), "E-77", "custom categories are trimmed");
  assertEquals(canonicalize("presidio_PERSON", "Smith, John"), "john smith");
});

Deno.test("category auto-detection for manual markers follows the spec's table in order", () => {
  const rows: Array<[string, string]> = [
    ["1234", "MRN"],
    ["123456789012345", "MRN"],
    ["123", "MANUAL"],
    ["1234567890123456", "MANUAL"],
    ["19800315", "MRN"], // pure digits wins over date-shaped
    ["123-45-6789", "SSN"],
    ["1980-03-15", "DOB"],
    ["03/15/1980", "DOB"],
    ["SMITH^JOHN", "NAME"],
    ["Smith, John", "NAME"],
    ["John Smith", "NAME"],
    ["Springfield", "MANUAL"],
    ["E1234567", "MANUAL"],
    ["room 12", "MANUAL"],
  ];
  for (const [v, cat] of rows) assertEquals(detectCategory(v), cat, v);
});

Deno.test("NAME, PHONE, ADDRESS fast paths give what the plain regex forms give, on random input", () => {
  const rand = mulberry32(5);
  const alphabet = [
    "A",
    "b",
    "Z",
    "q",
    " ",
    "  ",
    ",",
    "^",
    "/",
    "\t",
    "-",
    "'",
    ".",
    "é",
    "Ö",
    "1",
    "7",
    "(",
    ")",
    "\u00a0",
  ];
  const str = () => randomText(rand, alphabet, 14);
  // The forms of the spec's table, written the slow way.
  const refName = (v: string) => {
    const seen = new Set<string>();
    for (let tok of v.toLowerCase().split(/[\s,^/]+/u)) {
      tok = tok.replace(/^[.'"(]+|[.'")]+$/g, "");
      if (tok && /^\p{L}[\p{L}'\u2019-]*$/u.test(tok)) seen.add(tok);
    }
    return seen.size === 0 ? v.trim().toLowerCase() : [...seen].sort().join(" ");
  };
  for (let i = 0; i < 20000; i++) {
    const v = str();
    assertEquals(canonicalize("NAME", v), refName(v), JSON.stringify(v));
    assertEquals(canonicalize("PHONE", v), v.replace(/\D+/g, ""), JSON.stringify(v));
    assertEquals(canonicalize("ADDRESS", v), v.trim().replace(/\s+/g, " ").toLowerCase(), JSON.stringify(v));
  }
});

Deno.test("NAME: the canonical-form check agrees with normalizeName (it is what normalizeName gives back unchanged)", () => {
  const rand = mulberry32(9);
  const alphabet = ["a", "b", "c", "z", " ", "  ", "A", "^", ",", "é", "-"];
  let yes = 0;
  for (let i = 0; i < 50000; i++) {
    const v = randomText(rand, alphabet, 10);
    if (isCanonicalAsciiName(v)) {
      yes++;
      assertEquals(normalizeName(v), v, JSON.stringify(v));
    }
    const n = normalizeName(v);
    if (/^[a-z ]+$/.test(n)) assertEquals(isCanonicalAsciiName(n), true, JSON.stringify(n));
  }
  assertEquals(yes > 1000, true);
  for (const bad of ["", " a", "a ", "b a", "a a", "a  b", "ab aa"]) {
    assertEquals(isCanonicalAsciiName(bad), false, bad);
  }
  for (const good of ["a", "a b", "aa ab", "a doe jane", "doe jane"]) {
    assertEquals(isCanonicalAsciiName(good), true, good);
  }
});
