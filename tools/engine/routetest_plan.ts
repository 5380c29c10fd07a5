/**
 * The route-test plan: what the engine's route test (`hciroutetest`, research/cloverleaf.md 4.5) must
 * run for the chains the route tracer (./paths.ts) finds from one inbound thread, and the shell text
 * that runs it on the engine host.
 *
 * A chain becomes stages. Each route step is one stage: the route test of the step's source thread
 * (in its site's environment), whose outputs are split by destination; the next stage's input is
 * the previous stage's output for the destination the chain follows (across a cross-site hop that
 * is the output of the inter-site destination or TCP client). Stages are named by their path
 * (`adt.adt_in/to_hub/hub.hub_from_adt`), so chains sharing a prefix share its stages and each runs
 * once per message.
 *
 * Output format assumed of `hciroutetest -a -L -d -f nl <thread> <file>` (flag meanings are
 * INFERRED in the research): one line per routed message, `<dest>: '<message>'`, the layout of
 * `hcitpstest`'s default send-to proc (`%8s: '%s'`). {@link SPLIT_AWK} is the one place that reads
 * it; lines of any other shape are kept in `routetest.other`.
 *
 * @module
 */
import { AssistError } from "../../core/errors.ts";
import type { Chain, EndKind, PathNode } from "./paths.ts";
import { chainText } from "./paths.ts";

/** One route-test run: a thread of a site, fed by the message or an earlier stage's output. */
export interface Stage {
  /** Path-like key, also the stage's folder under a message's output folder. */
  key: string;
  site: string;
  entry: string;
  /** Where the input comes from: the sampled message, or an earlier stage's output for a destination. */
  from: { stage: string; dest: string } | "message";
  /** The site's folder on the host, when it is not `$HCIROOT/<site>` (server.ini may place it anywhere). */
  siteDir?: string;
}

export interface ChainPlan {
  /** `01`, `02`, ... in trace order. */
  id: string;
  /** The chain as nc_paths writes it. */
  text: string;
  /** Stage keys in run order. */
  stages: string[];
  /** The output the chain ends with: a stage's output for `dest` (`*`: every output of that stage). */
  final?: { stage: string; dest: string };
  end: EndKind;
  /** What the route test cannot follow (a cycle, a remote host, the hop limit), for the summary. */
  note?: string;
}

export interface RouteTestPlan {
  start: { site: string; thread: string };
  chains: ChainPlan[];
  stages: Record<string, Stage>;
}

/** Thread, site and destination names that can be folder names and shell words without quoting. */
const SAFE_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;

export class PlanError extends AssistError {
  constructor(message: string) {
    super(message, { level: "input" });
    this.name = "PlanError";
  }
}

function safe(name: string, what: string): string {
  if (!SAFE_NAME.test(name)) {
    throw new PlanError(`${what} "${name}" cannot be used in a route test folder name`);
  }
  return name;
}

/**
 * The stages of the chains from one start thread (chains as RouteGraph.trace gives them).
 *
 * @example
 * ```ts
 * import type { Chain } from "./paths.ts";
 * declare const chains: Chain[];
 * const plan = planRouteTest({ site: "adt", thread: "adt_in" }, chains);
 * plan.chains.map((c) => c.stages);
 * ```
 */
export function planRouteTest(
  start: { site: string; thread: string },
  chains: readonly Chain[],
  siteDirs: Readonly<Record<string, string>> = {},
): RouteTestPlan {
  const stages: Record<string, Stage> = {};
  const out: ChainPlan[] = [];
  const stageFor = (node: PathNode, feed: { stage: string; dest: string } | undefined): string => {
    const own = `${safe(node.site, "site")}.${safe(node.name, "thread")}`;
    const key = feed ? `${feed.stage}/${feed.dest}/${own}` : own;
    const dir = siteDirs[node.site];
    stages[key] ??= {
      key,
      site: node.site,
      entry: node.name,
      from: feed ?? "message",
      ...(dir ? { siteDir: dir } : {}),
    };
    return key;
  };
  chains.forEach((c, i) => {
    const nodes: PathNode[] = [c.start, ...c.steps.map((s) => s.node)];
    const keys: string[] = [];
    let feed: { stage: string; dest: string } | undefined;
    c.steps.forEach((step, n) => {
      if (step.via !== "route") return; // a cross-site hop passes the output on to the next node
      const key = stageFor(nodes[n], feed);
      if (!keys.includes(key)) keys.push(key);
      feed = { stage: key, dest: safe(step.node.name, "destination") };
    });
    const last = nodes[nodes.length - 1];
    let note: string | undefined;
    switch (c.end.kind) {
      case "generate": {
        // The generate procs pick destinations at run time: every output of the last node's test.
        const key = stageFor(last, feed);
        if (!keys.includes(key)) keys.push(key);
        feed = { stage: key, dest: "*" };
        break;
      }
      case "undefined": {
        const key = stageFor(last, feed);
        if (!keys.includes(key)) keys.push(key);
        feed = { stage: key, dest: safe(c.end.detail ?? "undefined", "destination") };
        note = `the route names ${c.end.detail}, which is defined nowhere`;
        break;
      }
      case "remote":
        note = `the chain leaves for ${c.end.detail}, outside the engine root: compared up to the hop`;
        break;
      case "cycle":
        note = "the chain loops back on itself: compared up to the loop";
        break;
      case "hop_limit":
        note = "the chain is longer than the hop limit: compared up to the limit";
        break;
    }
    out.push({
      id: String(i + 1).padStart(2, "0"),
      text: chainText(c, "none"),
      stages: keys,
      final: feed,
      end: c.end.kind,
      note,
    });
  });
  return { start, chains: out, stages };
}

