/**
 * Fuzzing the NetConfig reader with mutated files (seeded, so a failure is reproducible from the
 * case number): whatever the bytes, parseNetConfig returns a model or throws its own NetConfigError
 * (with a line and column inside the file), and everything built on the model (routes, thread
 * summaries, rendering, diffs, the route tracer) accepts what it returns. A file that parses is
 * also read a second way, by plain repeated Tcl list splitting, and must give the same values: the
 * in-place reader is an optimisation of that, not a different dialect; and the one-pass reader
 * (netconfig/_fast.ts) must give exactly what the general reader gives.
 */
import { mulberry32 } from "../../support/prng.ts";
import { deepStrictEqual as assertEquals, fail, ok as assert } from "node:assert/strict";
import {
  type KlValue,
  NetConfigError,
  parseNetConfig,
  routesOf,
  routeTargets,
  splitList,
  threadInfo,
  valueToJSON,
} from "../../../tools/engine/netconfig/mod.ts";
import { entryShape, type Shape } from "../../../tools/engine/netconfig/schema.ts";
import { renderTree } from "../../../tools/engine/netconfig/render.ts";
import { diffConfig } from "../../../tools/engine/diff.ts";
import { RouteGraph } from "../../../tools/engine/paths.ts";
import { destinationRecord, processRecord, protocolRecord, writeNetConfig } from "../../support/nc_writer.ts";

const CASES = 10_000;

/** The shared seeded PRNG: good enough for choosing mutations. */
const prng = mulberry32;

function corpus(): string[] {
  const threads = [
    protocolRecord({
      name: "adt_in",
      process: "p",
      type: "pdl-tcpip",
      isServer: true,
      port: 5001,
      icl: 7001,
      smatIn: "adt_in",
      routes: [
        {
          trxid: "ADT_A01",
          details: [{ type: "xlate", dest: ["out_a", "icl_b"], xlate: "x.xlt", pre: ["pp"] }],
        },
        { trxid: "ADT_A08", enabled: false, details: [{ type: "raw", dest: ["out_a"], procs: ["q"] }] },
        { trxid: "ORM", details: [{ type: "generate", procs: ["gen"] }] },
      ],
      replyRoutes: [{ trxid: "ACK", details: [{ type: "raw", dest: ["adt_in"] }] }],
    }),
    protocolRecord({
      name: "out_a",
      process: "p",
      type: "tcpip",
      host: "localhost",
      port: 7001,
      smatOut: "o",
    }),
  ];
  const records = [processRecord("p"), ...threads, destinationRecord("icl_b", "h", 7001)];
  return [
    writeNetConfig({ who: "fuzz", date: "May 21, 2021 9:39:05 AM CDT" }, records),
    writeNetConfig({ who: "fuzz", date: "Mon Jun 24 22:03:45 MDT 2002" }, records.slice(0, 2), {
      style: "tcl",
      bom: true,
      crlf: true,
      preamble: ["# c"],
    }),
    'prologue\n who: x\nend_prologue\nprotocol "a b" "{PROCESSNAME p} {X \\{y\\}}" \nprocess p {} \n',
  ];
}

const PIECES = [
  "{",
  "}",
  '"',
  "\\",
  "\n",
  "\r\n",
  " ",
  "\t",
  "#",
  "\uFEFF",
  "$",
  "[",
  "]",
  "{}",
  "\\{",
  "\\\n",
  "x",
  "prologue\n",
  "end_prologue\n",
  "protocol ",
  "process ",
  "destination ",
  "{ TRXID ",
  "{ DEST {",
  "\0",
  "é",
];

function mutate(text: string, r: () => number): string {
  let s = text;
  const n = 1 + Math.floor(r() * 4);
  for (let k = 0; k < n; k++) {
    const at = Math.floor(r() * (s.length + 1));
    switch (Math.floor(r() * 7)) {
      case 0:
      case 1:
        s = s.slice(0, at) + PIECES[Math.floor(r() * PIECES.length)] + s.slice(at);
        break;
      case 2:
        s = s.slice(0, at) + s.slice(at + 1 + Math.floor(r() * 8));
        break;
      case 3: {
        const len = Math.floor(r() * 200);
        s = s.slice(0, at) + s.slice(at, at + len) + s.slice(at);
        break;
      }
      case 4:
        s = s.slice(0, at);
        break;
      case 5:
        s = s.slice(0, at) + String.fromCharCode(Math.floor(r() * 128)) + s.slice(at + 1);
        break;
      case 6: {
        const from = Math.floor(r() * s.length);
        const len = Math.floor(r() * 400);
        s = s.slice(0, at) + s.slice(from, from + len) + s.slice(at);
        break;
      }
    }
  }
  return s;
}

