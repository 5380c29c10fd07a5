/**
 * The evaluation's operator questions and their answer keys. Every key is computed here from the
 * engine model (engine_model.ts) and the generated traffic (messages.ts), never by calling the
 * program's tools, so a tool that misreads the files cannot make its own answer "right".
 */
import type { ThreadSpec } from "../support/nc_writer.ts";
import {
  EHR_OUT,
  lab,
  LAB_PROD_ENV,
  LAB_TEST_ENV,
  LAB_VERSIONS,
  PROD,
  prodSites,
  RAD_SAVES,
  RAD_VERSIONS,
  type SiteModel,
  TEST,
  type Variant,
} from "./engine_model.ts";
import { DAY0, PHARMBILL_TZ, type Traffic } from "./messages.ts";

export interface Question {
  id: string;
  kind: string;
  text: string;
}

export const QUESTIONS: Question[] = [
  {
    id: "q01",
    kind: "paths",
    text:
      "Where do ADT A08 messages from adthub's reg_adt_in end up? Give every final destination thread, across sites.",
  },
  {
    id: "q02",
    kind: "ports",
    text: "Do any two threads on this engine listen on the same TCP port? Name them.",
  },
  {
    id: "q03",
    kind: "count",
    text:
      "How many ADT^A08 messages did adthub's reg_adt_in receive from 2026-11-24 06:00 to 2026-11-24 18:00 UTC?",
  },
  {
    id: "q04",
    kind: "group",
    text:
      "Give the count of messages by message type (MSH-9) that adthub's reg_adt_in received on 2026-11-25 (UTC day).",
  },
  {
    id: "q05",
    kind: "obx",
    text:
      "Which ORU results received by lab's lab_results_in on 2026-11-25 (UTC) had an abnormal OBX (flag H, L, HH or LL)? Give each message's control ID with the test code and flag.",
  },
  {
    id: "q06",
    kind: "revisions",
    text:
      "What changed in the lab site's NetConfig between its last two saved versions? Give old and new values.",
  },
  {
    id: "q07",
    kind: "cross-site",
    text:
      "Which threads on other sites send messages into the rad site, and through which destination or port?",
  },
  {
    id: "q08",
    kind: "disabled",
    text:
      "List every disabled route and every disabled route detail on this engine (site, thread, TRXID, destination).",
  },
  {
    id: "q09",
    kind: "reply",
    text:
      "How does adthub's lab_adt_out handle the ACKs lab sends back: does it wait for a reply, what is the reply timeout, which proc checks the reply, and where are the replies routed?",
  },
  {
    id: "q10",
    kind: "acks",
    text:
      "Which messages sent by adthub's lab_adt_out were rejected by lab (ACK code AE or AR)? Give the original control IDs and the code.",
  },
  {
    id: "q11",
    kind: "ports",
    text:
      "Is there a thread that connects to a port on localhost where no thread of this engine listens? Name it and the port.",
  },
  {
    id: "q12",
    kind: "compare",
    text:
      "Compare adthub's reg_adt_in on this engine (prod) with the same thread on the test engine root at {TEST_ROOT}: what differs?",
  },
  { id: "q13", kind: "refs", text: "Where is the table fin_class_map used (site, thread, route, proc)?" },
  {
    id: "q14",
    kind: "group",
    text: "In which UTC hour of 2026-11-24 did adthub's reg_adt_in receive the most messages, and how many?",
  },
  {
    id: "q15",
    kind: "connection",
    text:
      "The EHR team asks how lab's ehr_results_out connects to them: which host and port, which protocol and PDL, is it TLS, and what does it do when a send fails (how many retries, how often)?",
  },
  {
    id: "q16",
    kind: "generate",
    text:
      "Where do the ADT^A11 messages that adthub's reg_adt_in receives end up, and in which file or directory on the engine host are they written?",
  },
  {
    id: "q17",
    kind: "facilities",
    text:
      "Which sending facilities (MSH-4) sent messages to pharmbill's bill_in on Tuesday 24 November 2026, the pharmbill site's own calendar day? Give a count per facility, and the site's local time of the last message that day.",
  },
  {
    id: "q18",
    kind: "control-id",
    text:
      "Did the messages with control IDs (MSH-10) {A08_CTL} and {A03_CTL}, received by adthub's reg_adt_in, go out on lab_adt_out, and did lab ACK them? If one did not, why not?",
  },
  {
    id: "q19",
    kind: "ack-latency",
    text:
      "Which message sent by adthub's lab_adt_out waited longest for lab's ACK? Give its control ID, the wait and the ACK code. And how many of lab_adt_out's messages waited more than 3 seconds for their ACK?",
  },
  {
    id: "q20",
    kind: "revisions",
    text:
      "When was the port of rad's ris_adt_out last changed in a saved version, from what to what, and by whom? Which saved version is the live NetConfig, and which port is live now?",
  },
  {
    id: "q21",
    kind: "compare-site",
    text:
      "Which threads of the lab site are set up differently on the test engine root at {TEST_ROOT} than on this (prod) engine, and how?",
  },
  {
    id: "q22",
    kind: "impact",
    text:
      "If I disable lab's lab_adt_in, which threads on any site stop receiving messages, and which thread that sends to it is affected? Say what each carries today.",
  },
];