/**
 * awk program splitting one route test's standard output by destination: `<dest>: '<msg>'` lines
 * go to `<dir>/<dest>.hl7` (one message a line, the `nl` format the next stage reads), other lines
 * to `<dir>/routetest.other`.
 */
export const SPLIT_AWK = `# Splits hciroutetest output by destination (written by assist).
{
  line = $0
  sub(/^[ \\t]+/, "", line)
  i = index(line, ": \\047")
  if (i > 1 && substr(line, length(line), 1) == "\\047") {
    name = substr(line, 1, i - 1)
    if (name ~ /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/) {
      print substr(line, i + 3, length(line) - i - 3) > (dir "/" name ".hl7")
      next
    }
  }
  print > (dir "/routetest.other")
}
`;

/** The exact route-test command of a stage, as commands.sh runs it (the input and folder as words). */
export function routeTestCommand(stage: Stage, input: string): string {
  return `hciroutetest -a -L -d -f nl ${stage.entry} ${input}`;
}

/**
 * `commands.sh` of one chain: `sh commands.sh MESSAGE_FILE OUT_DIR` runs each stage's route test in
 * its site's environment (HCIROOT must be set, as the engine login sets it), splits the outputs by
 * destination and feeds the next stage; a stage already run for this message is not run again.
 */
export function chainScript(plan: RouteTestPlan, chain: ChainPlan): string {
  const lines = [
    "#!/bin/sh",
    `# Route test of chain ${chain.id} from ${plan.start.site}/${plan.start.thread} (written by assist):`,
    `#   ${chain.text}`,
    "# Usage: sh commands.sh MESSAGE_FILE OUT_DIR   (one message a line; run where HCIROOT is set)",
    "# Every stage runs the engine's route test in its site and splits the output by destination",
    "# into OUT_DIR/<stage>/<dest>.hl7; the next stage reads the output of the destination it follows.",
    "set -u",
    'here=$(cd "$(dirname "$0")" && pwd)',
    "msg=$1; out=$2",
    "case $msg in /*) ;; *) msg=$(pwd)/$msg ;; esac",
    "case $out in /*) ;; *) out=$(pwd)/$out ;; esac",
    ': "${HCIROOT:?HCIROOT is not set: run in the engine environment}"',
    "",
    "stage() { # SITE THREAD INPUT DIR [SITEDIR]",
    '  [ -f "$4/routetest.rc" ] && return 0',
    '  mkdir -p "$4"',
    '  if [ ! -s "$3" ]; then echo "no input: the previous stage routed nothing here" > "$4/routetest.skipped"; echo skip > "$4/routetest.rc"; return 0; fi',
    "  ( HCISITE=$1; HCISITEDIR=${5:-$HCIROOT/$1}; export HCISITE HCISITEDIR",
    '    cd "$HCISITEDIR" && hciroutetest -a -L -d -f nl "$2" "$3" ) > "$4/routetest.stdout" 2> "$4/routetest.stderr"',
    '  echo $? > "$4/routetest.rc"',
    '  awk -v dir="$4" -f "$here/../../../../split.awk" "$4/routetest.stdout"',
    "}",
    "",
  ];
  for (const key of chain.stages) {
    const s = plan.stages[key];
    const input = s.from === "message" ? '"$msg"' : `"$out/${s.from.stage}/${s.from.dest}.hl7"`;
    lines.push(
      `# ${s.site}: ${
        routeTestCommand(s, s.from === "message" ? "<message file>" : `<output for ${s.from.dest}>`)
      }`,
      `stage ${s.site} ${s.entry} ${input} "$out/${key}"${s.siteDir ? ` ${shWord(s.siteDir)}` : ""}`,
    );
  }
  if (chain.note) lines.push(`# Note: ${chain.note}`);
  return lines.join("\n") + "\n";
}

/** A set of route tests to run on one host: per inbound, its plan and its messages. */
export interface Batch {
  /** Folder-safe inbound key, `site.thread`. */
  key: string;
  plan: RouteTestPlan;
  /** Message texts, one message each (segments joined by CR); written one a line. */
  messages: string[];
}

/** A message as one `nl` line: segment separators CR, no newline inside, newline at the end. */
export function nlLine(message: string): string {
  return message.replace(/\r\n|\n/g, "\r").replace(/\r+$/, "\r") + "\n";
}

