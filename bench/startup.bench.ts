/**
 * Start-up cost of the command-line forms that must stay instant, against an empty `deno run`
 * script under the same flags (the baseline). Target: at most 1.3× for `--version` and `tools list`
 * (each form lazy-loads only what it needs), and for one tool run on a small input (issue 17 item
 * 11: the tool's own definition and body load, nothing of the other tools). deno bench prints the
 * ratio to the baseline; the runs alternate in one process, so load on the machine hits all alike.
 */
import { assistCommandArgs, CONFIG, REPO_ROOT } from "../tests/support/run_assist.ts";
import { writeFixtureRoot } from "../tests/support/fixture_root.ts";

const dir = await Deno.makeTempDir({ prefix: "assist-startup-" });
const small = `${dir}/small.hl7`;
await Deno.writeTextFile(small, "MSH|^~\\&|A|B|C|D|20240101||ADT^A01|1|P|2.5\rPID|1||123||DOE^JOHN\r");
const root = `${dir}/root`;
await writeFixtureRoot(root);
globalThis.addEventListener("unload", () => Deno.removeSync(dir, { recursive: true }));

async function spawn(args: string[]): Promise<void> {
  const out = await new Deno.Command(Deno.execPath(), {
    args,
    stdout: "null",
    stderr: "null",
    env: { NO_COLOR: "1" },
  })
    .output();
  if (!out.success) throw new Error(`exit ${out.code}: ${args.join(" ")}`);
}

const empty = ["run", "-q", "-P=assist", "--config", CONFIG, `${REPO_ROOT}bench/_empty.ts`];

Deno.bench("empty deno run script", { group: "startup", baseline: true }, async () => {
  await spawn(empty);
});

Deno.bench("assist --version", { group: "startup" }, async () => {
  await spawn(assistCommandArgs(["--version"]));
});

Deno.bench("assist tools list", { group: "startup" }, async () => {
  await spawn(assistCommandArgs(["tools", "list"]));
});

const runs: Array<[string, string[]]> = [
  ["hl7_field", [small, "PID.5"]],
  ["hl7_show", [small]],
  ["read_file", [small]],
  ["list_dir", [dir]],
  ["glob_files", ["*.hl7", dir]],
  // A pattern of bounded work matches in-process; one with a quantifier starts the matching worker.
  ["grep_files", ["PID", small]],
  ["grep_files", ["P.*D", small]],
  ["hl7_diff", [small, small]],
  ["phi_scan", [small]],
  ["nc_threads", ["adt", "--hciroot", root]],
  ["nc_show", ["adt", "adt_in", "--hciroot", root]],
];
for (const [name, args] of runs) {
  const label = name === "grep_files" ? `${name} ${args[0]}` : name;
  Deno.bench(`assist tools ${label} (small input)`, { group: "startup" }, async () => {
    await spawn(assistCommandArgs(["tools", name, ...args]));
  });
}