type Key = Record<string, unknown>;

const field = (msg: string, seg: string, n: number): string =>
  (msg.split("\r").find((s) => s.startsWith(seg + "|")) ?? "").split("|")[n] ?? "";

/** Final destinations of `trxid` from `site/thread`, following destinations (ICL) and local TCP ports. */
function finalDestinations(sites: SiteModel[], site: string, thread: string, trxid: string): Key {
  const threadOf = (s: string, t: string) =>
    sites.find((x) => x.name === s)?.threads.find((y) => y.name === t);
  const ends = new Set<string>(), dropped = new Set<string>();
  const visit = (s: string, t: ThreadSpec, seen: Set<string>) => {
    const here = `${s}/${t.name}`;
    if (seen.has(here)) return;
    seen.add(here);
    const routes = (t.routes ?? []).filter((r) => r.trxid === trxid);
    if (!t.routes?.length) {
      // An outbound thread: does it reach a listener of this engine?
      const listener = t.host === "localhost"
        ? sites.flatMap((x) => x.threads.map((y) => [x.name, y] as const)).find(([, y]) =>
          y.isServer && y.port === t.port
        )
        : undefined;
      if (listener) visit(listener[0], listener[1], seen);
      else ends.add(here);
      return;
    }
    if (routes.length === 0) dropped.add(`${here} (no ${trxid} route)`);
    for (const r of routes) {
      if (r.enabled === false) {
        dropped.add(`${here} (route disabled)`);
        continue;
      }
      for (const d of r.details) {
        if (d.enabled === false) {
          dropped.add(`${here} -> ${d.dest?.join(",")} (detail disabled)`);
          continue;
        }
        for (const name of d.dest ?? []) {
          const local = threadOf(s, name);
          if (local) {
            visit(s, local, seen);
            continue;
          }
          const dest = sites.find((x) => x.name === s)!.dests.find((x) => x.name === name)!;
          const target = sites.flatMap((x) => x.threads.map((y) => [x.name, y] as const)).find(([, y]) =>
            y.icl === dest.port
          )!;
          visit(target[0], target[1], seen);
        }
      }
    }
  };
  visit(site, threadOf(site, thread)!, new Set());
  return { final_destinations: [...ends].sort(), stops_without_delivery: [...dropped].sort() };
}

function variantDiff(a: Variant, b: Variant): Key {
  const out: Key = {};
  for (const k of Object.keys(a) as Array<keyof Variant>) {
    if (a[k] !== b[k]) out[k] = { old: a[k], new: b[k] };
  }
  return out;
}

