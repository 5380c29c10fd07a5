/**
 * Writes NetConfig text the way the engine's writers do (research/cloverleaf.md 1.3), for fixtures
 * and benchmark inputs: the 20.1 IDE style (4 spaces per level, `{ KEY value }`, nested keyed lists
 * opened with `{ KEY {` and closed with `} }`, list elements closed with `} `, each record closed
 * with `} `) or the old Tcl writer style (a blank line before each record, a tab per two levels).
 * Test support only: the program never writes NetConfig.
 */
import { quoteElement } from "../../tools/engine/netconfig/tcl_list.ts";

/** A keyed list: ordered fields. */
export class Kl {
  constructor(readonly fields: Array<[string, Value]>) {}
}

/** A list of keyed lists (DATAXLATE, ROUTE_DETAILS). */
export class KlList {
  constructor(readonly items: Kl[]) {}
}

/** A scalar is Tcl text as it will be written (quote it with `q`). */
export type Value = string | Kl | KlList;

/** A keyed list from an object; `undefined` values are left out. Keys keep their order. */
export function kl(fields: Record<string, Value | undefined>): Kl {
  return new Kl(Object.entries(fields).filter((e): e is [string, Value] => e[1] !== undefined));
}

export function klList(...items: Kl[]): KlList {
  return new KlList(items);
}

/** Tcl-quotes one word (`{}` for empty, braces for several words). */
export function q(s: string): string {
  return quoteElement(s);
}

/** Tcl-quotes a list of words. */
export function ql(items: readonly string[]): string {
  return q(items.map(quoteElement).join(" "));
}

/** An inline TPS block `{{ARGS {}} {PROCS {a b}} {PROCSCONTROL {}}}`. */
export function tps(
  procs: readonly string[] = [],
  args: readonly string[] = [],
  control: readonly string[] = [],
): string {
  return `{{ARGS ${ql(args)}} {PROCS ${ql(procs)}} {PROCSCONTROL ${ql(control)}}}`;
}

export type Style = "ide" | "tcl";

function indentOf(level: number, style: Style): string {
  if (style === "ide") return " ".repeat(4 * level);
  return "\t".repeat(level >> 1) + (level & 1 ? "    " : "");
}

function writeKl(out: string[], value: Kl, level: number, style: Style): void {
  const fields = style === "tcl" ? [...value.fields].sort((a, b) => (a[0] < b[0] ? -1 : 1)) : value.fields;
  const ind = indentOf(level, style);
  for (const [key, v] of fields) {
    if (typeof v === "string") {
      out.push(`${ind}{ ${key} ${v} }`);
    } else if (v instanceof Kl) {
      out.push(`${ind}{ ${key} {`);
      writeKl(out, v, level + 1, style);
      out.push(`${ind}} }`);
    } else {
      out.push(`${ind}{ ${key} {`);
      if (v.items.length === 0) out.push(" ");
      for (const item of v.items) {
        out.push(`${indentOf(level + 1, style)}{`);
        writeKl(out, item, level + 2, style);
        out.push(`${indentOf(level + 1, style)}} `);
      }
      out.push(`${ind}} }`);
    }
  }
}

export interface PrologueSpec {
  who: string;
  date: string;
  type?: string;
  version?: string;
}

export interface WriteOptions {
  style?: Style;
  bom?: boolean;
  crlf?: boolean;
  /** Lines written before the prologue (e.g. `# comment`). */
  preamble?: string[];
}

export type Record3 = [type: string, name: string, config: Kl];

/** A whole NetConfig. */
export function writeNetConfig(
  prologue: PrologueSpec,
  records: readonly Record3[],
  options: WriteOptions = {},
): string {
  const style = options.style ?? "ide";
  const sep = style === "ide" ? "\t" : " ";
  const out: string[] = [...(options.preamble ?? [])];
  out.push(
    "prologue",
    `    who:${sep}${prologue.who}`,
    `    date:${sep}${prologue.date}`,
    `    type:${sep}${prologue.type ?? "net"}`,
    `    version:${sep}${prologue.version ?? "3.20"}`,
    "end_prologue",
  );
  for (const [type, name, config] of records) {
    if (style === "tcl") out.push("");
    out.push(`${type} ${q(name)} {`);
    writeKl(out, config, 1, style);
    out.push("} ");
  }
  const text = out.join("\n") + "\n";
  return (options.bom ? "\uFEFF" : "") + (options.crlf ? text.replace(/\n/g, "\r\n") : text);
}

// ---------------------------------------------------------------------------------------------
// Realistic records (the 20.1 key set of research/cloverleaf.md 1.5 and 1.6).

export interface DetailSpec {
  type: "raw" | "xlate" | "xslt" | "generate";
  dest?: string[];
  xlate?: string;
  procs?: string[];
  pre?: string[];
  post?: string[];
  /** ARGS of `procs` (raw, generate) or `pre` (xlate, xslt), one Tcl keyed list each (`{DEST x}`). */
  args?: string[];
  enabled?: boolean;
}

