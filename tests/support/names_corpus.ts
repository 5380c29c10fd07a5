/**
 * A names-in-free-text corpus for the built-in tier 5 (phi/names/): hand-written operator notes,
 * tickets and e-mails with the person names marked `{{...}}`, plus generated sentences that put
 * names from tests/support/phi_corpus.ts (not from the recognizer's lexicon packages) into cue-led,
 * bare and `LAST, First` forms. Every text also carries engine vocabulary that must stay as it is.
 */
import { PhiFactory } from "./phi_corpus.ts";

export interface NamesText {
  text: string;
  names: string[];
  /** Words that must survive untouched (vendors, HL7 terms, engine names). */
  keep: string[];
}

/** `{{Name}}` marks a name; returns the text without marks and the names. */
export function unmark(marked: string, keep: string[] = []): NamesText {
  const names: string[] = [];
  const text = marked.replace(/\{\{([^}]+)\}\}/g, (_, n: string) => {
    names.push(n);
    return n;
  });
  return { text, names, keep };
}

export const HANDWRITTEN: NamesText[] = [
  unmark("Spoke with {{Dana Whitfield}} at Quest about the ORU backlog on ib_quest_oru.", ["Quest", "ORU"]),
  unmark("Per {{Marisol}}, the Epic ADT feed is back up since 14:05.", ["Epic", "ADT"]),
  unmark("cc: {{Ravi Shankar}}, {{Lena Hoffmann}}\nSubject: Cerner outbound queue depth", ["Cerner"]),
  unmark("Dr. {{Okonkwo}} wants the A08 for the patient resent to Meditech.", ["A08", "Meditech"]),
  unmark("Mrs. {{Evelyn Castellano}} called the help desk about her lab results.", ["help desk"]),
  unmark("Patient {{Tomas Berg}} was admitted twice; the second A01 went to Allscripts.", [
    "A01",
    "Allscripts",
  ]),
  unmark("Thanks,\n{{Priya Natarajan}}\nInterface Team", ["Interface Team"]),
  unmark("{{SMITH, John}} appears in PID.5 on the retransmitted message.", ["PID.5"]),
  unmark("NOTE: {{KOWALSKI HANA}} DISCHARGED TO HOME, ADT^A03 SENT", ["ADT^A03"]),
  unmark("Left a voicemail for {{Ngozi Okafor}} regarding the duplicate MRN merge.", ["MRN"]),
  unmark("Attending Doctor field is empty; Ordering Provider is {{Hector Alvarez}}.", ["Attending Doctor"]),
  unmark("My name is {{Rubija}} and I run the Cloverleaf night shift.", ["Cloverleaf"]),
  unmark("Escalated to {{Jennifer Park}} and {{Michael O'Brien}} on the Rhapsody side.", ["Rhapsody"]),
  unmark("Mr {{Abernathy}} asked whether Labcorp received order 4471.", ["Labcorp"]),
  unmark("{{Grace Liu}} restarted the thread adt_to_lab after the Xlate change.", ["adt_to_lab", "Xlate"]),
  unmark("Talked to {{Samuel Adeyemi}}; he confirms the MSH-4 sending facility is wrong.", ["MSH-4"]),
  unmark("Regards,\n{{Fatima Zahra Benali}}", []),
  unmark("The family asked that {{Yusuf}} not receive portal messages.", []),
  unmark("Reviewed with {{Carlos Mendoza}} from Infor support; case 88213 stays open.", ["Infor"]),
  unmark("Signed: {{Helen Marsh}}, RN", ["RN"]),
  unmark("Message Type ORU^R01 Event Type Code R01 Sending Application EPIC", ["ORU^R01", "EPIC"]),
  unmark("Thread Status Error Count; Inbound Queue; Quest Diagnostics feed; Epic Bridges", [
    "Thread Status",
    "Quest Diagnostics",
    "Epic Bridges",
  ]),
];

const CUES: ReadonlyArray<(n: string) => string> = [
  (n) => `Spoke with ${n} about the resend of last night's batch.`,
  (n) => `Per ${n}, the interface engine resent the message.`,
  (n) => `cc: ${n}`,
  (n) => `Patient ${n} was transferred to 4 West.`,
  (n) => `Please call ${n} back about the missing ORU.`,
  (n) => `The ticket was opened by ${n} yesterday.`,
  (n) => `${n} reported the Epic feed as down at 02:10.`,
  (n) => `Thanks,\n${n}`,
];

/** Generated texts: `count` names from the test factory in cue-led, bare and inverted forms. */
export function generatedNames(count: number, seed = 41): NamesText[] {
  const f = new PhiFactory(seed);
  const cap = (s: string) => s.charAt(0) + s.slice(1).toLowerCase();
  const out: NamesText[] = [];
  for (let i = 0; i < count; i++) {
    const p = f.person();
    const first = cap(p.first), last = cap(p.last);
    const form = i % 4;
    const name = form === 0
      ? `${first} ${last}`
      : form === 1
      ? `${last}, ${first}`
      : form === 2
      ? `${first} ${p.middle.charAt(0)}. ${last}`
      : `Dr. ${last}`;
    const value = form === 3 ? last : name;
    const tpl = CUES[i % CUES.length];
    out.push({ text: tpl(name), names: [value], keep: ["Epic", "ORU"].filter((k) => tpl(name).includes(k)) });
  }
  return out;
}