/** The reference reading: plain splitting of extracted text, level by level, with the schema. */
function reference(text: string, shape: Shape): unknown | undefined {
  if (shape.kind === "scalar") return text;
  if (shape.kind === "list") {
    const items = splitList(text).map((t) => reference(t, shape.item));
    return items.some((i) => i === undefined) ? undefined : items;
  }
  const out: Record<string, unknown> = {};
  for (const el of splitList(text)) {
    const kv = splitList(el);
    if (kv.length !== 2) return undefined; // irregular: the reader keeps what it can, not compared
    const f = shape.fields;
    const sub = (Object.hasOwn(f, kv[0])
      ? f[kv[0]]
      : Object.hasOwn(f, kv[0].toUpperCase())
      ? f[kv[0].toUpperCase()]
      : undefined) ??
      { kind: "scalar" as const };
    const v = reference(kv[1], sub);
    if (v === undefined) {
      return undefined;
    }
    if (kv[0] in out) {
      return undefined; // a repeated key: JSON would keep the last, the reader both
    }
    out[kv[0]] = v;
  }
  return out;
}

function exercise(
  nc: ReturnType<typeof parseNetConfig>,
  base: ReturnType<typeof parseNetConfig> | undefined,
) {
  const targets = routeTargets(nc);
  for (const p of nc.protocols) {
    routesOf(p, true);
    threadInfo(p, targets);
    renderTree(p.config);
    JSON.stringify(valueToJSON(p.config as KlValue));
    const old = base?.protocol(p.name);
    if (old) diffConfig(old.config, p.config);
    p.config.at("PROTOCOL.PORT");
    p.config.at("DATAXLATE.1.ROUTE_DETAILS.1.DEST");
  }
  const site = { name: "s", dir: "/s", hasNetConfig: true };
  const graph = new RouteGraph([{ site, nc }], { includeDisabled: true });
  graph.feeders();
  for (const start of graph.entryThreads("s").nodes.slice(0, 3)) {
    graph.trace(start, { maxHops: 6, limit: 50 });
  }
}

Deno.test(`NetConfig fuzz: ${CASES} mutated files, only NetConfigError escapes, values agree with plain splitting`, () => {
  const bases = corpus();
  const parsedBases = bases.map((b) => parseNetConfig(b));
  const r = prng(0x5eed);
  let parsed = 0, errors = 0, compared = 0;
  for (let i = 0; i < CASES; i++) {
    const which = i % bases.length;
    const text = mutate(bases[which], r);
    let nc;
    try {
      nc = parseNetConfig(text, { source: `case ${i}` });
    } catch (err) {
      if (!(err instanceof NetConfigError)) {
        fail(`case ${i}: ${(err as Error)?.stack ?? err}\n--- text:\n${text}`);
      }
      const lines = text.split("\n").length;
      assert(
        err.line >= 1 && err.line <= lines && err.column >= 1,
        `case ${i}: position ${err.line}:${err.column}`,
      );
      errors++;
      continue;
    }
    parsed++;
    // The one-pass reader and the general one agree on every record, issue and line.
    const exact = parseNetConfig(text, { source: `case ${i}`, exact: true });
    const shape = (x: typeof nc) => ({
      entries: x.entries.map((e) => [e.type, e.name, e.line, e.offset, e.end, valueToJSON(e.config)]),
      issues: x.issues,
      prologue: x.prologue && [...x.prologue.fields],
    });
    assertEquals(shape(nc), shape(exact), `case ${i}: fast and exact readings differ`);
    try {
      exercise(nc, parsedBases[which]);
    } catch (err) {
      fail(
        `case ${i}: the model of a parsed file broke a consumer: ${
          (err as Error)?.stack ?? err
        }\n--- text:\n${text}`,
      );
    }
    for (const e of nc.entries) {
      if (e.type !== "protocol" && e.type !== "process" && e.type !== "destination") continue;
      let parts: string[];
      try {
        parts = splitList(text.slice(e.offset, e.end));
      } catch (err) {
        fail(`case ${i}: record ${e.name} parsed, but its text is not a Tcl list: ${err}`);
      }
      if (parts.length !== 3) continue;
      const want = reference(parts[2], entryShape(e.type));
      if (want === undefined) continue;
      assertEquals(valueToJSON(e.config), want, `case ${i}: ${e.type} ${e.name}`);
      compared++;
    }
  }
  // The mutations must exercise both outcomes, or the test proves nothing.
  assert(parsed > CASES / 10 && errors > CASES / 10, `parsed ${parsed}, errors ${errors}`);
  assert(compared > CASES / 4, `compared ${compared}`);
  console.log(`parsed ${parsed}, NetConfigError ${errors}, records compared ${compared}`);
});
