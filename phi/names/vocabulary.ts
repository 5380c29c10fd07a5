/**
 * Words the built-in tier 5 never takes for a person's name, whatever the lexicon says: vendor and
 * product names of the interface world, HL7 terms (segment, field and data type names of the
 * built-in schema), and the engine's own names read from the engine root when one is known: site
 * folders, and every identifier of each site's NetConfig (threads, processes, procs, Xlates, tables)
 * plus the file names under its Xlate, Tables and tclprocs folders. Identifiers are split on `_`,
 * `-`, `.` and case changes, so `ib_Quest_orm` protects `Quest` too.
 *
 * @module
 */
import { BUILTIN_SEGMENTS, segmentDef } from "../../hl7/schema.ts";

/**
 * Vendors, products and protocol words that read like names in prose (`Epic`, `Cerner`, `Quest`):
 * not a list of people's names, a list of what is never one here.
 */
export const VENDOR_WORDS: readonly string[] = [
  "epic",
  "cerner",
  "oracle",
  "meditech",
  "quest",
  "labcorp",
  "allscripts",
  "veradigm",
  "athena",
  "athenahealth",
  "eclinicalworks",
  "nextgen",
  "greenway",
  "mckesson",
  "infor",
  "cloverleaf",
  "lawson",
  "rhapsody",
  "mirth",
  "nextgate",
  "corepoint",
  "lyniate",
  "intersystems",
  "ensemble",
  "healthshare",
  "iris",
  "cache",
  "sunquest",
  "softlab",
  "scc",
  "orchard",
  "cerner",
  "millennium",
  "soarian",
  "siemens",
  "philips",
  "ge",
  "centricity",
  "medhost",
  "cpsi",
  "evident",
  "paragon",
  "netsmart",
  "pointclickcare",
  "omnicell",
  "pyxis",
  "carefusion",
  "bd",
  "baxter",
  "alaris",
  "hologic",
  "beckman",
  "coulter",
  "abbott",
  "roche",
  "sysmex",
  "cepheid",
  "biomerieux",
  "vitek",
  "phadia",
  "nuance",
  "dragon",
  "powerscribe",
  "fujifilm",
  "synapse",
  "agfa",
  "carestream",
  "sectra",
  "merge",
  "ibm",
  "hyland",
  "onbase",
  "dolbey",
  "kodak",
  "intelerad",
  "visage",
  "change",
  "healthcare",
  "optum",
  "availity",
  "waystar",
  "experian",
  "emdeon",
  "relayhealth",
  "surescripts",
  "dexcom",
  "medtronic",
  "stryker",
  "zoll",
  "welch",
  "allyn",
  "hillrom",
  "capsule",
  "bernoulli",
  "azure",
  "aws",
  "google",
  "microsoft",
  "windows",
  "linux",
  "aix",
  "solaris",
  "unix",
  "redhat",
  "ubuntu",
  "debian",
  "tcl",
  "tk",
  "java",
  "python",
  "perl",
  "deno",
  "node",
  "docker",
  "kubernetes",
  "jenkins",
  "github",
  "gitlab",
  "jira",
  "confluence",
  "onenote",
  "teams",
  "outlook",
  "excel",
  "word",
  "splunk",
  "grafana",
  "kibana",
  "nagios",
  "zabbix",
  "sql",
  "sqlite",
  "postgres",
  "mysql",
  "mongo",
  "redis",
  "kafka",
  "rabbit",
  "activemq",
  "tibco",
  "biztalk",
  "boomi",
  "mulesoft",
  "informatica",
  "qvera",
  "iguana",
  "interfaceware",
  "smat",
  "hci",
  "hciroot",
  "hcisite",
  "netconfig",
  "xlate",
  "tps",
  "ack",
  "nak",
  "mllp",
  "hl7",
  "fhir",
  "cda",
  "ccd",
  "dicom",
  "x12",
  "ncpdp",
  "loinc",
  "snomed",
  "icd",
  "cpt",
  "rxnorm",
  "ndc",
  "npi",
  "ssh",
  "sftp",
  "ftp",
  "http",
  "https",
  "tcp",
  "tcpip",
  "ip",
  "ssl",
  "tls",
  "vpn",
  "dns",
];

let hl7Words: Set<string> | undefined;

/** Every word of the built-in segments' names and field names (`Patient`, `Attending`, `Doctor`). */
export function hl7Vocabulary(): ReadonlySet<string> {
  if (hl7Words) return hl7Words;
  const out = new Set<string>();
  const add = (s: string) => {
    for (const w of s.toLowerCase().split(/[^a-z0-9]+/)) if (w.length >= 2) out.add(w);
  };
  for (const id of BUILTIN_SEGMENTS) {
    const def = segmentDef(id);
    if (!def) continue;
    out.add(id.toLowerCase());
    add(def.name);
    for (const f of def.fields) add(f.name);
  }
  hl7Words = out;
  return out;
}

/** The parts of an identifier: `ib_QuestLab-in.tcl` gives quest, lab, in, tcl (and the whole). */
export function identifierParts(id: string): string[] {
  const parts = id.split(/[_\-.\s/\\]+|(?<=[a-z])(?=[A-Z])/u).filter((p) => p.length >= 2);
  return [id, ...parts].map((p) => p.toLowerCase());
}

const MAX_SITES = 64;
const MAX_NETCONFIG = 8 * 1024 * 1024;
const MAX_FILES = 4000;

async function listDir(path: string): Promise<Deno.DirEntry[]> {
  const out: Deno.DirEntry[] = [];
  try {
    for await (const e of Deno.readDir(path)) {
      out.push(e);
      if (out.length >= MAX_FILES) break;
    }
  } catch { /* absent or unreadable: nothing to protect there */ }
  return out;
}

/**
 * The engine's own names under a local engine root (empty when there is none or it cannot be read).
 * Bounded: at most 64 sites, 8 MB of NetConfig each, 4000 entries per folder.
 *
 * @example
 * ```ts
 * import { engineVocabulary } from "./vocabulary.ts";
 * const words = await engineVocabulary("/hci/integrator");
 * words.has("adt_epic_in"); // true when a thread of that name is configured
 * ```
 */
export async function engineVocabulary(root: string | undefined): Promise<Set<string>> {
  const out = new Set<string>();
  if (root === undefined || root.trim() === "") return out;
  const sep = root.includes("\\") && !root.includes("/") ? "\\" : "/";
  const join = (...p: string[]) => p.join(sep);
  let sites = 0;
  for (const e of await listDir(root)) {
    if (!e.isDirectory || sites >= MAX_SITES) continue;
    const site = join(root, e.name);
    let netconfig: string | undefined;
    try {
      const st = await Deno.stat(join(site, "NetConfig"));
      if (st.isFile && st.size <= MAX_NETCONFIG) netconfig = await Deno.readTextFile(join(site, "NetConfig"));
    } catch { /* not a site */ }
    if (netconfig === undefined) continue;
    sites++;
    for (const p of identifierParts(e.name)) out.add(p);
    for (const m of netconfig.matchAll(/[A-Za-z][A-Za-z0-9_.-]{2,}/g)) {
      for (const p of identifierParts(m[0])) out.add(p);
    }
    for (const folder of ["Xlate", "Tables", "tclprocs"]) {
      for (const f of await listDir(join(site, folder))) {
        for (const p of identifierParts(f.name.replace(/\.[A-Za-z0-9]+$/, ""))) out.add(p);
      }
    }
  }
  return out;
}
