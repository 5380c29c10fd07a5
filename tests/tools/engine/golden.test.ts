/**
 * Every engine tool run by hand, as an operator runs it (`assist tools <name> ...` in a subprocess
 * under the shipped permission set, node:sqlite included), against the generated fixture root, with
 * the whole output compared to a golden file in tests/fixtures/engine/golden/. The fixture root's
 * temporary path is written `$HCIROOT` in the goldens.
 *
 * After a deliberate output change: `UPDATE_GOLDEN=1 deno test -P=test tests/tools/engine/golden.test.ts`,
 * then read the diff of the golden files before committing them. Refused in CI (tests/support/golden.ts).
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { REPO_ROOT, runAssist, tempDir } from "../../support/run_assist.ts";
import { writeFixtureRoot } from "../../support/fixture_root.ts";
import { writeCrossSiteRoot } from "../../support/cross_site_root.ts";
import { goldenUpdate } from "../../support/golden.ts";

const GOLDEN = `${REPO_ROOT}tests/fixtures/engine/golden/`;
const UPDATE = goldenUpdate();

/**
 * One run's exit code, stdout and stderr (paths made neutral by `norm`) against its golden file,
 * or written to it with UPDATE_GOLDEN=1.
 */
async function matchGolden(
  name: string,
  args: readonly string[],
  r: { code: number; stdout: string; stderr: string },
  norm: (s: string) => string,
): Promise<void> {
  const actual = [
    `$ assist tools ${args.join(" ")}`,
    `exit ${r.code}`,
    "--- stdout",
    norm(r.stdout).trimEnd(),
    "--- stderr",
    norm(r.stderr).trimEnd(),
    "",
  ].join("\n");
  const file = `${GOLDEN}${name}.txt`;
  if (UPDATE) {
    await Deno.writeTextFile(file, actual);
    return;
  }
  const expected = await Deno.readTextFile(file).catch(() => `(no golden file ${file})`);
  assertEquals(actual, expected);
}

/**
 * [golden name, arguments after `assist tools`, environment changes]; `$HCIROOT` in an argument is
 * the fixture root. The environment has HCIROOT set to the fixture root unless a case changes it.
 */
const CASES: Array<[string, string[], Record<string, string>?]> = [
  ["list_sites_no_root", ["list_sites"], { HCIROOT: "" }],
  ["nc_threads_hcisite", ["nc_threads", "--match", "*_in"], { HCISITE: "lab" }],
  ["list_sites", ["list_sites"]],
  ["list_sites_json", ["list_sites", "--format", "json"]],
  ["nc_threads_adt", ["nc_threads", "adt"]],
  ["nc_threads_pharm_tsv", ["nc_threads", "pharm", "--format", "tsv"]],
  ["nc_show_adt_in", ["nc_show", "adt", "adt_in"]],
  ["nc_show_port", ["nc_show", "adt", "ADT_IN", "protocol.port"]],
  ["nc_show_destination_tcl", ["nc_show", "hub", "hub_to_lab", "--format", "tcl"]],
  ["nc_show_unknown_thread", ["nc_show", "adt", "adt_inn"]],
  ["nc_routes_adt", ["nc_routes", "adt"]],
  ["nc_routes_hub_replies_tsv", ["nc_routes", "hub", "--replies", "--format", "tsv"]],
  ["nc_paths_adt", ["nc_paths", "adt"]],
  ["nc_paths_disabled_hops", ["nc_paths", "adt", "adt_in", "--include-disabled", "--max-hops", "4"]],
  ["nc_paths_to", ["nc_paths", "adt", "--to", "lab_sys_out.lab"]],
  ["nc_paths_hub", ["nc_paths", "hub"]],
  ["nc_paths_all_tsv", ["nc_paths", "--all-sites", "--format", "tsv"]],
  ["nc_paths_unknown_site", ["nc_paths", "nosuch"]],
  ["nc_revisions_lab_in", ["nc_revisions", "lab_in"]],
  ["nc_revisions_adt_in_diff", ["nc_revisions", "adt_in.adt", "--format", "diff"]],
  ["nc_revisions_system_adt", ["nc_revisions", "--system", "--site", "adt", "--since", "2024-10-01"]],
  ["nc_diff_interface_threads", ["nc_diff_interface", "lab_in", "lab_from_hub", "--site", "lab"]],
  [
    "nc_diff_interface_file",
    [
      "nc_diff_interface",
      "adt_in.adt",
      "--to-netconfig",
      "$HCIROOT/adt/revisions/NetConfig2024_3_5_9_4_2/NetConfig",
    ],
  ],
  ["nc_diff_interface_roots", ["nc_diff_interface", "adt_in.adt", "--to-hciroot", "$OTHER", "--cosmetic"]],
  ["nc_refs_table", ["nc_refs", "sex_codes"]],
  ["nc_refs_proc", ["nc_refs", "tps_add_zpi", "--kind", "proc"]],
  ["nc_docs_adt", ["nc_docs", "adt"]],
  ["nc_docs_lab_onenote", ["nc_docs", "lab", "--onenote-table"]],
  ["nc_docs_raw_tcl", ["nc_docs", "adt", "orders_in", "--raw-tcl"]],
  ["nc_msgs_adt_in", ["nc_msgs", "adt", "adt_in", "--limit", "5"]],
  ["nc_msgs_hl7_raw", [
    "nc_msgs",
    "adt",
    "adt_in",
    "--history",
    "--hl7",
    "MSH.9.2=A01",
    "--output",
    "raw",
    "--limit",
    "2",
  ]],
  ["nc_msgs_idx_range", ["nc_msgs", "lab", "--since", "2024-11-20T08:40", "--until", "2024-11-20T09:00"]],
  ["nc_msgs_encrypted", ["nc_msgs", "hub", "hub_from_adt"]],
];

