/**
 * Reading a file's bytes as text: hl7/charset.ts's decodeBytes (MSH-18 lookup, UTF-8 check,
 * Windows-1252 fallback) against the plain `TextDecoder().decode` every reader used before, on a
 * generated file of 1,000 ~1 KB ADT^A01 messages (~1 MB), in UTF-8 and in Latin-1 (MSH-18 8859/1,
 * names with umlauts). Also the write-back (encodeText) against TextEncoder.
 */
import { decodeBytes, encodeText } from "../hl7/charset.ts";
import { adtFile } from "./_gen_hl7.ts";

const FILE = adtFile(1000);
const UTF8 = new TextEncoder().encode(FILE);
// The same file declared and written in Latin-1, with a non-ASCII letter in every PID.
const LATIN1_TEXT = FILE.replaceAll("|2.5.1|||AL|NE\r", "|2.5.1|||AL|NE|DEU|8859/1\r").replaceAll(
  "PID|1",
  "PID|\u00c41",
);
const LATIN1 = new Uint8Array([...LATIN1_TEXT].map((c) => c.charCodeAt(0)));
const decodedUtf8 = decodeBytes(UTF8);
const decodedLatin1 = decodeBytes(LATIN1);
if (decodedLatin1.regions[0].declared !== "8859/1") throw new Error("generator: MSH-18 not found");

Deno.bench("TextDecoder().decode: UTF-8 file (~1 MB)", { group: "decode", baseline: true }, () => {
  new TextDecoder().decode(UTF8);
});

Deno.bench("decodeBytes: UTF-8 file (~1 MB)", { group: "decode" }, () => {
  decodeBytes(UTF8);
});

Deno.bench("decodeBytes: Latin-1 file, MSH-18 8859/1 (~1 MB)", { group: "decode" }, () => {
  decodeBytes(LATIN1);
});

Deno.bench("TextEncoder().encode: UTF-8 file (~1 MB)", { group: "encode", baseline: true }, () => {
  new TextEncoder().encode(decodedUtf8.text);
});

Deno.bench("encodeText: UTF-8 file (~1 MB)", { group: "encode" }, () => {
  encodeText(decodedUtf8.text, decodedUtf8);
});

Deno.bench("encodeText: Latin-1 file (~1 MB)", { group: "encode" }, () => {
  encodeText(decodedLatin1.text, decodedLatin1);
});
