import { deepStrictEqual as assertEquals, ok as assert, throws } from "node:assert/strict";
import {
  KeyedList,
  NetConfigError,
  parseDate,
  parseNetConfig,
  routesOf,
  routeTargets,
  threadInfo,
} from "../../../tools/engine/netconfig/mod.ts";
import { renderTree, toTcl } from "../../../tools/engine/netconfig/render.ts";
import { destinationRecord, processRecord, protocolRecord, writeNetConfig } from "../../support/nc_writer.ts";

const PRO =
  "prologue\n    who:\thci\n    date:\tMarch 3, 2024 10:24:52 AM CST\n    type:\tnet\n    version:\t3.20\nend_prologue\n";

Deno.test("parseDate: both observed prologue styles, into sortable keys", async (t) => {
  const cases: Array<[string, string | undefined]> = [
    ["May 21, 2021 9:39:05 AM CDT", "2021-05-21T14:39:05Z"],
    ["March 31, 2006 4:09:28 PM CST", "2006-03-31T22:09:28Z"],
    ["May 2, 2021 12:30:00 AM CDT", "2021-05-02T05:30:00Z"],
    ["May 2, 2021 12:30:00 PM CDT", "2021-05-02T17:30:00Z"],
    ["Mon Jun 24 22:03:45 MDT 2002", "2002-06-25T04:03:45Z"],
    ["Jun 24 22:03:45 2002", "2002-06-24T22:03:45"],
    ["March 3, 2024 10:24:52 AM XYZ", "2024-03-03T10:24:52"],
    ["2024-03-05 10:24:52", "2024-03-05T10:24:52"],
    ["yesterday", undefined],
    ["February 30, 2024 1:00:00 PM CST", "2024-03-01T19:00:00Z"],
    ["Foo 3, 2024 1:00:00 PM CST", undefined],
  ];
  for (const [text, key] of cases) await t.step(text, () => assertEquals(parseDate(text)?.key, key));
  // Keys sort chronologically even across zones and the day-not-zero-padded style.
  const keys = [
    "October 2, 2024 2:30:00 PM CDT",
    "March 5, 2024 9:04:02 AM CST",
    "November 19, 2024 8:00:15 AM CST",
  ]
    .map((d) => parseDate(d)!.key).sort();
  assertEquals(keys, ["2024-03-05T15:04:02Z", "2024-10-02T19:30:00Z", "2024-11-19T14:00:15Z"]);
});

Deno.test("parseNetConfig: prologue, records, schema-driven values, unknown keys kept", () => {
  const text = writeNetConfig({ who: "James Q", date: "May 21, 2021 9:39:05 AM CDT" }, [
    processRecord("p1"),
    protocolRecord({
      name: "in1",
      process: "p1",
      type: "pdl-tcpip",
      isServer: true,
      port: 5001,
      routes: [{
        trxid: "ADT_A01",
        details: [{ type: "xlate", dest: ["out1", "icl"], xlate: "a.xlt", pre: ["p_a"] }],
      }],
      extra: { ZZ_UNKNOWN: "{{A 1} {B {x y}}}" },
    }),
    protocolRecord({ name: "out1", process: "p1", type: "tcpip", host: "h", port: 6001 }),
    destinationRecord("icl", "clhost", 7101),
  ]);
  const nc = parseNetConfig(text, { source: "s/NetConfig" });
  assertEquals(nc.issues, []);
  assertEquals([nc.prologue?.who, nc.prologue?.type, nc.prologue?.version], ["James Q", "net", "3.20"]);
  assertEquals(nc.prologue?.when?.key, "2021-05-21T14:39:05Z");
  assertEquals(nc.entries.map((e) => `${e.type} ${e.name}`), [
    "process p1",
    "protocol in1",
    "protocol out1",
    "destination icl",
  ]);
  const in1 = nc.protocol("IN1")!;
  assertEquals(in1.line, text.split("\n").findIndex((l) => l.startsWith("protocol in1")) + 1);
  assertEquals(in1.config.at("PROTOCOL.PORT"), "5001");
  assertEquals(in1.config.at("protocol.isserver"), "1");
  assertEquals(in1.config.at("DATAXLATE.1.ROUTE_DETAILS.1.DEST"), "out1 icl");
  assertEquals(in1.config.at("DATAXLATE.1.ROUTE_DETAILS.1.PREPROCS.PROCS"), "p_a");
  assert(in1.config.get("SAVEMSGS") instanceof KeyedList);
  // The unknown key is kept as written and can still be walked by path.
  assertEquals(in1.config.str("ZZ_UNKNOWN"), "{A 1} {B {x y}}");
  assertEquals(in1.config.at("ZZ_UNKNOWN.B"), "x y");
  const [r] = routesOf(in1);
  assertEquals([r.trxid, r.enabled, r.details[0].type, r.details[0].dests, r.details[0].xlate], [
    "ADT_A01",
    true,
    "xlate",
    ["out1", "icl"],
    "a.xlt",
  ]);
  assertEquals(r.details[0].preprocs, [{ name: "p_a", enabled: true, args: "" }]);
  const info = threadInfo(nc.protocol("out1")!, routeTargets(nc));
  assertEquals([info.direction, info.host, info.port, info.isServer], ["out", "h", "6001", false]);
  assertEquals(nc.destination("ICL")?.config.str("PORT"), "7101");
  assert(nc.raw(nc.destinations[0]).startsWith("destination icl {\n    { HOST clhost }"));
  assert(renderTree(in1.config.kl("PROTOCOL")!).includes("PORT 5001"));
  assertEquals(toTcl(nc.destinations[0].config), "{HOST clhost} {PORT 7101}");
});