Deno.test("engine tools by hand against the fixture root: golden output", async (t) => {
  await using tmp = await tempDir("assist-engine-golden-");
  const root = `${tmp.path}/hci`;
  await writeFixtureRoot(root);
  // A second engine root: a copy (its server.ini still names the first root's sites) with changes.
  const other = `${tmp.path}/other`;
  await writeFixtureRoot(other);
  await Deno.copyFile(`${root}/server/server.ini`, `${other}/server/server.ini`);
  const nc = await Deno.readTextFile(`${other}/adt/NetConfig`);
  await Deno.writeTextFile(
    `${other}/adt/NetConfig`,
    nc.replace("{ PORT 5001 }", "{ PORT 5002 }").replace("{ COORDS {40 60} }", "{ COORDS {44 60} }")
      .replace("{ DEST adt_archive }", "{ DEST {adt_archive billing_out} }"),
  );
  const env = { ASSIST_HOME: `${tmp.path}/home`, HCIROOT: root };
  for (const [name, args, extra] of CASES) {
    await t.step(name, async () => {
      const argv = args.map((a) => a.replaceAll("$HCIROOT", root).replaceAll("$OTHER", other));
      const r = await runAssist(["tools", ...argv], { env: { ...env, ...extra } });
      const norm = (s: string) => s.replaceAll(root, "$HCIROOT").replaceAll(other, "$OTHER");
      await matchGolden(name, args, r, norm);
    });
  }
});

/** The cross-site root (tests/support/cross_site_root.ts): [golden name, arguments after `assist tools`]. */
const CROSS_SITE: Array<[string, string[]]> = [
  // The case: rad's ADT_A08 detail to pacs_adt_out is off, so ADT_A08 never gets there.
  ["cs_nc_paths_a08", ["nc_paths", "adthub", "reg_adt_in", "--trxid", "ADT_A08"]],
  ["cs_nc_paths_a08_disabled", [
    "nc_paths",
    "adthub",
    "reg_adt_in",
    "--trxid",
    "ADT_A08",
    "--include-disabled",
  ]],
  ["cs_nc_paths_all", ["nc_paths", "adthub", "reg_adt_in"]],
  ["cs_nc_threads_every_site", ["nc_threads"]],
  ["cs_nc_threads_pharmbill", ["nc_threads", "pharmbill"]],
  ["cs_nc_routes_every_site", ["nc_routes"]],
  ["cs_nc_msgs_every_site", ["nc_msgs", "--limit", "4"]],
  ["cs_nc_refs_table_args", ["nc_refs", "fin_class_map"]],
  ["cs_nc_refs_proc_args", ["nc_refs", "tps_hl_flags", "--kind", "proc"]],
];

Deno.test("engine tools across sites (the cross-site root): golden output", async (t) => {
  await using tmp = await tempDir("assist-engine-golden-cs-");
  const root = `${tmp.path}/hci`;
  await writeCrossSiteRoot(root);
  const env = { ASSIST_HOME: `${tmp.path}/home`, HCIROOT: root, TZ: "America/Chicago" };
  for (const [name, args] of CROSS_SITE) {
    await t.step(name, async () => {
      const r = await runAssist(["tools", ...args], { env });
      await matchGolden(name, args, r, (s) => s.replaceAll(root, "$HCIROOT"));
    });
  }
});