export function answerKeys(t: Traffic): Record<string, Key> {
  const sites = prodSites();
  const all = sites.flatMap((s) => s.threads.map((th) => ({ site: s.name, th })));
  const typeOf = (m: { content: string | Uint8Array }) => field(m.content as string, "MSH", 8);
  const inWindow = (from: number, to: number) => t.regAdt.filter((m) => m.time >= from && m.time <= to);
  const H = 3_600_000;

  const byPort = new Map<number, string[]>();
  for (const { site, th } of all) {
    if (th.isServer) byPort.set(th.port!, [...(byPort.get(th.port!) ?? []), `${site}/${th.name}`]);
  }
  const counts = (ms: typeof t.regAdt) => {
    const c: Record<string, number> = {};
    for (const m of ms) c[typeOf(m)] = (c[typeOf(m)] ?? 0) + 1;
    return c;
  };
  const nov25 = DAY0 + 2 * 24 * H, nov24 = DAY0 + 24 * H;
  const abnormal = t.labResults.filter((m) => m.time >= nov25 && m.time < nov25 + 24 * H).flatMap((m) => {
    const c = m.content as string;
    return c.split("\r").filter((s) => s.startsWith("OBX|")).map((s) => s.split("|")).filter((f) =>
      ["H", "L", "HH", "LL"].includes(f[8])
    ).map((f) => `${field(c, "MSH", 9)} ${f[3].split("^")[0]} ${f[8]}`);
  });
  const rejected = t.labAdtAck.map((m) => m.content as string).filter((c) => field(c, "MSA", 1) !== "AA").map(
    (
      c,
    ) => `${field(c, "MSA", 2)} ${field(c, "MSA", 1)}`,
  );
  const hours = Array.from(
    { length: 24 },
    (_, h) => t.regAdt.filter((m) => m.time >= nov24 + h * H && m.time < nov24 + (h + 1) * H).length,
  );
  const maxH = Math.max(...hours);

  const intoRad: string[] = [];
  for (const s of sites) {
    if (s.name === "rad") continue;
    for (const d of s.dests) {
      const target = all.find((x) => x.th.icl === d.port);
      if (target?.site !== "rad") continue;
      for (const th of s.threads) {
        if (th.routes?.some((r) => r.details.some((x) => x.dest?.includes(d.name)))) {
          intoRad.push(
            `${s.name}/${th.name} via destination ${d.name} (localhost:${d.port}) -> rad/${target.th.name}`,
          );
        }
      }
    }
  }
  const disabled: string[] = [];
  for (const { site, th } of all) {
    for (const r of th.routes ?? []) {
      if (r.enabled === false) disabled.push(`route ${site}/${th.name} ${r.trxid}`);
      for (const d of r.details) {
        if (d.enabled === false) {
          disabled.push(`detail ${site}/${th.name} ${r.trxid} -> ${d.dest?.join(",")}`);
        }
      }
    }
  }
  const servers = new Set(all.filter((x) => x.th.isServer).map((x) => x.th.port));
  const lonely = all.filter((x) => !x.th.isServer && x.th.host === "localhost" && !servers.has(x.th.port))
    .map((
      x,
    ) => `${x.site}/${x.th.name} -> localhost:${x.th.port}`);
  const replyThread = all.find((x) => x.th.name === "lab_adt_out")!.th;

  return {
    q01: finalDestinations(sites, "adthub", "reg_adt_in", "ADT_A08"),
    q02: { shared: [...byPort].filter(([, v]) => v.length > 1).map(([p, v]) => `${p}: ${v.join(" and ")}`) },
    q03: { count: inWindow(nov24 + 6 * H, nov24 + 18 * H).filter((m) => typeOf(m) === "ADT^A08").length },
    q04: counts(t.regAdt.filter((m) => m.time >= nov25 && m.time < nov25 + 24 * H)),
    q05: { abnormal },
    q06: { from: "1.2", to: "1.3 (live)", changes: variantDiff(LAB_VERSIONS[1], LAB_VERSIONS[2]) },
    q07: { into_rad: intoRad },
    q08: { disabled },
    q09: {
      wait: "yes (REPLYCONTROL WAIT 1)",
      // Written as 30000 meaning ms; the program reads REPLYCONTROL TIMEOUT as seconds (research notes
      // show TIMEOUT 45): judge the value, not the unit.
      timeout: "30000 (REPLYCONTROL TIMEOUT)",
      resends: 3,
      in_reply_proc: "cl_check_ack {RESEND_ON AR}",
      reply_routes: (replyThread.replyRoutes ?? []).map((r) => `${r.trxid} raw -> ${r.details[0].dest}`),
      replies_saved_in: replyThread.smatIn,
    },
    q10: { rejected },
    q11: { no_listener: lonely },
    q12: { differences_prod_vs_test: variantDiff(PROD, TEST) },
    q13: {
      used_by:
        `pharmbill/bill_in route DFT_P03 detail 1 (raw -> bill_out), proc tps_fin_class ARGS {TABLE fin_class_map}`,
    },
    q14: {
      hours: hours.map((
        n,
        h,
      ) => (n === maxH ? `${String(h).padStart(2, "0")}:00-${String(h + 1).padStart(2, "0")}:00 UTC` : ""))
        .filter(Boolean),
      count: maxH,
    },
    ...laterKeys(t, sites),
  };
}

