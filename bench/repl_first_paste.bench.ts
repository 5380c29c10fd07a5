/**
 * Enter to request for a 450 KB paste (HL7 messages and free-text notes with names): the first
 * prompt of a fresh REPL against the second of the same one, each paste of other patients (so both
 * add every value to the lookup table). The first used to pay for the PHI
 * engine and the built-in name recognizer's lexicons (about 130 ms and 64 MB); they are now built in
 * the background once the prompt is shown. Each run is a real REPL on a pseudo-terminal (script(1))
 * against the fake model API; the clock runs from the Enter key to the request reaching the API.
 * The paste comes one second after the prompt (nobody copies 450 KB faster) and Enter once the
 * paste is drawn as its chip. The figures of every run are printed at the end.
 *
 *     deno bench -q -P=test bench/repl_first_paste.bench.ts      (needs script(1), from util-linux)
 */
import { FakeModelApi } from "../tests/support/fake_model_api.ts";
import { hl7RealisticCorpus, notesCorpus } from "../tests/support/phi_corpus.ts";
import { assistCommandArgs, testDenoDir } from "../tests/support/run_assist.ts";
import { KEY } from "../tests/support/repl_env.ts";

const PASTE_BYTES = 450 * 1024;
/** What an operator takes at least to copy and paste after the prompt appears. */
const OPERATOR_PAUSE_MS = 1000;

/** HL7 messages and notes of new patients for each seed (every value new to the lookup table). */
function pasteText(seed: number): string {
  const hl7 = hl7RealisticCorpus(400, seed).map((g) => g.text.replace(/\r/g, "\n"));
  const notes = notesCorpus(2000, seed).map((g) => g.text);
  let out = "";
  for (let i = 0; out.length < PASTE_BYTES; i++) {
    out += `${hl7[i % hl7.length]}\n${notes[i % notes.length]}\n`;
  }
  return out.slice(0, PASTE_BYTES);
}

const paste = (seed: number) => new TextEncoder().encode(`\x1b[200~${pasteText(seed)}\x1b[201~`);
let seeds = 100;
const denoDir = await testDenoDir();
const home = await Deno.makeTempDir({ prefix: "assist-bench-paste-" });
const fake = new FakeModelApi();
globalThis.addEventListener("unload", () => {
  Deno.removeSync(home, { recursive: true });
});

function q(s: string): string {
  return `'${s.replaceAll("'", `'\\''`)}'`;
}

const figures = { first: [] as number[], second: [] as number[] };

/** One REPL: two pastes, each sent with Enter; returns both Enter-to-request times (ms). */
async function session(): Promise<[number, number]> {
  const arrivals: number[] = [];
  for (let i = 0; i < 2; i++) {
    fake.replies.push(() => {
      arrivals.push(performance.now());
      return { text: "Read it." };
    });
  }
  const child = new Deno.Command("script", {
    args: ["-q", "-e", "-c", [Deno.execPath(), ...assistCommandArgs([])].map(q).join(" "), "/dev/null"],
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
    clearEnv: true,
    env: {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      NO_COLOR: "1",
      TERM: "xterm-256color",
      HOME: home,
      ASSIST_HOME: `${home}/.assist`,
      ASSIST_API_KEY: KEY,
      ASSIST_MODEL_API_URL: fake.url,
      ASSIST_NO_STATUS: "1",
      ...(denoDir ? { DENO_DIR: denoDir } : {}),
    },
  }).spawn();
  const writer = child.stdin.getWriter();
  const dec = new TextDecoder();
  let seen = "";
  const reader = child.stdout.getReader();
  const count = (s: string) => seen.split(s).length - 1;
  const until = async (test: () => boolean, what: string) => {
    while (!test()) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`the REPL ended before ${what}: ${seen.slice(-500)}`);
      seen += dec.decode(value, { stream: true });
    }
  };
  // Output is read on while waiting for the request, so the REPL never blocks on a full pipe.
  const drain = (n: number) => until(() => arrivals.length >= n, `request ${n}`);
  const times: number[] = [];
  try {
    await until(() => count("]> ") >= 1, "the prompt");
    await new Promise((r) => setTimeout(r, OPERATOR_PAUSE_MS));
    for (let i = 1; i <= 2; i++) {
      await writer.write(paste(seeds++));
      await until(() => count("[pasted ") >= i, `paste ${i} drawn`);
      const t0 = performance.now();
      await writer.write(new TextEncoder().encode("\r"));
      await drain(i);
      times.push(arrivals[i - 1] - t0);
      await until(() => count("Read it.") >= i && count("]> ") >= i + 1, `prompt ${i + 1}`);
    }
  } finally {
    child.kill("SIGKILL");
    await writer.close().catch(() => {});
    await reader.cancel().catch(() => {});
    await child.status;
  }
  return [times[0], times[1]];
}

Deno.bench("a fresh REPL, two 450 KB pastes sent (figures below)", { n: 5, warmup: 0 }, async (b) => {
  b.start();
  const [first, second] = await session();
  b.end();
  figures.first.push(first);
  figures.second.push(second);
});

globalThis.addEventListener("unload", () => {
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const fmt = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(", ");
  if (figures.first.length === 0) return;
  console.log(
    `450 KB paste, Enter to request (ms): first ${fmt(figures.first)} (median ${
      med(figures.first).toFixed(0)
    }); ` +
      `second ${fmt(figures.second)} (median ${med(figures.second).toFixed(0)})`,
  );
  void fake.close();
});
