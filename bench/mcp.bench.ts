/**
 * `assist mcp` (issue 28's figures): how long from starting the server to its `initialize` answer,
 * against an empty `deno run` script under the same flags; and one `tools/call` round trip on a
 * running server (the SDK's own client over stdio) against running the same tool with
 * `assist tools` (a process each, as an operator or a script would). deno bench prints the ratios to
 * the baselines; the runs alternate in one process, so load on the machine hits all alike.
 */
import { assistCommandArgs, CONFIG, REPO_ROOT } from "../tests/support/run_assist.ts";
import { writeFixtureRoot } from "../tests/support/fixture_root.ts";
import { connectAssist } from "../tests/support/mcp_client.ts";

const dir = await Deno.makeTempDir({ prefix: "assist-mcp-bench-" });
const small = `${dir}/small.hl7`;
await Deno.writeTextFile(small, "MSH|^~\\&|A|B|C|D|20240101||ADT^A01|1|P|2.5\rPID|1||123||DOE^JOHN\r");
const root = `${dir}/root`;
await writeFixtureRoot(root);
const env = { NO_COLOR: "1", HOME: dir, ASSIST_HOME: `${dir}/.assist`, HCIROOT: root };

async function spawn(args: string[]): Promise<void> {
  const out = await new Deno.Command(Deno.execPath(), { args, stdout: "null", stderr: "null", env }).output();
  if (!out.success) throw new Error(`exit ${out.code}: ${args.join(" ")}`);
}

const empty = ["run", "-q", "-P=assist", "--config", CONFIG, `${REPO_ROOT}bench/_empty.ts`];

Deno.bench("empty deno run script", { group: "mcp start", baseline: true }, async () => {
  await spawn(empty);
});

Deno.bench("assist mcp: start to initialize answered", { group: "mcp start" }, async (b) => {
  b.start();
  const s = await connectAssist({ home: dir, env });
  b.end();
  await s[Symbol.asyncDispose]();
});

// One server for every call below, started once (its gate and the tools' bodies load at the first).
const server = await connectAssist({ home: dir, cwd: dir, env });
globalThis.addEventListener("unload", () => {
  void server[Symbol.asyncDispose]();
  Deno.removeSync(dir, { recursive: true });
});
await server.client.callTool({ name: "read_file", arguments: { path: small } });

const calls: Array<[string, Record<string, unknown>, string[]]> = [
  ["read_file", { path: small }, [small]],
  ["nc_threads", { site: "adt" }, ["adt"]],
];
for (const [name, input, argv] of calls) {
  Deno.bench(`assist tools ${name} (a process)`, { group: `call ${name}`, baseline: true }, async () => {
    await spawn(assistCommandArgs(["tools", name, ...argv]));
  });
  Deno.bench(`tools/call ${name} (running assist mcp)`, { group: `call ${name}` }, async () => {
    const r = await server.client.callTool({ name, arguments: input });
    if (r.isError) throw new Error(`${name} failed`);
  });
}
