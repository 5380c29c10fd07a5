/**
 * HL7 segments inside other encodings (issue #14, class 1) and base64 variants (class 2): the
 * carriers the PHI tests wrap generated messages in. Each carrier takes the segments of one message
 * and returns the text a tool or a file would hold.
 */
import { hl7Corpus, type PlacedPhi } from "../support/phi_corpus.ts";

const xmlEscape = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const json = (s: string) => JSON.stringify(s);

/** Carrier name → wrap function (segments of one message → text). */
export const CARRIERS: Record<string, (segs: string[]) => string> = {
  "xml &#13;": (s) => `<message id="1">${xmlEscape(s.join("\r")).replace(/\r/g, "&#13;")}</message>\n`,
  "xml &#xD;": (s) => `<msg>${xmlEscape(s.join("\r")).replace(/\r/g, "&#xD;")}</msg>`,
  "xml &#x0D;": (s) => `<Payload>${xmlEscape(s.join("\r")).replace(/\r/g, "&#x0D;")}</Payload>`,
  "xml &#10;": (s) => `<v>${xmlEscape(s.join("\n")).replace(/\n/g, "&#10;")}</v>`,
  "xml attribute": (s) => `<event data="${xmlEscape(s.join("\r")).replace(/\r/g, "&#13;")}"/>`,
  "double-escaped xml": (s) => `&lt;m&gt;${xmlEscape(xmlEscape(s.join("\r"))).replace(/\r/g, "&amp;#13;")}`,
  "html <br>": (s) => `<td>${xmlEscape(s.join("<br>"))}</td>`.replace(/&lt;br&gt;/g, "<br>"),
  "html <br/>": (s) => `<p>${s.map(xmlEscape).join("<br/>")}</p>`,
  "html <br />": (s) => `<div class="hl7">${s.map(xmlEscape).join("<br />\n")}</div>`,
  "json": (s) => `{"id": 7, "message": ${json(s.join("\r"))}}`,
  "json in json": (s) => `{"event": ${json(JSON.stringify({ payload: s.join("\r"), n: 1 }))}}`,
  "json in json, \\n": (s) => json(JSON.stringify({ hl7: s.join("\n") })),
  "json \\u000d": (s) => `{"m": "${s.map((x) => json(x).slice(1, -1)).join("\\u000d")}"}`,
  "json \\\\u000d": (s) =>
    `{"m": "${s.map((x) => json(json(x).slice(1, -1)).slice(1, -1)).join("\\\\u000d")}"}`,
  "literal <CR>": (s) => `received: ${s.join("<CR>")}<CR>`,
  "literal ^M": (s) => `${s.join("^M")}^M`,
  "written \\r": (s) => `2026-11-24 01:02:03 msg=${s.join("\\r")}`,
  "written \\r\\n": (s) => `DEBUG payload: ${s.join("\\r\\n")}\\r\\n`,
  "tcl list": (s) => `set msgs {${s.map((x) => `{${x}}`).join(" ")}}`,
  "tcl list, one per line": (s) => `keylset m SEGS {\n${s.map((x) => `  {${x}}`).join("\n")}\n}`,
  "xml cdata": (s) => `<hl7><![CDATA[${s.join("\r")}]]></hl7>`,
  "xml cdata, one line": (s) => `<![CDATA[${s.join("\\r")}]]>`,
  "sql insert": (s) =>
    `INSERT INTO msg_log (id, seg) VALUES\n${
      s.map((x, i) => `  (${i + 1}, '${x.replace(/'/g, "''")}')`).join(",\n")
    };`,
  "sql one row": (s) => `INSERT INTO m VALUES (1, '${s.join("\r").replace(/'/g, "''")}', now());`,
  "csv quoted": (s) => `seq,segment,flag\n${s.map((x, i) => `${i},"${x.replace(/"/g, '""')}",Y`).join("\n")}`,
  "csv one cell": (s) => `1,"${s.join("\\r").replace(/"/g, '""')}",done`,
  "log prefix": (s) => s.map((x) => `2026-11-24 01:02:03.125 adt_in|IN|${x}`).join("\n"),
  "log prefix, bracket": (s) => s.map((x) => `[2026-11-24T01:02:03Z] [pdl-7] OUT ${x}`).join("\n"),
  // Separators and `&` URL-encoded (free text keeps its spaces: the free-text tiers read the
  // carrier's own text, and `+` for a space is not decoded for them).
  "url-encoded %0D": (s) => `GET /hl7/in?msg=${s.map((x) => x.replace(/&/g, "%26")).join("%0D")}%0D`,
  "control pictures ␍": (s) => `copied from the monitor: ${s.join("␍")}␍`,
  "octal \\015 in a Tcl string": (s) => `set raw "${s.join("\\015")}"`,
  "python bytes repr": (s) => `b'${s.join("\\r").replace(/'/g, "\\'")}'`,
  "markdown inline code": (s) => s.map((x) => `- segment \`${x}\` was rejected`).join("\n"),
  "quoted-printable =0D=0A": (s) =>
    `Content-Transfer-Encoding: quoted-printable\n\n${s.join("=0D=0A")}=0D=0A`,
  "HL7 hex escape \\X0D\\": (s) => `${s.join("\\X0D\\")}\\X0D\\`,
  "log <0x0D>": (s) => `2026-11-24 01:02:03 rx: ${s.join(" <0x0D> ")} <0x0D>`,
  "segments on one line, spaces": (s) => `pasted from the ticket: ${s.join(" ")}`,
  "upper-case thread prefix": (s) => s.map((x) => `ADT|IN|${x}`).join("\n"),
  "lone segments": (s) =>
    s.slice(1).map((x) => `the engine rejected this segment:\n${x}\nplease look`).join("\n\n"),
};

export interface CarrierCase {
  carrier: string;
  text: string;
  /** The PHI values placed in the message (its structured fields and free text). */
  phi: PlacedPhi[];
}

/**
 * `count` generated messages in every carrier. Only the structured values and the free-text values
 * the message places are recorded (the generator's list).
 */
export function carrierCorpus(count: number, seed = 1401): CarrierCase[] {
  const out: CarrierCase[] = [];
  const msgs = hl7Corpus(count * Object.keys(CARRIERS).length, seed);
  let k = 0;
  for (const [carrier, wrap] of Object.entries(CARRIERS)) {
    for (let i = 0; i < count; i++) {
      const m = msgs[k++];
      const segs = m.text.split("\r").filter((x) => x !== "");
      const lone = carrier === "lone segments";
      out.push({
        carrier,
        text: wrap(segs),
        phi: lone ? m.phi.filter((p) => !/^MSH/.test(p.where)) : m.phi,
      });
    }
  }
  return out;
}

/** The parts of a value worth checking alone: the value, and each component of 3 or more characters. */
export function valueParts(value: string): string[] {
  const parts = value.split(/[\^~&]/).filter((p) => p.length >= 3);
  return [...new Set([value, ...parts])];
}