Deno.test("parseNetConfig: BOM, CRLF, comments before the prologue, the old Tcl writer's layout", () => {
  const text = writeNetConfig({ who: "hciuser", date: "Mon Jun 24 22:03:45 MDT 2002", version: "3.10" }, [
    processRecord("pp"),
    protocolRecord({ name: "t1", process: "pp", type: "tcpip", isServer: true, port: 5601 }),
  ], { style: "tcl", bom: true, crlf: true, preamble: ["# a comment", ""] });
  assert(text.startsWith("\uFEFF# a comment\r\n"));
  const nc = parseNetConfig(text);
  assertEquals(nc.issues, []);
  assertEquals(nc.prologue?.when?.key, "2002-06-25T04:03:45Z");
  assertEquals(nc.protocol("t1")?.config.at("PROTOCOL.PORT"), "5601");
  assertEquals(nc.protocol("t1")?.line, text.split("\n").findIndex((l) => l.startsWith("protocol t1")) + 1);
  assert(!nc.raw(nc.protocols[0]).includes("\r"));
});

Deno.test("parseNetConfig: what the loader and validator complain about is reported with lines", () => {
  const text = PRO +
    "process p { { HUBNAME h } } \n" +
    "protocol a { { PROCESSNAME p } { GROUPS {} } } \n" +
    "protocol A { { PROCESSNAME p } } \n" +
    "protocol b { { GROUPS {} } } \n" +
    "protocol c { { PROCESSNAME nowhere } } \n" +
    "destination C { { PORT 1 } } \n" +
    "process P { } \n" +
    "connection x { } \n" +
    "protocol d \n" +
    "protocol e { { KEYONLY } { K a b } } \n";
  const nc = parseNetConfig(text);
  assertEquals(nc.issues, [
    { line: 9, severity: "error", message: 'duplicate protocol name "A" (as "a"), first defined on line 8' },
    { line: 10, severity: "error", message: 'protocol "b" has no PROCESSNAME' },
    { line: 11, severity: "warning", message: 'protocol "c" names process "nowhere", which is not defined' },
    {
      line: 12,
      severity: "error",
      message: 'destination name already used by a protocol "C" (as "c"), first defined on line 11',
    },
    { line: 13, severity: "error", message: 'duplicate process name "P" (as "p"), first defined on line 7' },
    { line: 14, severity: "warning", message: 'unknown record type "connection" ignored' },
    {
      line: 15,
      severity: "error",
      message: 'protocol record "d" has 2 elements, expected 3 (type, name, configuration)',
    },
    { line: 15, severity: "error", message: 'protocol "d" has no PROCESSNAME' },
    { line: 16, severity: "warning", message: "keyed-list key KEYONLY has no value" },
    { line: 16, severity: "warning", message: "keyed-list element K has more than a key and a value" },
    { line: 16, severity: "error", message: 'protocol "e" has no PROCESSNAME' },
  ]);
  // The first of duplicate names is the one looked up.
  assertEquals(nc.protocol("A")?.line, 8);
  assertEquals(nc.protocol("e")?.config.str("K"), "a b");
});

Deno.test("parseNetConfig: a missing prologue is an issue; a prologue that never ends is an error", () => {
  const nc = parseNetConfig("process p { { HUBNAME h } } \n");
  assertEquals(nc.issues[0].message, "no prologue: the file does not start with a prologue block");
  assertEquals(nc.processes.length, 1);
  throws(
    () => parseNetConfig("\n\nprologue\n  who: x\nprocess p {}\n", { source: "s/NetConfig" }),
    (e: unknown) => {
      assert(e instanceof NetConfigError);
      assertEquals(e.message, "s/NetConfig line 3, column 1: the prologue has no end_prologue line");
      return true;
    },
  );
});

Deno.test("parseNetConfig: Tcl syntax errors are the parser's own error, with line and column", async (t) => {
  const cases: Array<[string, string, string]> = [
    [
      "unbalanced brace",
      "protocol a {\n    { PROCESSNAME p }\n",
      "line 7, column 12: unmatched open brace in list",
    ],
    [
      "text glued to a brace",
      "protocol a {\n    { PROCESSNAME {p}x }\n} \n",
      'line 8, column 22: list element in braces followed by "x" instead of space',
    ],
    [
      "unmatched quote",
      'protocol a {\n    { PROCESSNAME "p }\n} \n',
      "line 8, column 19: unmatched open quote in list",
    ],
  ];
  for (const [name, body, want] of cases) {
    await t.step(name, () => {
      throws(() => parseNetConfig(PRO + body), (e: unknown) => {
        assert(e instanceof NetConfigError, String(e));
        assertEquals(e.message, `NetConfig ${want}`);
        return true;
      });
    });
  }
});

Deno.test("parseNetConfig: values that are not braced are read as Tcl reads them", () => {
  const nc = parseNetConfig(
    PRO + 'protocol "q r" "{PROCESSNAME p} {PROTOCOL {{PORT 9} {TYPE tcpip}}}" \nprocess p {} \n',
  );
  assertEquals(nc.issues, []);
  assertEquals(nc.protocol("Q R")?.config.at("PROTOCOL.PORT"), "9");
});