/** Message file name of the n-th message (0-based). */
export function messageName(n: number): string {
  return `${String(n + 1).padStart(4, "0")}.hl7`;
}

/**
 * run.sh: every chain over every message of every inbound; then `results.txt` frames every output
 * file (`#@ <bytes> <path>` then the bytes). Exits 3 when hciroutetest is not on PATH.
 */
export function runScript(batches: readonly Batch[]): string {
  const lines = [
    "#!/bin/sh",
    "# Runs the route tests of this folder (written by assist); results in results.txt.",
    'cd "$(dirname "$0")" || exit 2',
    "top=$(pwd)",
    'if [ -z "${HCIROOT:-}" ]; then echo "assist-routetest: HCIROOT is not set" >&2; exit 4; fi',
    'if ! command -v hciroutetest >/dev/null 2>&1; then echo "assist-routetest: hciroutetest not found on PATH" >&2; exit 3; fi',
    "t0=$(date +%s)",
  ];
  for (const b of batches) {
    const dir = `$top/inbounds/${b.key}`;
    lines.push(
      // A pushed bundle carries the messages as one file: one a line, split here with shell
      // builtins only (no process per message).
      `if [ -f "${dir}/messages.nl" ]; then`,
      `  mkdir -p "${dir}/messages"; i=0`,
      `  while IFS= read -r line || [ -n "$line" ]; do`,
      "    i=$((i + 1)); n=$((10000 + i)); n=${n#1}",
      `    printf '%s\\n' "$line" > "${dir}/messages/$n.hl7"`,
      `  done < "${dir}/messages.nl"`,
      "fi",
      `for m in "${dir}/messages/"*.hl7; do`,
      '  [ -f "$m" ] || continue',
      "  n=${m##*/}; n=${n%.hl7}",
    );
    for (const c of b.plan.chains) {
      if (c.stages.length === 0) continue;
      lines.push(`  sh "$top/inbounds/${b.key}/chains/${c.id}/commands.sh" "$m" "$top/out/${b.key}/$n"`);
    }
    lines.push("done");
  }
  lines.push(
    ": > results.txt",
    "if [ -d out ]; then",
    "  find out -type f | LC_ALL=C sort | while IFS= read -r f; do",
    '    printf \'#@ %s %s\\n\' "$(wc -c < "$f" | tr -d \' \')" "$f" >> results.txt',
    '    cat "$f" >> results.txt',
    "  done",
    "fi",
    'echo "assist-routetest: done in $(( $(date +%s) - t0 )) s"',
  );
  return lines.join("\n") + "\n";
}

/**
 * Every file of a route-test folder (relative path → text): one file per message for the local copy
 * (what commands.sh takes), or with `packed` each inbound's messages as one `messages.nl` that run.sh
 * splits on the host (a bundle with a few files unpacks without a process per message).
 */
export function batchFiles(batches: readonly Batch[], packed = false): Map<string, string> {
  const files = new Map<string, string>();
  files.set("split.awk", SPLIT_AWK);
  files.set("run.sh", runScript(batches));
  for (const b of batches) {
    if (packed) files.set(`inbounds/${b.key}/messages.nl`, b.messages.map(nlLine).join(""));
    else b.messages.forEach((m, i) => files.set(`inbounds/${b.key}/messages/${messageName(i)}`, nlLine(m)));
    for (const c of b.plan.chains) {
      files.set(`inbounds/${b.key}/chains/${c.id}/commands.sh`, chainScript(b.plan, c));
    }
  }
  return files;
}

/**
 * One shell file that recreates the folder: `sh bundle.sh DIR` writes every file under DIR through
 * quoted here-documents (no expansion; the delimiter is random), so the whole batch is one push.
 */
export function bundleScript(files: Map<string, string>): string {
  const delim = `ASSIST_EOF_${crypto.getRandomValues(new Uint8Array(6)).toHex()}`;
  const out = [
    "#!/bin/sh",
    "# Unpacks a route-test folder (written by assist).",
    "set -e",
    "d=$1",
    'cd "$d"',
  ];
  const dirs = new Set<string>();
  for (const path of files.keys()) {
    const i = path.lastIndexOf("/");
    if (i > 0) dirs.add(path.slice(0, i));
  }
  for (const d of [...dirs].sort()) out.push(`mkdir -p '${d}'`);
  for (const [path, text] of files) {
    if (text.split("\n").includes(delim)) throw new PlanError("a message holds the bundle delimiter");
    out.push(`cat > '${path}' <<'${delim}'`, text.endsWith("\n") ? text.slice(0, -1) : text, delim);
  }
  return out.join("\n") + "\n";
}

/** A path as one shell word (single-quoted). */
function shWord(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** A folder-safe inbound key. */
export function inboundKey(site: string, thread: string): string {
  return `${safe(site, "site")}.${safe(thread, "thread")}`;
}
