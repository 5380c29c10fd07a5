/**
 * Safe Harbor identifiers in prose (issue #23 item 8, the free-text part): what tier 2 finds beside
 * the spec's seven categories, each by a cue or a shape strong enough on its own. Run by
 * phi/detect.ts right after tier 2, so it obeys the same never-tokenize list (but for IP addresses:
 * see below).
 *
 * | Category | What matches |
 * |---|---|
 * | ADDRESS | a postal block (a street line, a unit line `Suite 286` / `Apt. 4B` / `Unit 5022 Box 1225`, the city, `Country 12345`): the street line, the unit, the city and the postal code each a value (a state code and a country stay); a street line with a street suffix (`12 Oak Street`, `400 N Main St Apt 4B`), a PO box (`P.O. Box 101`, `PSC 3357, Box 1530`, `APO AE 74402`), a ZIP+4 (`62704-1234`), a city/state/ZIP after a street (`, Springfield, IL 62704`); after an address cue (`address:`, `my address is`, `lives at`, `moved to`, `send it to`, `ship to`, `zip code is`, ...) the clause up to its end |
 * | IP | an IPv4 or IPv6 address presented as a person's: the client of a web/portal access log line (`203.0.113.5 - - [..] "GET /portal/..."`), or after a client cue (`client`, `client_ip`, `remote_addr`, `X-Forwarded-For`, `visitor`, `user ip`, `patient`, `portal`, `logged in from`, `my ip`), or after `address`/`ip` in a sentence about browsing or logging in. An engine host (`host 10.20.30.40`, `10.20.30.40:6001`, `connect to 10.20.30.40`) stays |
 * | AGE | an age over 89: `92-year-old`, `92 yo`, `age 94`, `aged 101`, `94 years old` |
 * | LICENSE | after `DL#`, `DL no`, `driver's license`, `drivers licence`, `license #` / `licence no` |
 * | DEVICE | after `serial number`, `serial no`, `S/N`, `SN:`, `device id`; a UDI `(01)...(21)...` |
 * | MEMBER | after `member id`, `subscriber id`, `policy #`, `policy number`, `insurance id`, `group #` does not count |
 * | ACCOUNT | after `account`, `acct`, `FIN` (an identifier: letters and digits with 4+ digits) |
 * | VISIT | after `visit`, `encounter`, `CSN` |
 * | MRN, DOB, NAME in URLs and paths | the value of a patient parameter (`?mrn=`, `patient_id=`, `dob=`, `name=`), the id after `/patients/`, the MRN and the name parts of a scan named by them (`/scans/00123_SMITH_JOHN.pdf`); the rest of the URL stays readable |
 *
 * IP addresses are written like versions (`10.20.30.40` is also a dotted number), which the
 * never-tokenize list protects: an IP found here in a patient's context is an exact decision (the
 * context rule is the decision), so it is taken over that protection.
 *
 * @module
 */
import { type Candidate, candidate } from "./candidate.ts";
import { canonicalize } from "./normalize.ts";
import { cand, digitCount } from "./_tier_common.ts";

const IPV4 = String.raw`(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?:\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}`;
const IPV6 = String
  .raw`(?:[0-9A-Fa-f]{1,4}:){7}[0-9A-Fa-f]{1,4}|(?:[0-9A-Fa-f]{1,4}:){1,6}:(?:[0-9A-Fa-f]{1,4}:){0,5}[0-9A-Fa-f]{1,4}`;