const H = 3_600_000;

/** `2026-11-24 17:05:09 UTC` (seconds, as SMAT keeps them). */
function utc(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace("T", " ") + " UTC";
}

/** pharmbill's wall clock: America/Chicago is CST (UTC-6) all through late November 2026. */
const CST = -6 * H;
function cst(ms: number): string {
  return new Date(ms + CST).toISOString().slice(0, 19).replace("T", " ") + " CST (UTC-6)";
}

/** lab_adt_out's messages with their ACKs (joined by MSA-2 = MSH-10) and the wait in seconds. */
function ackPairs(t: Traffic) {
  const acks = new Map(t.labAdtAck.map((a) => [field(a.content as string, "MSA", 2), a]));
  return t.labAdtOut.map((m) => {
    const ctl = field(m.content as string, "MSH", 9);
    const ack = acks.get(ctl)!;
    return {
      ctl,
      sent: m.time,
      ack,
      code: field(ack.content as string, "MSA", 1),
      wait: (ack.time - m.time) / 1000,
    };
  });
}

/** The control IDs q18 names: the first A08 that lab accepted (AA) and the first A03, both on 2026-11-25 UTC. */
function q18Messages(t: Traffic) {
  const nov25 = DAY0 + 2 * 24 * H;
  const day = t.regAdt.filter((m) => m.time >= nov25);
  const accepted = new Set(ackPairs(t).filter((p) => p.code === "AA").map((p) => p.ctl));
  const typeOf = (m: { content: string | Uint8Array }) => field(m.content as string, "MSH", 8);
  const ctl = (m: { content: string | Uint8Array }) => field(m.content as string, "MSH", 9);
  const a08 = day.find((m) => typeOf(m) === "ADT^A08" && accepted.has(ctl(m)))!;
  const a03 = day.find((m) => typeOf(m) === "ADT^A03")!;
  return { a08, a03, a08Ctl: ctl(a08), a03Ctl: ctl(a03) };
}

/** Values put into the question texts (control IDs drawn from the traffic). */
export function questionVars(t: Traffic): Record<string, string> {
  const { a08Ctl, a03Ctl } = q18Messages(t);
  return { A08_CTL: a08Ctl, A03_CTL: a03Ctl };
}

