/**
 * Test-only crash points. When `ASSIST_TEST_CRASH_AT` names a step (`journal`, or `rename#2` for its
 * second pass), the updater announces `crash-point <step>` on stderr there and stops, so a test can
 * SIGKILL it at exactly that point and check that the next launch converges. Unset (always, outside
 * tests) it costs one lookup per step.
 *
 * @module
 */
import { readEnv } from "../core/env.ts";

const passes = new Map<string, number>();

/** Holds the process at `step` when the test asks for it; returns at once otherwise. */
export async function crashPoint(step: string): Promise<void> {
  const want = readEnv("ASSIST_TEST_CRASH_AT");
  if (!want) return;
  const n = (passes.get(step) ?? 0) + 1;
  passes.set(step, n);
  const [name, nth] = want.split("#");
  if (name !== step || n !== Number(nth ?? "1")) return;
  await Deno.stderr.write(new TextEncoder().encode(`crash-point ${want}\n`));
  // Held here (a timer keeps the process alive) until the test kills it with SIGKILL.
  await new Promise(() => setInterval(() => {}, 60_000));
}