export interface RouteSpec {
  trxid: string;
  enabled?: boolean;
  wildcard?: boolean;
  details: DetailSpec[];
}

export interface ThreadSpec {
  name: string;
  process: string;
  type: "tcpip" | "pdl-tcpip" | "file" | "fileset" | "upoc";
  host?: string;
  port?: number;
  isServer?: boolean;
  icl?: number;
  routes?: RouteSpec[];
  replyRoutes?: RouteSpec[];
  smatIn?: string;
  smatOut?: string;
  inProcs?: string[];
  /** ARGS of inProcs, one Tcl keyed list each (`{TABLE sex_codes}`). */
  inArgs?: string[];
  outProcs?: string[];
  /** ARGS of outProcs. */
  outArgs?: string[];
  autostart?: boolean;
  outboundOnly?: boolean;
  coords?: [number, number];
  /** Extra fields, written after the known ones (unknown keys must be kept by the reader). */
  extra?: Record<string, Value>;
  infile?: string;
  outfile?: string;
  obdir?: string;
  /** EDI batching values by path under EDIBATCH (`OUT_DATA.TRIGGER.COUNT`); unset ones are empty. */
  edibatch?: Partial<Record<EdiBatchPath, string>>;
}

export type EdiBatchPath =
  | "IN_DATA.TYPE"
  | "IN_DATA.VERSION"
  | "OUT_DATA.HEADER"
  | "OUT_DATA.TRIGGER.COUNT"
  | "OUT_DATA.TRIGGER.SCHEDULER"
  | "OUT_DATA.TRIGGER.TIMER"
  | "OUT_DATA.TYPE"
  | "OUT_DATA.VERSION";

/**
 * `EDIBATCH` as a 20.1 IDE writes it on every thread: `IN_DATA {TYPE VERSION}` and
 * `OUT_DATA {HEADER TRIGGER {COUNT SCHEDULER TIMER} TYPE VERSION}`, each a nested keyed list over
 * several lines, the values empty unless batching is set up.
 */
export function ediBatch(values: Partial<Record<EdiBatchPath, string>> = {}): Kl {
  const v = (p: EdiBatchPath) => q(values[p] ?? "");
  return kl({
    IN_DATA: kl({ TYPE: v("IN_DATA.TYPE"), VERSION: v("IN_DATA.VERSION") }),
    OUT_DATA: kl({
      HEADER: v("OUT_DATA.HEADER"),
      TRIGGER: kl({
        COUNT: v("OUT_DATA.TRIGGER.COUNT"),
        SCHEDULER: v("OUT_DATA.TRIGGER.SCHEDULER"),
        TIMER: v("OUT_DATA.TRIGGER.TIMER"),
      }),
      TYPE: v("OUT_DATA.TYPE"),
      VERSION: v("OUT_DATA.VERSION"),
    }),
  });
}

function detail(d: DetailSpec): Kl {
  const f: Record<string, Value | undefined> = {};
  if (d.enabled !== undefined) f.DETAILS_ENABLED = d.enabled ? "1" : "0";
  if (d.type !== "generate") f.DEST = ql(d.dest ?? []);
  if (d.type === "xlate" || d.type === "xslt") {
    f.POSTPROCS = tps(d.post ?? []);
    f.PREPROCS = tps(d.pre ?? [], d.args ?? []);
  } else {
    f.PROCS = tps(d.procs ?? [], d.args ?? []);
  }
  f.TYPE = d.type;
  if (d.type === "xlate") f.XLATE = q(d.xlate ?? "");
  if (d.type === "xslt") f.XSLT = q(d.xlate ?? "");
  return kl(f);
}

function route(r: RouteSpec): Kl {
  return kl({
    CACHEMSG: "0",
    DEL_ON_ERR_ROUTE: "0",
    ROUTE_DETAILS: klList(...r.details.map(detail)),
    ROUTE_ENABLED: r.enabled === false ? "0" : "1",
    TRXID: q(r.trxid),
    WILDCARD: r.wildcard ? "ON" : "OFF",
  });
}

function smsBlock(procs: string[], args?: string[]): Kl {
  return kl({ ARGS: ql(args ?? procs.map(() => "")), PROCS: ql(procs), PROCSCONTROL: q(""), THREADED: "0" });
}

