/**
 * Start-up cost of the command-line forms that must stay instant, against an empty `deno run`
 * script under the same flags (the baseline). Target: at most 1.3× for `--version` and `tools list`
 * (each form lazy-loads only what it needs). deno bench prints the ratio to the baseline.
 */
import { assistCommandArgs, CONFIG, REPO_ROOT } from "../tests/support/run_assist.ts";

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
