/**
 * After a run: per question, the judged verdict, tool calls, characters of tool output the model
 * read, and whether any canary (a made-up patient value) appears in any request body.
 *
 *     deno run -P=test tests/agent_eval/score.ts <PLAY folder> <generator OUT folder> [judgments.json]
 *
 * Tool calls are the tool_use blocks of the model's responses (x/resp-N.json); characters are the
 * tool_result contents of the last request (x/req-N.json), which carries the whole conversation.
 * judgments.json: {"q01": {"score": 1, "note": "..."}} written by whoever judged each answer against
 * keys.json (score 1, 0.5 or 0). Without it the answers are printed beside their keys for judging.
 */
interface Block {
  type: string;
  content?: string | Array<{ type: string; text?: string }>;
}

const [play, out, judgedPath] = Deno.args;
if (!play || !out) {
  console.error(
    "usage: deno run -P=test tests/agent_eval/score.ts <PLAY folder> <OUT folder> [judgments.json]",
  );
  Deno.exit(2);
}
const questions: Array<{ id: string; text: string }> = JSON.parse(
  await Deno.readTextFile(`${out}/questions.json`),
);
const keys: Record<string, unknown> = JSON.parse(await Deno.readTextFile(`${out}/keys.json`));
const canaries: string[] = JSON.parse(await Deno.readTextFile(`${out}/canaries.json`));
const judged: Record<string, { score: number; note?: string }> = judgedPath
  ? JSON.parse(await Deno.readTextFile(judgedPath))
  : {};
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
// A canary counts only as a whole value: an MRN inside a longer number (a timestamp) is not it.
const canaryRe = new RegExp(`(?<![A-Za-z0-9])(${canaries.map(escape).join("|")})(?![A-Za-z0-9])`);

const numbered = (dir: string, prefix: string) =>
  [...Deno.readDirSync(dir)].map((e) => e.name).filter((n) => n.startsWith(prefix) && n.endsWith(".json"))
    .sort((a, b) => Number(a.match(/\d+/)![0]) - Number(b.match(/\d+/)![0]));

const rows: string[] = [
  "| question | right | tool calls | tool output chars | PHI tokens shown | requests | canary in a request |",
  "|---|---|---|---|---|---|---|",
];
let right = 0, calls = 0, chars = 0, leaks = 0, asked = 0, tokens = 0;
for (const q of questions) {
  const dir = `${play}/run/${q.id}/x`;
  let reqs: string[];
  try {
    reqs = numbered(dir, "req-");
  } catch {
    continue;
  }
  asked++;
  let n = 0;
  for (const f of numbered(dir, "resp-")) {
    const r = JSON.parse(await Deno.readTextFile(`${dir}/${f}`));
    n += (r.content ?? []).filter((b: Block) => b.type === "tool_use").length;
  }
  let c = 0;
  const found: string[] = [];
  for (const f of reqs) {
    const body = await Deno.readTextFile(`${dir}/${f}`);
    const m = body.match(canaryRe);
    if (m) found.push(`${f}: ${m[1].slice(0, 1)}… (${m[1].length} chars)`);
  }
  const last = JSON.parse(await Deno.readTextFile(`${dir}/${reqs[reqs.length - 1]}`));
  // Distinct PHI tokens ([[NAME_3]]) in the conversation (not the system prompt's examples).
  const seen =
    new Set(JSON.stringify(last.messages ?? []).match(/\[\[[A-Z]+(?:_[A-Z]+)*_\d+\]\]/g) ?? []).size;
  tokens += seen;
  for (const m of last.messages ?? []) {
    if (typeof m.content === "string") continue;
    for (const b of m.content as Block[]) {
      if (b.type !== "tool_result") continue;
      c += typeof b.content === "string"
        ? b.content.length
        : (b.content ?? []).reduce((s, x) => s + (x.text ?? "").length, 0);
    }
  }
  const j = judged[q.id];
  if (j) right += j.score;
  calls += n, chars += c, leaks += found.length;
  rows.push(
    `| ${q.id} | ${j ? j.score : "?"} | ${n} | ${c} | ${seen} | ${reqs.length} | ${
      found.length ? found.join("; ") : "none"
    } |`,
  );
  if (!j) {
    let answer = "";
    try {
      answer = await Deno.readTextFile(`${play}/run/${q.id}/answer.txt`);
    } catch { /* not finished */ }
    console.log(
      `## ${q.id}: ${q.text}\n--- answer:\n${answer.trim()}\n--- key:\n${
        JSON.stringify(keys[q.id], null, 1)
      }\n`,
    );
  }
}
rows.push(
  `| **total (${asked})** | ${right} | ${calls} | ${chars} | ${tokens} | | ${
    leaks ? `${leaks} found` : "none"
  } |`,
);
console.log(rows.join("\n"));