function protocolBlock(t: ThreadSpec): Kl {
  switch (t.type) {
    case "tcpip":
    case "pdl-tcpip": {
      const server = t.isServer ?? false;
      const f: Record<string, Value | undefined> = {
        HOST: q(server ? "" : t.host ?? "localhost"),
        ISSERVER: server ? "1" : "0",
        IS_SSL: "0",
        LOCAL_IP: q(""),
        MODE: q(""),
        PORT: String(t.port ?? 0),
        RECONNECT: "1",
        TYPE: t.type,
      };
      if (t.type === "pdl-tcpip") {
        f.PDLNAME = "mlp_tcp.pdl";
        f.PDLTYPE = server ? "tcp-server" : "tcp-client";
      } else {
        f.ENCODE_LEN = "0";
        f.MLP_PREFIX = q("");
      }
      return kl(f);
    }
    case "file":
      return kl({
        IBCRNLCONVERT: "0",
        INDELAY: "10",
        INFILE: q(t.infile ?? ""),
        INFORMAT: "nl",
        OBCRNLCONVERT: "0",
        OUTAPPEND: "1",
        OUTFILE: q(t.outfile ?? ""),
        OUTFORMAT: "nl",
        TYPE: "file",
      });
    case "fileset":
      return kl({
        IBDIR: q(""),
        IBDIRPARSE: tps(),
        IBMAXMSGS: "100",
        MODE: "local",
        OBAPPEND: "0",
        OBDIR: q(t.obdir ?? ""),
        TYPE: "fileset",
      });
    case "upoc":
      return kl({ READINTERVAL: "5", READTPS: tps(), TYPE: "upoc", WRITETPS: tps() });
  }
}

/** A `protocol` record with the full 20.1 key set. */
export function protocolRecord(t: ThreadSpec): Record3 {
  const [x, y] = t.coords ?? [100, 100];
  const config = kl({
    AUTOSTART: t.autostart === false ? "0" : "1",
    BITMAP: q(""),
    COORDS: q(`${x} ${y}`),
    DATAFORMAT: kl({ TYPE: "hl7", VARIANT: q("2.5") }),
    DATAXLATE: klList(...(t.routes ?? []).map(route)),
    EDIBATCH: ediBatch(t.edibatch),
    ENCODING: "ASCII",
    EOCONFIG: q(""),
    GROUPS: q(""),
    HOSTDOWN: "0",
    ICLSERVERPORT: q(t.icl === undefined ? "" : String(t.icl)),
    KEEPMSGONDISK: "0",
    OBWORKASIB: "0",
    OUTBOUNDONLY: t.outboundOnly ? "1" : "0",
    PROCESSNAME: q(t.process),
    PROTOCOL: protocolBlock(t),
    RECVCONTROL: kl({ ACKCONTROL: tps(), EOMSG: q(""), HOLDMSGS: "0", MSGPRIO: "5120" }),
    REPLYCONTROL: kl({ OBRESEND: "1", REPLYGEN: kl({ TYPE: "none" }), TIMEOUT: "-1", WAIT: "0" }),
    REPLYXLATE: klList(...(t.replyRoutes ?? []).map(route)),
    SAVEMSGS: kl({
      INFILE: q(t.smatIn ?? ""),
      INSAVE: t.smatIn ? "1" : "0",
      OUTFILE: q(t.smatOut ?? ""),
      OUTSAVE: t.smatOut ? "1" : "0",
    }),
    SENDDATACTRL: kl({
      FAILPROCS: tps(),
      FORWARDTHREAD: q(""),
      HOLDMSGS: "0",
      INTERVAL: "10",
      OKPROCS: tps(),
      PREWRITEPROCS: tps(),
      RETRIES: "-1",
    }),
    SMS: kl({
      FWD_DATA: tps(),
      IN_DATA: smsBlock(t.inProcs ?? [], t.inArgs),
      OUT_DATA: smsBlock(t.outProcs ?? [], t.outArgs),
    }),
    STARTPROCS: tps(),
    SYMNAME: q(t.name),
    USERECOVERDB: "1",
    ...(t.extra ?? {}),
  });
  return ["protocol", t.name, config];
}

/** A `process` record. */
export function processRecord(name: string): Record3 {
  return [
    "process",
    name,
    kl({
      DOMAINNAME: "localdomain",
      EODEFAULT: "1",
      HUBNAME: "localhub",
      LOGCYCLESIZE: "0",
      SMATCYCLESIZE: "0",
      TRACINGDEFAULT: "0",
      XLATE: kl({ XLATE_ORDER: "ANY", XLATE_SUB_CNT: "0", XLATE_TCL: "RESTRICTED", XLATEMAX: "0" }),
      XLATESTARTMODE: "0",
    }),
  ];
}

/** An inter-site `destination` record. */
export function destinationRecord(name: string, host: string, port: number): Record3 {
  return ["destination", name, kl({ HOST: q(host), PORT: String(port) })];
}

/**
 * Writes a site folder `root/site` with an empty siteInfo and a NetConfig of `records` (20.1 IDE
 * style), for tests that need a small engine root of their own.
 */
export async function writeSite(root: string, site: string, records: readonly Record3[]): Promise<void> {
  await Deno.mkdir(`${root}/${site}`, { recursive: true });
  await Deno.writeTextFile(`${root}/${site}/siteInfo`, "");
  await Deno.writeTextFile(
    `${root}/${site}/NetConfig`,
    writeNetConfig({ who: "hci", date: "May 21, 2021 9:39:05 AM CDT" }, records),
  );
}
