/**
 * A thread's operational settings in an operator's words: how it connects (TCP, PDL, TLS, files),
 * what it does with replies and ACKs, how it retries, its encoding, data procs and SMAT files.
 * These are spread over a dozen NetConfig blocks (research/cloverleaf.md 1.6-1.11) and decide most
 * "why did it do that" questions; `nc_show` and `nc_docs` print them above the raw configuration.
 *
 * Only settings the file holds are described; nothing is guessed. Relative file and folder names
 * resolve against the process folder (`<site>/exec/processes/<PROCESSNAME>/`), as the engine does.
 *
 * @module
 */
import type { KeyedList } from "./keyed_list.ts";
import type { NcEntry } from "./parse.ts";
import { isOn, tpsProcs } from "./routes.ts";

/** One line per subject: `[subject, text]`. */
export type Operation = [string, string];

function val(kl: KeyedList | undefined, key: string): string | undefined {
  const v = kl?.str(key)?.trim();
  return v === undefined || v === "" || v === "{}" ? undefined : v;
}

/** The procs of a TPS block as a line (`tps_ack tps_log (disabled)`), or undefined when none. */
function procs(kl: KeyedList | undefined): string | undefined {
  const list = tpsProcs(kl);
  if (list.length === 0) return undefined;
  return list.map((p) => (p.enabled ? p.name : `${p.name} (disabled)`)).join(" ");
}

/** `label value` when the value is set. */
function labelled(label: string, value: string | undefined): string | undefined {
  return value === undefined ? undefined : `${label} ${value}`;
}

/** The parts that are set, in order. */
function present(...parts: Array<string | false | undefined>): string[] {
  return parts.filter((x): x is string => typeof x === "string" && x !== "");
}

/** A path as the engine resolves it: relative ones under the process folder. */
function where(path: string, processDir: string | undefined): string {
  if (/^(?:[A-Za-z]:)?[\\/]/.test(path) || path === "nul:" || !processDir) return path;
  return `${processDir}/${path}`;
}

/** Seconds as the engine writes them: `-1` waits for ever. */
function seconds(v: string): string {
  if (v === "-1") return "no limit";
  // A long one in hours and minutes too, so 30000 reads as the 8 h 20 min it is.
  const n = Number(v);
  if (!Number.isInteger(n) || n < 120) return `${v} s`;
  const h = Math.floor(n / 3600), m = Math.floor((n % 3600) / 60), r = n % 60;
  const parts = [h && `${h} h`, m && `${m} min`, r && `${r} s`].filter(Boolean).join(" ");
  return `${v} s (${parts})`;
}

/** OBRESEND: 0 or 1 as written by the IDE; any other number is shown as it stands. */
function resend(v: string): string {
  return /^\d+$/.test(v) && Number(v) > 1 ? `yes (OBRESEND ${v})` : yesNo(v);
}

function yesNo(v: string | undefined): string {
  return isOn(v) ? "yes" : "no";
}

function connection(p: KeyedList | undefined, processDir: string | undefined): Operation[] {
  const type = val(p, "TYPE") ?? "";
  if (type === "tcpip" || type === "pdl-tcpip" || type === "pdl-async") {
    const port = val(p, "PORT") ?? "?";
    const local = val(p, "LOCAL_IP");
    const head = isOn(val(p, "ISSERVER"))
      ? `${type}, listens on port ${port}${local ? ` (${local})` : ""}`
      : `${type}, connects to ${val(p, "HOST") ?? "?"}:${port}`;
    const pdl = val(p, "PDLNAME");
    const timeout = val(p, "TCP_CONNECTION_TIMEOUT");
    const reconnect = val(p, "RECONNECT");
    const line = present(
      head,
      pdl && `PDL ${pdl}${val(p, "PDLTYPE") ? ` (${val(p, "PDLTYPE")})` : ""}`,
      (p?.str("MLP_PREFIX") ?? "") !== "" && "MLLP framing",
      labelled("length-encoded", val(p, "ENCODE_LEN")),
      timeout && `connect timeout ${seconds(timeout)}`,
      reconnect !== undefined && `reconnect ${isOn(reconnect) ? "on" : "off"}`,
    ).join("; ");
    const mode = val(p, "MODE");
    return [
      ["connection", line],
      ["tls", isOn(val(p, "IS_SSL")) ? `on${mode ? `, mode ${mode}` : ""}` : "off (plain TCP)"],
    ];
  }
  if (type === "file") {
    const inFile = val(p, "INFILE"), outFile = val(p, "OUTFILE"), format = val(p, "INFORMAT");
    const parts = present(
      inFile && `reads ${where(inFile, processDir)}${format ? ` (${format})` : ""}`,
      outFile && `writes ${where(outFile, processDir)}${isOn(val(p, "OUTAPPEND")) ? " (appends)" : ""}`,
    );
    return [["connection", ["file", ...parts].join("; ")]];
  }
  if (type.startsWith("fileset")) {
    const mode = val(p, "MODE") ?? (type === "fileset" ? "local" : type.slice("fileset-".length));
    const ib = val(p, "IBDIR"), ob = val(p, "OBDIR"), scan = val(p, "IBSCANINTERVAL");
    const host = val(p, "FTPHOST"), ftpPort = val(p, "FTPPORT");
    const parts = present(
      ib && `reads ${where(ib, processDir)}${scan ? ` every ${scan} s` : ""}`,
      ob && `writes ${where(ob, processDir)}`,
      host && `host ${host}${ftpPort ? `:${ftpPort}` : ""}`,
      labelled("directory parse", procs(p?.kl("IBDIRPARSE"))),
    );
    return [["connection", [`fileset (${mode})`, ...parts].join("; ")]];
  }
  if (type === "") return [];
  const parts = present(
    labelled("read", procs(p?.kl("READTPS"))),
    labelled("write", procs(p?.kl("WRITETPS"))),
  );
  return [["connection", [type, ...parts].join("; ")]];
}

