/**
 * The evaluation's operator questions and their answer keys. Every key is computed here from the
 * engine model (engine_model.ts) and the generated traffic (messages.ts), never by calling the
 * program's tools, so a tool that misreads the files cannot make its own answer "right".
 */
import type { ThreadSpec } from "../support/nc_writer.ts";
import { LAB_VERSIONS, PROD, prodSites, type SiteModel, TEST, type Variant } from "./engine_model.ts";
import { DAY0, type Traffic } from "./messages.ts";

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
  };
}