function laterKeys(t: Traffic, sites: SiteModel[]): Record<string, Key> {
  const threadOf = (s: string, name: string) =>
    sites.find((x) => x.name === s)!.threads.find((y) => y.name === name)!;

  // q16: the generate detail's ARGS name the destination; a fileset writes OBDIR under its process.
  const reg = threadOf("adthub", "reg_adt_in");
  const a11 = reg.routes!.find((r) => r.trxid === "ADT_A11")!.details[0];
  const named = /\{DEST\s+([^}\s]+)\}/.exec(a11.args?.[0] ?? "")![1];
  const archive = threadOf("adthub", named);

  // q17: pharmbill's day in its own zone; SmatHistory copies (same MID) counted once.
  const byMid = new Map([...t.billInHistory, ...t.billIn].map((m) => [m.mid, m]));
  const from = Date.UTC(2026, 10, 24) - CST, to = from + 24 * H;
  const facilityCounts = (lo: number, hi: number, ms: Iterable<(typeof t.billIn)[number]>) => {
    const c: Record<string, number> = {};
    for (const m of ms) {
      if (m.time < lo || m.time >= hi) continue;
      const f = field(m.content as string, "MSH", 3);
      c[f] = (c[f] ?? 0) + 1;
    }
    return Object.fromEntries(Object.entries(c).sort(([a], [b]) => a.localeCompare(b)));
  };
  const dayMsgs = [...byMid.values()].filter((m) => m.time >= from && m.time < to);
  const last = Math.max(...dayMsgs.map((m) => Math.floor(m.time / 1000) * 1000));
  const copies =
    t.billInHistory.filter((m) => m.time >= from && m.time < to && t.billIn.some((c) => c.mid === m.mid))
      .length;

  // q18, q19: lab_adt_out and its ACKs.
  const pairs = ackPairs(t);
  const { a08, a03, a08Ctl, a03Ctl } = q18Messages(t);
  const a08Pair = pairs.find((p) => p.ctl === a08Ctl)!;
  const slowest = pairs.reduce((a, b) => (b.wait > a.wait ? b : a));
  const a03Route = reg.routes!.find((r) => r.trxid === "ADT_A03")!;

  // q20: the saved version where ris_adt_out's port last changed, and the version the live file equals.
  const ports = RAD_VERSIONS.map((v) => v.risAdtPort);
  const changedAt = ports.findLastIndex((p, i) => i > 0 && p !== ports[i - 1]);
  const livePort = threadOf("rad", "ris_adt_out").port!;
  const liveIs = RAD_SAVES.filter((_, i) => ports[i] === livePort).map((s) => s.version);

  // q21: lab's threads on prod and on the test root.
  const prodLab = lab(PROD, LAB_PROD_ENV), testLab = lab(TEST, LAB_TEST_ENV);
  const differing = prodLab.threads.filter((th) =>
    JSON.stringify(th) !== JSON.stringify(testLab.threads.find((x) => x.name === th.name))
  ).map((th) => th.name);

  // q22: who connects to lab_adt_in's port, and what lab_adt_in feeds (and whether anything else feeds it).
  const target = threadOf("lab", "lab_adt_in");
  const all = sites.flatMap((s) => s.threads.map((th) => ({ site: s.name, th })));
  const senders = all.filter((x) => !x.th.isServer && x.th.host === "localhost" && x.th.port === target.port);
  const feeds = [...new Set(target.routes!.flatMap((r) => r.details.flatMap((d) => d.dest ?? [])))];
  const otherSources = (name: string) =>
    all.filter((x) =>
      x.th !== target && x.th.routes?.some((r) => r.details.some((d) => d.dest?.includes(name)))
    );
  const carried = (th: typeof target, dest: string) =>
    (th.routes ?? []).flatMap((r) =>
      r.details.filter((d) => d.dest?.includes(dest)).map((d) =>
        `${r.trxid} ${d.type}${d.xlate ? ` ${d.xlate}` : ""}${
          r.enabled === false ? " (route disabled)" : d.enabled === false ? " (detail disabled)" : ""
        }`
      )
    );

  // What reaches lab_adt_in today (enabled at every sender) and passes on (enabled at lab_adt_in).
  const on = (th: typeof target, dest: string) =>
    new Set(
      (th.routes ?? []).filter((r) =>
        r.enabled !== false && r.details.some((d) => d.enabled !== false && d.dest?.includes(dest))
      ).map((r) => r.trxid),
    );
  const arriving = new Set(
    senders.flatMap((x) =>
      all.filter((y) => y.th.routes?.some((r) => r.details.some((d) => d.dest?.includes(x.th.name))))
        .flatMap((y) => [...on(y.th, x.th.name)])
    ),
  );
  const flowingToday = feeds.flatMap((f) => [...on(target, f)].filter((tx) => arriving.has(tx)));

  return {
    q15: {
      host: EHR_OUT.host,
      port: EHR_OUT.port,
      protocol: `pdl-tcpip client, PDL ${EHR_OUT.pdl} (${EHR_OUT.pdlType})`,
      tls: `on (IS_SSL 1), mode ${EHR_OUT.tlsMode}`,
      retries: `${EHR_OUT.retries} (SENDDATACTRL RETRIES)`,
      retry_interval: `${EHR_OUT.interval} (SENDDATACTRL INTERVAL; judge the value, not the unit)`,
      half_right: "host, port and PDL right but TLS or the retry settings missing or wrong",
    },
    q16: {
      route: `reg_adt_in ADT_A11: a generate detail, proc ${a11.procs!.join(" ")} with ARGS ${a11.args![0]}`,
      destination: `adthub/${archive.name} (${archive.type}, local)`,
      written_to:
        `<prod root>/adthub/exec/processes/${archive.process}/${archive.obdir} (OBDIR ${archive.obdir})`,
      half_right:
        "names the generate proc but not the destination its ARGS name, or the thread but not the directory",
    },
    q17: {
      window: `${cst(from)} to ${cst(to)} = ${utc(from)} to ${
        utc(to)
      } (zone ${PHARMBILL_TZ} from pharmbill's siteInfo)`,
      counts: facilityCounts(from, to, byMid.values()),
      total: dayMsgs.length,
      last_message: `${cst(last)} (${utc(last)})`,
      wrong_if_utc_day: facilityCounts(Date.UTC(2026, 10, 24), Date.UTC(2026, 10, 25), byMid.values()),
      wrong_if_copies_counted_twice: `total ${
        dayMsgs.length + copies
      } (${copies} messages are both in bill_in.idx and the SmatHistory copy)`,
      half_right:
        "the four facilities right with counts of the UTC day or with SmatHistory copies counted twice, or the last time wrong",
    },
    q18: {
      [a08Ctl]: `ADT^A08 received ${utc(a08.time)}; sent on lab_adt_out ${
        utc(a08Pair.sent)
      }; ACK ${a08Pair.code} ${utc(a08Pair.ack.time)} (${a08Pair.wait} s later)`,
      [a03Ctl]: `ADT^A03 received ${
        utc(a03.time)
      }; never sent on lab_adt_out, no ACK: reg_adt_in's ADT_A03 route is disabled (ROUTE_ENABLED ${
        a03Route.enabled === false ? 0 : 1
      }) on prod`,
      half_right: "one of the two right, or the A03 'not sent' without the disabled route as the reason",
    },
    q19: {
      slowest: `${slowest.ctl}: ${slowest.wait} s (sent ${utc(slowest.sent)}, ACK ${
        utc(slowest.ack.time)
      }), code ${slowest.code}`,
      waited_more_than_3_s: pairs.filter((p) => p.wait > 3).length,
      of: pairs.length,
      half_right: "the slowest right but the count wrong, or the other way round",
    },
    q20: {
      last_change: `version ${RAD_SAVES[changedAt].version}, checked in ${
        utc(RAD_SAVES[changedAt].time)
      } by ${RAD_SAVES[changedAt].operator} ("${RAD_SAVES[changedAt].comment}"): PORT ${
        ports[changedAt - 1]
      } -> ${ports[changedAt]}`,
      live: `the live NetConfig equals saved version ${liveIs.join(", ")} (a rollback: ${
        RAD_SAVES.at(-1)!.version
      } is not live)`,
      live_port: livePort,
      half_right: `the change right but says ${RAD_SAVES.at(-1)!.version} or port ${ports.at(-1)} is live`,
    },
    q21: {
      differing_threads: differing,
      lab_sys_out:
        `HOST ${PROD.labSysHost} -> ${LAB_TEST_ENV.labSysHost}; PORT ${LAB_PROD_ENV.labSysPort} -> ${LAB_TEST_ENV.labSysPort}`,
      ehr_results_out: `TLS: IS_SSL 1 (mode ${EHR_OUT.tlsMode}) on prod -> IS_SSL 0 on test`,
      same: prodLab.threads.map((th) => th.name).filter((n) => !differing.includes(n)),
      half_right: "one of the two threads missed, or a difference claimed in a thread that is the same",
    },
    q22: {
      sender_affected: senders.map((x) =>
        `${x.site}/${x.th.name} (connects to localhost:${x.th.port}): its messages queue, no ACKs come back; it carries ${
          all.filter((y) => y.th.routes?.some((r) => r.details.some((d) => d.dest?.includes(x.th.name)))).map(
            (y) => `${y.site}/${y.th.name} ${carried(y.th, x.th.name).join(", ")}`,
          ).join("; ")
        }`
      ),
      stop_receiving: [
        ...feeds.filter((f) => otherSources(f).length === 0).map((f) =>
          `lab/${f} (fed only by lab_adt_in: ${carried(target, f).join(", ")})`
        ),
        ...senders.flatMap((x) =>
          (x.th.replyRoutes ?? []).flatMap((r) => r.details.flatMap((d) => d.dest ?? [])).map((d) =>
            `${x.site}/${d} (the ACKs of ${x.th.name}, its REPLYXLATE route)`
          )
        ),
      ],
      carries_today: `lab_adt_in -> lab_sys_out: ${
        flowingToday.join(", ")
      } only (ADT_A08: lab_adt_in's detail disabled; ADT_A03: lab_adt_in would pass it, but reg_adt_in's ADT_A03 route is disabled, so none arrives)`,
      half_right:
        "lab_adt_out and lab_sys_out named but ack_audit_out missed, or says ADT_A08 or ADT_A03 reaches lab_sys_out today",
    },
  };
}