/**
 * The operational settings of a thread (a `protocol` record); `siteDir` places relative file names.
 *
 * @example
 * ```ts
 * import { parseNetConfig } from "./parse.ts";
 * const nc = parseNetConfig("protocol a {\n { PROTOCOL { { TYPE tcpip } { PORT 5001 } { ISSERVER 1 } } }\n}\n");
 * operationsOf(nc.protocols[0]); // [["connection", "tcpip, listens on port 5001"], ["tls", "off (plain TCP)"], ...]
 * ```
 */
export function operationsOf(entry: NcEntry, siteDir?: string): Operation[] {
  const c = entry.config;
  const process = val(c, "PROCESSNAME");
  const processDir = siteDir && process ? `${siteDir}/exec/processes/${process}` : undefined;
  const out = connection(c.kl("PROTOCOL"), processDir);

  const encoding = present(val(c, "ENCODING"), labelled("HL7", val(c, "ENCODING_HL7")));
  if (encoding.length) out.push(["encoding", encoding.join(", ")]);

  // Replies and ACKs.
  const reply = c.kl("REPLYCONTROL");
  const sms = c.kl("SMS");
  const timeout = val(reply, "TIMEOUT");
  const replyXlate = c.get("REPLYXLATE");
  const replyRoutes = Array.isArray(replyXlate) ? replyXlate.length : 0;
  // A thread that does not wait for replies has no reply timeout to act on: said once, not as if
  // it resent.
  const noWait = val(reply, "WAIT") !== undefined && !isOn(val(reply, "WAIT"));
  const replies = present(
    !noWait && timeout !== undefined && `reply timeout ${seconds(timeout)}`,
    val(reply, "WAIT") !== undefined &&
      (noWait ? "waits for the reply: no (so no reply timeout or resend)" : `waits for the reply: yes`),
    !noWait && val(reply, "OBRESEND") !== undefined &&
      `resends after a timeout: ${resend(val(reply, "OBRESEND")!)}`,
    labelled("generated reply", val(reply?.kl("REPLYGEN"), "TYPE")),
    labelled("IN_REPLY procs", procs(sms?.kl("IN_REPLY"))),
    labelled("OUT_REPLY procs", procs(sms?.kl("OUT_REPLY"))),
    labelled("ACK procs", procs(c.kl("RECVCONTROL")?.kl("ACKCONTROL"))),
    replyRoutes > 0 && `${replyRoutes} reply route${replyRoutes === 1 ? "" : "s"} (REPLYXLATE)`,
  );
  if (replies.length) out.push(["replies", replies.join("; ")]);

  // Outbound delivery.
  const send = c.kl("SENDDATACTRL");
  const retries = val(send, "RETRIES"), interval = val(send, "INTERVAL");
  const delivery = present(
    retries !== undefined && `retries ${retries === "-1" ? "for ever" : retries}`,
    interval !== undefined && `every ${seconds(interval)}`,
    val(send, "FORWARDTHREAD") && `forwards to ${val(send, "FORWARDTHREAD")} when it gives up`,
    labelled("pre-write procs", procs(send?.kl("PREWRITEPROCS"))),
    labelled("on success", procs(send?.kl("OKPROCS"))),
    labelled("on failure", procs(send?.kl("FAILPROCS"))),
  );
  if (delivery.length) out.push(["delivery", delivery.join("; ")]);

  const data = present(
    labelled("IN_DATA", procs(sms?.kl("IN_DATA"))),
    labelled("OUT_DATA", procs(sms?.kl("OUT_DATA"))),
  );
  if (data.length) out.push(["data procs", data.join("; ")]);

  const save = c.kl("SAVEMSGS");
  const smat = present(
    isOn(val(save, "INSAVE")) && `inbound to ${where(val(save, "INFILE") ?? "?", processDir)}`,
    isOn(val(save, "OUTSAVE")) && `outbound to ${where(val(save, "OUTFILE") ?? "?", processDir)}`,
  );
  out.push(["smat", smat.length ? smat.join("; ") : "not saved"]);
  return out;
}

/** The settings as lines under a heading, for a text view. */
export function operationsText(ops: readonly Operation[]): string {
  if (ops.length === 0) return "";
  const width = Math.max(...ops.map(([k]) => k.length));
  return ["operations:", ...ops.map(([k, v]) => `  ${k.padEnd(width)}  ${v}`)].join("\n");
}