const IP_RE = new RegExp(String.raw`(?<![\w.:])(?:${IPV4}|${IPV6})(?![\w.:]|\.\d)`, "g");
/** A person's address cue right before an IP (same line, up to 40 characters). */
const IP_CLIENT_CUE =
  /(?:\bclient(?:[_ -]?(?:ip|addr(?:ess)?|host))?|\bremote[_ -]?(?:addr(?:ess)?|ip|host)|\bx-forwarded-for|\bvisitor(?:'s)?(?:\s+ip)?|\buser(?:'s)?[_ ]?ip|\bpatient(?:'s)?[ \t]+(?:ip|address|addr|device|computer|browser|login|session)|\bportal[ \t]+(?:login|access|user|visitor|session|request)s?|\blog(?:ged)?[ -]?in\s+from|\bsign(?:ed)?[ -]?in\s+from|\baccessed\s+from|\bmy\s+(?:ip|address)|\bsrc[_ ]?ip)\b[^\n]{0,40}$/i;
const IP_ADDRESS_WORD = /\b(?:ip|address|addr)\b[\s:=]*$/i;
const WEB_VISITOR =
  /\b(?:brows(?:e|ing|er)|web\s?site|your\s+site|portal|log(?:ged)?\s?in|sign(?:ed)?\s?in|my)\b/i;
/** A web/portal access log line (common or combined log format). */
const ACCESS_LOG =
  /^[ \t]*\S+[ \t]+\S+[ \t]+\S+[ \t]+\[[^\]\n]+\][ \t]+"(?:GET|POST|PUT|DELETE|HEAD|PATCH|OPTIONS) /;
/** An engine host: a port after it, or a host/connect word before it. */
const HOST_BEFORE =
  /\b(?:host(?:name)?|server|connect(?:ed|ing|s)?(?:\s+to)?|listen(?:ing)?(?:\s+on)?|bind|peer|gateway|dns|route|ping(?:ed)?|ssh|sftp|ftp|thread|site|proc|->)\s*[:=]?\s*$/i;

/** A version word before a dotted number: `module v2.9.6 and 12.1.0.4` is a version. */
const VERSION_NEAR = /\b(?:v\d|version|ver|release|build|module|patch|upgrade[ds]?|jdk|jre)\b/i;

/** IP addresses in a patient's context (module doc). */
function findIps(text: string, out: Candidate[]): void {
  if (!/\d\.\d|:[0-9A-Fa-f]{1,4}:/.test(text)) return;
  IP_RE.lastIndex = 0;
  for (let m = IP_RE.exec(text); m; m = IP_RE.exec(text)) {
    const s = m.index, e = s + m[0].length;
    if (m[0].indexOf(":") !== -1 && m[0].split(":").length < 4) continue;
    const ls = text.lastIndexOf("\n", s - 1) + 1;
    let le = text.indexOf("\n", e);
    if (le === -1) le = text.length;
    const before = text.slice(Math.max(ls, s - 60), s);
    if (/^:\d/.test(text.slice(e, e + 2)) || HOST_BEFORE.test(before) || VERSION_NEAR.test(before)) continue;
    const line = text.slice(ls, le);
    const accessLog = before.trim() === "" && ACCESS_LOG.test(text.slice(s, le));
    const cued = IP_CLIENT_CUE.test(before) ||
      (IP_ADDRESS_WORD.test(before) && WEB_VISITOR.test(line));
    if (!accessLog && !cued) continue;
    out.push(candidate(s, e, m[0], "IP", canonicalize("IP", m[0]), "contextual", undefined, true));
  }
}

/** An age over 89 (`92-year-old`, `age 94`, `aged 101`, `94 years old`, `92 yo`). */
const AGE_RE =
  /\b(?:age[ds]?|aged)[ \t]*[:=]?[ \t]*(\d{2,3})(?![\w.]|\.\d)|(?<![\w.-])(\d{2,3})(?=[ \t-]*(?:years?|yrs?|y\/?o|yo)(?:[ \t-]*old)?\b)/gi;

const AGE_OF_THING =
  /\b(?:queue|message|msg|file|cache|token|password|cert(?:ificate)?|key|oldest|max|min|avg|mean|data|record|log)[ \t]+$/i;

function findAges(text: string, out: Candidate[]): void {
  if (!/age|year|yr|y\/?o/i.test(text)) return;
  AGE_RE.lastIndex = 0;
  for (let m = AGE_RE.exec(text); m; m = AGE_RE.exec(text)) {
    const v = m[1] ?? m[2];
    const n = Number(v);
    if (n < 90 || n > 130) continue;
    const s = m.index + m[0].lastIndexOf(v);
    // The age of a message, a file or a queue (`queue age 120 s`), a count of years of something.
    if (AGE_OF_THING.test(text.slice(Math.max(0, m.index - 14), m.index))) continue;
    if (
      /^[ \t]*(?:ms|s|secs?|seconds?|mins?|minutes?|h|hrs?|hours?|days?|d)\b/i.test(
        text.slice(s + v.length, s + v.length + 10),
      )
    ) continue;
    // `90 years of service`, `100 years ago`: only a person's age (old, -old, yo, or after `age`).
    if (
      m[2] !== undefined &&
      !/^[ \t-]*(?:years?|yrs?)[ \t-]*old|^[ \t-]*y\/?o\b/i.test(text.slice(s + v.length, s + v.length + 14))
    ) {
      continue;
    }
    const c = cand(text, s, s + v.length, "AGE", "contextual");
    if (c) out.push(c);
  }
}

/** Identifier cues and their category: the identifier right after the cue. */
const ID_CUES: { re: RegExp; category: string }[] = [
  {
    re:
      /\b(?:DL|D\/L)[ \t]*(?:#|no\.?|num(?:ber)?)?[ \t]*[:#]?[ \t]*|\bdriver'?s?[ \t]+licen[cs]e(?:[ \t]*(?:#|no\.?|num(?:ber)?))?[ \t]*[:#]?[ \t]*(?:is[ \t]+)?|\blicen[cs]e[ \t]*(?:#|no\.?|num(?:ber)?)[ \t]*[:#]?[ \t]*/giy,
    category: "LICENSE",
  },
  {
    re:
      /\bserial[ \t]*(?:#|no\.?|num(?:ber)?)?[ \t]*[:#]?[ \t]*(?:is[ \t]+)?|\bS\/N[ \t]*[:#]?[ \t]*|\bSN[ \t]*[:#][ \t]*|\bdevice[ \t]+(?:id|serial)[ \t]*[:#]?[ \t]*/giy,
    category: "DEVICE",
  },
  {
    re:
      /\b(?:member|subscriber|insurance|insured|beneficiary)[ \t]*(?:id|#|no\.?|num(?:ber)?)[ \t]*[:#]?[ \t]*(?:is[ \t]+)?|\bpolicy[ \t]*(?:#|no\.?|num(?:ber)?)[ \t]*[:#]?[ \t]*(?:is[ \t]+)?/giy,
    category: "MEMBER",
  },
];
const ID_VALUE = /[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?/y;

function findCuedIds(text: string, out: Candidate[]): void {
  if (!/dl|licen|serial|s\/n|sn|device|member|subscriber|insur|beneficiary|policy/i.test(text)) return;
  const FIND =
    /\b(?:dl|d\/l|driver|licen[cs]e|serial|s\/n|sn|device|member|subscriber|insurance|insured|beneficiary|policy)\b/gi;
  for (let m = FIND.exec(text); m; m = FIND.exec(text)) {
    for (const { re, category } of ID_CUES) {
      re.lastIndex = m.index;
      const k = re.exec(text);
      if (!k) continue;
      ID_VALUE.lastIndex = re.lastIndex;
      const v = ID_VALUE.exec(text);
      if (!v) continue;
      const s = v.index, e = s + v[0].length;
      if (
        /^[\w\/]/.test(text.slice(e, e + 1)) || digitCount(v[0]) < 3 || digitCount(v[0]) < v[0].length / 3
      ) continue;
      const c = cand(text, s, e, category, "contextual");
      if (c) out.push(c);
      FIND.lastIndex = e;
      break;
    }
  }
  // A UDI in GS1 form: `(01)` GTIN then `(21)` serial (and lot/expiry between them).
  const UDI = /\(01\)\d{14}(?:\((?:10|11|17|21)\)[A-Za-z0-9-]{1,20})+/g;
  if (text.indexOf("(01)") !== -1) {
    for (let m = UDI.exec(text); m; m = UDI.exec(text)) {
      // The GS1 layout is the decision (its 14-digit GTIN reads as a timestamp otherwise).
      const v = m[0];
      out.push(
        candidate(
          m.index,
          m.index + v.length,
          v,
          "DEVICE",
          canonicalize("DEVICE", v),
          "contextual",
          undefined,
          true,
        ),
      );
    }
  }
}

// ---- addresses ----------------------------------------------------------------------------------

const SUFFIX =
  "street|st|road|rd|avenue|ave|av|boulevard|blvd|drive|dr|lane|ln|way|court|ct|place|pl|terrace|ter|circle|cir|parkway|pkwy|highway|hwy|square|sq|trail|trl|crescent|cres|close|row|alley|plaza|pike|turnpike|expressway|freeway";
const STREET_LINE = new RegExp(
  String
    .raw`(?<![\w.,-])\d{1,6}[A-Za-z]?(?:[ \t]+\d{1,6})?[ \t]+(?:(?:[NSEW]|N[EW]|S[EW]|North|South|East|West)\.?[ \t]+)?(?:[\p{Lu}\d][\p{L}\p{M}'’.-]*[ \t]+){0,4}(?:${SUFFIX})\b\.?(?:[ \t]+(?:[NSEW]|N[EW]|S[EW])\b\.?)?`,
  "giu",
);
const UNIT = String
  .raw`(?:apt\.?|apartment|suite|ste\.?|unit|rm\.?|room|fl\.?|floor|bldg\.?|building|#)[ \t]*#?[ \t]*[A-Za-z]?\d[\w-]*`;
const UNIT_AFTER = new RegExp(String.raw`[ \t]*,?[ \t]*${UNIT}`, "iy");
/** `, City, ST 12345[-6789]` or `, City ST 12345` after a street line. */
const CITY_STATE_ZIP =
  /,?[ \t]*([\p{Lu}][\p{L}\p{M}'’.-]*(?:[ \t]+[\p{Lu}][\p{L}\p{M}'’.-]*){0,3}),?[ \t]+([A-Z]{2})[ \t]+(\d{5}(?:-\d{4})?)(?!\w)/uy;
const PO_BOX =
  /(?<![\w])(?:p\.?[ \t]?o\.?[ \t]*box|post[ \t]+office[ \t]+box|(?:psc|unit)[ \t]+\d{3,5},?[ \t]+box)[ \t]+\d{1,6}|(?<![\w])[AFD]PO[ \t]+A[AEP][ \t]+\d{5}(?:-\d{4})?/gi;
const ZIP4 = /(?<![\w.-])\d{5}-\d{4}(?![\w-])/g;

/** Address cues: the clause after them is an address. */
const ADDRESS_CUE =
  /\b(?:(?:home|mailing|billing|street|postal|new|current|old|patient'?s?|his|her|their|my)[ \t]+)?address(?:es)?(?:[ \t]+(?:is|was|to|with|of[ \t]+record))?(?:[ \t]*,[^:\n]{0,30})?[ \t]*[:=]?[ \t]*|\b(?:lives?|living|resides?|residing|moved|relocated)[ \t]+(?:at|to)[ \t]+|\b(?:sen[dt]|ship(?:ped)?|mail(?:ed)?|deliver(?:ed)?|forward(?:ed)?)(?:[ \t]+(?:it|this|them|the[ \t]+\w+|a[ \t]+new[ \t]+one|me[ \t]+a[ \t]+\w+))?[ \t]+to[ \t]+|\b(?:located|situated|arrived|meet[ \t]+(?:me|you|us|them)|pick[ \t]+(?:me|him|her|them)[ \t]+up|drop(?:ped)?[ \t]+(?:me|him|her|them|you)(?:[ \t]+off)?|(?:office|home|house|apartment|flat|residence)[ \t]+is)[ \t]+(?:at|on)[ \t]+|\b(?:return(?:ed)?|taxi|directions)[ \t]+to[ \t]+|\b(?:zip|postal)(?:[ \t]+code)?[ \t]*(?:is|:)[ \t]*/giy;
const ADDRESS_CUE_FIND =
  /address|live|living|reside|moved|relocated|sen[dt]|ship|mail|deliver|forward|zip|postal|located|situated|arrived|meet|pick|drop|office|home|house|apartment|flat|residence|return|taxi|directions/gi;
/** Words that start a new clause after an address. */
const CLAUSE_WORD =
  /^(?:for|last|in|if|so|because|please|when|then|tomorrow|tonight|today|yesterday|next|this|that|which|where|it|i|we|you|and|but|as|thanks|thank|asap|instead|too|also|by|from|since|until|before|after|is|was|are|were|will|can|could|should|since|meanwhile|now|yet|while|until|at|on|with|during|about|then|per)$/i;
/** An abbreviation's full stop inside an address (`ul.`, `Apt.`, `St.`, `P.O.`, `N.`), not a sentence's. */
const ABBREV_END =
  /(?:^|[\s,])(?:[\p{L}]|[\p{L}]\.[\p{L}]|st|rd|ave?|apt|ste|dr|ln|ul|str|no|nr|bl|blvd|ct|pl|mt|ft|jr|sr|hwy|pkwy|sq|cres|terr?|rte|av|al|ave|bldg|fl|rm|dept|box|gt|bd|cl|ctra|c|r|pza|pç|vej|u|utca|tér|ut|út|sok|cad|ul)\.$/iu;

/**
 * Pushes `text[s, e)` as ADDRESS values, one per line or comma-separated part. In prose the state
 * and the country go with the part they are written in (`Gabon 66298`, `Calgary AB`): an address
 * written as a sentence is one value to the reader, and a part left in clear would tell where it
 * was cut.
 */
function pushAddress(text: string, s: number, e: number, out: Candidate[]): void {
  const re = /[^,\n\r]+/g;
  const part = text.slice(s, e);
  for (let m = re.exec(part); m; m = re.exec(part)) {
    let a = s + m.index, b = a + m[0].length;
    while (a < b && /[\s>?]/.test(text[a])) a++;
    while (b > a && /[\s.]/.test(text[b - 1]) && !/\b\p{L}{1,4}\.$/u.test(text.slice(a, b))) b--;
    if (b <= a || !/[\p{L}\p{N}]/u.test(text.slice(a, b))) continue;
    const c = cand(text, a, b, "ADDRESS", "contextual");
    if (c) out.push(c);
  }
}

/** Where an address clause that starts at `s` ends (module doc: cue-led addresses). */
function clauseEnd(text: string, s: number): number {
  let i = s;
  // `the corner of A Street and B Street`: the `and` is the address's own.
  const corner = /^the\s+corner\s+of\b/i.test(text.slice(s, s + 20));
  let lines = 0;
  const WORD = /[^\s,]+/y;
  let end = s;
  while (i < text.length) {
    const c = text[i];
    if (c === "\n") {
      // A blank line, or a line that reads as prose (long, or with `;`, `:`, `=`), ends the address.
      if (text[i + 1] === "\n" || ++lines > 4) break;
      let nl = text.indexOf("\n", i + 1);
      if (nl === -1) nl = text.length;
      const next = text.slice(i + 1, nl).trim();
      if (next.length > 60 || /[;:=!?]/.test(next) || next.split(/\s+/).length > 7) break;
      i++;
      continue;
    }
    if (c === " " || c === "\t" || c === "," || c === "\r") {
      i++;
      continue;
    }
    if (c === "?" || c === "!" || c === ";" || c === ")" || c === '"') break;
    WORD.lastIndex = i;
    const m = WORD.exec(text);
    if (!m) break;
    let w = m[0];
    const bare = w.replace(/[.?!]+$/, "");
    if (CLAUSE_WORD.test(bare) && i > s && !(corner && /^and$/i.test(bare))) break;
    // A sentence's full stop (not an abbreviation's: `Apt.`, `ul.`, `St.`, `P.O.`).
    const stop = /[.?!]+$/.exec(w);
    if (stop) {
      const next = text.slice(i + w.length, i + w.length + 2);
      if (stop[0] !== "." || (!ABBREV_END.test(" " + w) && /^(?:\s\p{Lu}|\s*$|\n)/u.test(next + " "))) {
        w = w.slice(0, w.length - stop[0].length);
        end = i + w.length;
        break;
      }
    }
    const q = w.search(/[?!;)"]/);
    if (q !== -1) {
      end = i + q;
      break;
    }
    i += w.length;
    end = i;
  }
  return end;
}

/** Engine nouns after a number: a count of engine objects, not a house number. */
const COUNT_NOUN =
  /^\d+[ \t]+(?:\w+[ \t]+)?(?:threads?|sites?|destinations?|hosts?|servers?|ports?|queues?|retries|routes?|procs?|process(?:es)?|xlates?|tables?|messages?|msgs?|files?|rows?|records?|entries|items?|errors?|times|seconds?|secs?|minutes?|mins?|hours?|days?|weeks?|months?|years?|bytes?|[kmg]b|nodes?|connections?|clients?|users?|patients?|segments?|fields?|batches?|jobs?|tickets?|alerts?|results?|cases?|tests?|runs?|others?|more|of)\b/i;

/**
 * The street line of a postal block: a house number (or two: `24 320 St Marys Rd`) and a word, or
 * capitalized words and a number (`Camino Ancho 91`), or a street suffix.
 */
const STREET_HEAD = new RegExp(
  String
    .raw`^\d{1,6}[A-Za-z]?[ \t]+(?:\d{1,6}[ \t]+)?\S*\p{L}|^\p{Lu}[\p{L}\p{M}'’.-]*(?:[ \t]+[\p{L}\p{M}'’.-]+){0,4}[ \t]+\d{1,6}[A-Za-z]?\.?$|\b(?:${SUFFIX})\b`,
  "iu",
);

const STREET_TAIL = /(?:^|[\s:])(\d{1,6}[A-Za-z]?[ \t]+(?:\d{1,6}[ \t]+)?[^\s\d]*\p{L}[^\n]{0,50})$/u;

/** A clause that reads as a postal address (module doc). */
function addressShaped(clause: string): boolean {
  if (COUNT_NOUN.test(clause) || /^\d+(?:\.\d+)+/.test(clause)) return false;
  if (/^(?:p\.?\s?o\.?\s*box|psc\b|unit\s+\d|the\s+corner\s+of\b)/i.test(clause)) return true;
  // A house number, then a capitalized word, a street suffix or a unit somewhere, or two parts.
  return /^\d{1,6}[A-Za-z]?[ \t]+(?:\d{1,6}[ \t]+)?\p{Lu}/u.test(clause) ||
    new RegExp(String.raw`\b(?:${SUFFIX})\b|${UNIT}`, "iu").test(clause) ||
    // More than one part: a city or a postal code after a comma or a line break.
    /[,\n][ \t]*(?:\p{Lu}|\d{4,6}\b)/u.test(clause);
}

/** A line holding only a unit, a PO box or a military box. */
const UNIT_LINE = new RegExp(
  String
    .raw`^(?:${UNIT}|(?:psc|unit)[ \t]+\d+,?[ \t]+box[ \t]+\d+|p\.?[ \t]?o\.?[ \t]*box[ \t]+\d+)[ \t]*$`,
  "i",
);

function findAddresses(text: string, out: Candidate[]): void {
  const found: Candidate[] = [];
  const taken = (s: number, e: number) => found.some((c) => c.start < e && s < c.end);
  // After an address cue: the clause.
  ADDRESS_CUE_FIND.lastIndex = 0;
  for (let m = ADDRESS_CUE_FIND.exec(text); m; m = ADDRESS_CUE_FIND.exec(text)) {
    // The cue starts at a word start before the match (`home address`, `my address`).
    let ws = m.index;
    const pre =
      /(?:(?:home|mailing|billing|street|postal|new|current|old|patient'?s?|his|her|their|my)[ \t]+)?$/i
        .exec(text.slice(Math.max(0, ws - 12), ws));
    if (pre) ws -= pre[0].length;
    ADDRESS_CUE.lastIndex = ws;
    let k = ADDRESS_CUE.exec(text);
    if (!k && ws !== m.index) {
      ADDRESS_CUE.lastIndex = m.index;
      k = ADDRESS_CUE.exec(text);
    }
    if (!k) continue;
    let s = ADDRESS_CUE.lastIndex;
    // The address may start on the next line only after a label (`Address:`, `address is`).
    const label = /(?::|=|\bis)[ \t]*$/i.test(k[0]);
    while (
      s < text.length && (text[s] === " " || text[s] === "\t" || (label && text[s] === "\n")) &&
      text.slice(k.index, s).split("\n").length < 3
    ) s++;
    // An address starts with a house number, a PO box or military box, `the corner of`, or (after
    // an `address` cue) a capitalized word.
    const head = text.slice(s, s + 30);
    const zipCue = /^(?:zip|postal)/i.test(k[0]);
    if (zipCue) {
      const z = /^\d{4,6}(?:-\d{4})?(?!\w)/.exec(head);
      if (z && !taken(s, s + z[0].length)) {
        const c = cand(text, s, s + z[0].length, "ADDRESS", "contextual");
        if (c) found.push(c);
      }
      continue;
    }
    const strong = /address/i.test(k[0]);
    if (
      !/^(?:\d{1,6}[A-Za-z]?\b|p\.?\s?o\.?\s*box|psc\b|unit\s+\d|the\s+corner\s+of\b)/i.test(head) &&
      !(strong && label && /^\p{Lu}[\p{L}\p{M}]+/u.test(head))
    ) continue;
    const e = clauseEnd(text, s);
    // After a cue other than `address` (sent to, moved to, lives at), the clause must read as an
    // address: not a count (`sent to 2 destinations`), a host or a version (`moved to 2.4.1`).
    if (!strong && !addressShaped(text.slice(s, e))) continue;
    if (e - s < 4 || digitCount(text.slice(s, e)) === 0 && !/corner/i.test(head)) continue;
    if (taken(s, e)) continue;
    pushAddress(text, s, e, found);
  }
  // Postal blocks: a unit line or a PO/military box line, with the street line before it and the
  // city and `Country 12345` lines after it.
  const lines: { s: number; e: number; body: number }[] = [];
  if (/suite|apt|unit|box|ste\b|apo|fpo|dpo/i.test(text)) {
    let at = 0;
    while (at <= text.length) {
      let le = text.indexOf("\n", at);
      if (le === -1) le = text.length;
      let body = at;
      while (body < le && /[ \t>?*]/.test(text[body])) body++;
      lines.push({ s: at, e: le, body });
      at = le + 1;
    }
    for (let i = 0; i < lines.length; i++) {
      const L = lines[i];
      const body = text.slice(L.body, L.e).trimEnd();
      if (!UNIT_LINE.test(body)) continue;
      const parts: { s: number; e: number }[] = [];
      // The street line before: starts with a number or holds one, short, no sentence.
      // The street line before: a house number and a word, short, no sentence (or the unit line is a
      // PO or military box itself).
      const P = lines[i - 1];
      let street = false;
      if (P) {
        let pb = text.slice(P.body, P.e).trimEnd();
        // A street that ends a sentence's line (`Meet me at 5100 Quadra 104`): from its number.
        const tail = STREET_TAIL.exec(pb);
        if (tail && tail.index > 0 && /^\d{1,6}[A-Za-z]?[ \t]+(?:\d{1,6}[ \t]+)?\p{Lu}/u.test(tail[1])) {
          P.body += tail.index + tail[0].length - tail[1].length;
          pb = tail[1];
        }
        if (
          pb.length <= 60 && STREET_HEAD.test(pb) && !COUNT_NOUN.test(pb) && !UNIT_LINE.test(pb) &&
          !/[:;!?]|\.\s/.test(pb.replace(/\b\p{L}{1,4}\./gu, ""))
        ) {
          parts.push({ s: P.body, e: P.body + pb.length });
          street = true;
        }
      }
      parts.push({ s: L.body, e: L.body + body.length });
      // City lines, then the line that ends with a postal code (at most four lines): only when that
      // line is there.
      const city: { s: number; e: number }[] = [];
      let zip = false;
      for (let j = i + 1; j < lines.length && j <= i + 4; j++) {
        const N = lines[j];
        const nb = text.slice(N.body, N.e).trimEnd();
        if (nb === "") {
          if (j === i + 1) break;
          continue;
        }
        // `Country 12345` (a sentence may go on after it: `Bulgaria 83572 last night.`).
        const z = /^[^\d\n]{0,40}?\d{4,6}(?:-\d{4})?(?![\d-])/u.exec(nb);
        if (z && !/[:;!?@]/.test(z[0])) {
          city.push({ s: N.body, e: N.body + z[0].length });
          zip = true;
          break;
        }
        // A phone line (`089 72 63 41 office`) or a sentence ends the block.
        if (nb.length > 60 || /[:;!?@]/.test(nb) || digitCount(nb) >= 6) break;
        city.push({ s: N.body, e: N.body + nb.length });
      }
      if (!street && !zip && !/box/i.test(body)) continue;
      // Without a postal code, the city (and country) lines after a street: short, no digits.
      if (
        zip ||
        (street && city.length <= 3 && city.every((c) => c.e - c.s <= 40 && !/\d/.test(text.slice(c.s, c.e))))
      ) {
        for (const c of city) parts.push(c);
      }
      for (const p of parts) if (!taken(p.s, p.e)) pushAddress(text, p.s, p.e, found);
    }
  }
  // Street lines with a suffix, PO boxes, ZIP+4 anywhere in prose.
  if (/\d/.test(text)) {
    STREET_LINE.lastIndex = 0;
    for (let m = STREET_LINE.exec(text); m; m = STREET_LINE.exec(text)) {
      let e = m.index + m[0].length;
      UNIT_AFTER.lastIndex = e;
      if (UNIT_AFTER.exec(text)) e = UNIT_AFTER.lastIndex;
      if (taken(m.index, e)) continue;
      const c = cand(text, m.index, e, "ADDRESS", "contextual");
      if (c) found.push(c);
      CITY_STATE_ZIP.lastIndex = e;
      const z = CITY_STATE_ZIP.exec(text);
      if (z) {
        const cs = e + z[0].indexOf(z[1]);
        const zs = e + z[0].lastIndexOf(z[3]);
        const city = cand(text, cs, cs + z[1].length, "ADDRESS", "contextual");
        const zip = cand(text, zs, zs + z[3].length, "ADDRESS", "contextual");
        if (city) found.push(city);
        if (zip) found.push(zip);
      }
    }
    for (const re of [PO_BOX, ZIP4]) {
      re.lastIndex = 0;
      for (let m = re.exec(text); m; m = re.exec(text)) {
        if (taken(m.index, m.index + m[0].length)) continue;
        const c = cand(text, m.index, m.index + m[0].length, "ADDRESS", "contextual");
        if (c) found.push(c);
      }
    }
  }
  for (const c of found) out.push(c);
}

/** A patient's id in a URL's query string (`?mrn=`, `&patient_id=`), a birth date, a name. */
const URL_PARAM =
  /[?&;](?:(mrn|mrn_?id|med_?rec|patient|patient_?id|pat_?id|pt_?id|pid|person_?id|member_?id|chart|empi)|(dob|birth_?date|birthdate)|(name|patient_?name|first_?name|last_?name|fname|lname|given|family))=([^&#;\s"'<>]+)/gi;
/** `/patients/<id>` (also `/patient/`, `/members/`) with a digit in the id (`/mrn/<id>` is an engine path). */
const URL_PATIENT_PATH = /\/(?:patients?|members?)\/([A-Za-z0-9-]*\d[A-Za-z0-9-]*)(?=[\/?#\s"'<>]|$)/gi;
/** A scan or document named by an MRN and a name: `00123_SMITH_JOHN.pdf`, `SMITH_JOHN_00123.tif`. */
const SCAN_NAME =
  /(?<=[\/\\\s"'=]|^)(?:(\d{4,12})[_-]([A-Za-z][A-Za-z'-]+)[_-]([A-Za-z][A-Za-z'-]+)|([A-Za-z][A-Za-z'-]+)[_-]([A-Za-z][A-Za-z'-]+)[_-](\d{4,12}))(?:[_-][A-Za-z0-9]+)*\.(?:pdf|tiff?|jpe?g|png|gif|bmp|dcm|docx?|rtf)\b/gi;

/** An exact candidate: a URL or path is protected, and the rule is the decision. */
function exactAt(text: string, s: number, e: number, category: string): Candidate | undefined {
  const v = text.slice(s, e);
  const canonical = canonicalize(category, v);
  return canonical === ""
    ? undefined
    : candidate(s, e, v, category, canonical, "contextual", undefined, true);
}

/**
 * The identifying parts of URLs and paths (issue #23 item 8): the value of a patient parameter
 * (`?mrn=00123456` MRN, `dob=` DOB, `name=` NAME), the id after `/patients/`, and the MRN and the
 * name parts of a scan named by them (`/scans/00123_SMITH_JOHN.pdf`); the rest of the URL or path
 * stays readable.
 */
function findUrlIds(text: string, out: Candidate[]): void {
  if (text.indexOf("=") !== -1) {
    URL_PARAM.lastIndex = 0;
    for (let m = URL_PARAM.exec(text); m; m = URL_PARAM.exec(text)) {
      const v = m[4];
      const s = m.index + m[0].length - v.length;
      const cat = m[1] ? "MRN" : m[2] ? "DOB" : "NAME";
      if (cat === "MRN" && digitCount(v) < 3) continue;
      const c = exactAt(text, s, s + v.length, cat);
      if (c) out.push(c);
    }
  }
  if (text.indexOf("/") !== -1) {
    URL_PATIENT_PATH.lastIndex = 0;
    for (let m = URL_PATIENT_PATH.exec(text); m; m = URL_PATIENT_PATH.exec(text)) {
      if (digitCount(m[1]) < 4) continue;
      const s = m.index + m[0].length - m[1].length;
      const c = exactAt(text, s, s + m[1].length, "MRN");
      if (c) out.push(c);
    }
  }
  if (/\.(?:pdf|tiff?|jpe?g|png|gif|bmp|dcm|docx?|rtf)\b/i.test(text)) {
    SCAN_NAME.lastIndex = 0;
    for (let m = SCAN_NAME.exec(text); m; m = SCAN_NAME.exec(text)) {
      let at = m.index;
      const parts: [string, string][] = m[1] !== undefined
        ? [[m[1], "MRN"], [m[2], "NAME"], [m[3], "NAME"]]
        : [[m[4], "NAME"], [m[5], "NAME"], [m[6], "MRN"]];
      for (const [v, cat] of parts) {
        const s = text.indexOf(v, at);
        const c = exactAt(text, s, s + v.length, cat);
        if (c) out.push(c);
        at = s + v.length;
      }
    }
  }
}

/**
 * The Safe Harbor identifiers of a prose text (module doc), unsorted, possibly overlapping each
 * other (the caller keeps the first of overlapping candidates in text order).
 *
 * @example
 * ```ts
 * import { findProseIds } from "./prose_ids.ts";
 * findProseIds("she is a 92-year-old, lives at 12 Oak Street").map((c) => c.category); // ["AGE", "ADDRESS"]
 * ```
 */
export function findProseIds(text: string): Candidate[] {
  const out: Candidate[] = [];
  findAges(text, out);
  findCuedIds(text, out);
  findIps(text, out);
  findUrlIds(text, out);
  findAddresses(text, out);
  return out.sort((a, b) => a.start - b.start);
}
