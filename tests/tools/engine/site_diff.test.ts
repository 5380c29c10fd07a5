/** nc_diff_interface with a site and no thread: the whole site against another engine root, in one call. */
import { deepStrictEqual as assertEquals, match, ok as assert } from "node:assert/strict";
import { ncDiffInterfaceTool } from "../../../tools/engine/nc_diff_interface_tool.ts";
import {
  destinationRecord,
  processRecord,
  protocolRecord,
  type ThreadSpec,
  writeSite,
} from "../../support/nc_writer.ts";
import { tempDir } from "../../support/run_assist.ts";
import { call, contextFor, errorOf } from "../support.ts";

function site(root: string, threads: ThreadSpec[], dest: [string, string, number]): Promise<void> {
  return writeSite(root, "lab", [
    processRecord("lab_proc"),
    ...threads.map(protocolRecord),
    destinationRecord(...dest),
  ]);
}

const IN: ThreadSpec = { name: "lab_in", process: "lab_proc", type: "tcpip", port: 7010, isServer: true };
const OUT: ThreadSpec = { name: "lab_out", process: "lab_proc", type: "tcpip", host: "lis", port: 7020 };
const OLD: ThreadSpec = { name: "lab_old", process: "lab_proc", type: "file", outfile: "old.txt" };

Deno.test("nc_diff_interface: a site against another root; records only one side has; the same named", async () => {
  await using tmp = await tempDir();
  const prod = `${tmp.path}/prod`, test = `${tmp.path}/test`;
  await site(prod, [IN, OUT, OLD], ["to_hub", "hub", 7101]);
  await site(test, [{ ...IN, coords: [5, 5] }, { ...OUT, host: "lis-test", port: 7021 }, {
    name: "lab_new",
    process: "lab_proc",
    type: "file",
    outfile: "new.txt",
  }], ["to_hub", "hub-test", 7101]);
  const ctx = contextFor(`${tmp.path}/home`, tmp.path);
  const r = await call(
    ncDiffInterfaceTool,
    { hciroot: prod, site: "lab", to_hciroot: test, exit_code: true },
    ctx,
  );
  assert(!r.isError, r.text);
  assertEquals(r.text.split("\n").slice(0, 8), [
    `--- site lab (${prod})`,
    `+++ site lab (${test})`,
    "lab_out:",
    "    ~ PROTOCOL.HOST: lis -> lis-test",
    "    ~ PROTOCOL.PORT: 7020 -> 7021",
    `- lab_old: only in lab (${prod})`,
    `+ lab_new: only in lab (${test})`,
    "destination to_hub:",
  ]);
  match(r.text, /^ {4}~ HOST: hub -> hub-test$/m);
  match(
    r.text,
    /\[nc_diff_interface: site lab: 2 records differ \(lab_out, destination to_hub\); only in the first: lab_old; only in the second: lab_new; the same: lab_in, process lab_proc \(3 threads in the first\); COORDS and BITMAP ignored/,
  );
  assertEquals(r.exitCode, 1);
  // COORDS counts with --cosmetic.
  const cos = await call(ncDiffInterfaceTool, {
    hciroot: prod,
    site: "lab",
    to_hciroot: test,
    cosmetic: true,
  }, ctx);
  match(cos.text, /^lab_in:\n {4}~ COORDS: 100 100 -> 5 5$/m);
  // Both sides one site of one root: refused in one line.
  const same = errorOf(await call(ncDiffInterfaceTool, { hciroot: prod, site: "lab", to_site: "lab" }, ctx));
  assertEquals(same.error, "same_sides");
  // A site with a thread still compares the one thread.
  const one = await call(ncDiffInterfaceTool, {
    hciroot: prod,
    site: "lab",
    thread: "lab_out",
    to_hciroot: test,
  }, ctx);
  assertEquals(one.text.split("\n")[0], `--- lab/lab_out (${prod})`);
});

Deno.test("nc_diff_interface: a big site's unchanged records are counted, not named", async () => {
  await using tmp = await tempDir();
  const prod = `${tmp.path}/prod`, test = `${tmp.path}/test`;
  const many = Array.from({ length: 40 }, (_, i): ThreadSpec => ({ ...IN, name: `in_${i}`, port: 8000 + i }));
  await site(prod, [...many, OUT], ["to_hub", "hub", 7101]);
  await site(test, [...many, { ...OUT, port: 7021 }], ["to_hub", "hub", 7101]);
  const ctx = contextFor(`${tmp.path}/home`, tmp.path);
  const r = await call(ncDiffInterfaceTool, { hciroot: prod, site: "lab", to_hciroot: test }, ctx);
  match(r.text, /1 record differs \(lab_out\); the same: 42 records \(41 threads in the first\)/);
  assert(!r.text.includes("in_7,"), r.text);
});
