/** Shared helpers for the PHI tests: a throwaway home and an engine configured for it. */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import type { AutoPhiMode } from "../../core/config.ts";
import { createPhiEngine, type PhiEngine, type PhiEngineOptions } from "../../phi/mod.ts";
import { tempDir } from "../support/run_assist.ts";

export type TestConfig = PhiEngineOptions["config"];

export function testConfig(home: string, overrides: Partial<TestConfig> = {}): TestConfig {
  return {
    home,
    autoPhi: "on",
    phiPort: 1, // never listened on; tests that want tier 5 inject a sidecar
    toolResultReview: "auto",
    toolResultReviewThreshold: 8192,
    phiNotice: false,
    ...overrides,
  };
}

export interface EngineHandle {
  home: string;
  engine: PhiEngine;
  [Symbol.asyncDispose](): Promise<void>;
}

/** An engine over a fresh temporary home (tier 5 off unless `options.sidecar` is given). */
export async function testEngine(
  mode: AutoPhiMode = "on",
  options: Partial<Omit<PhiEngineOptions, "config">> & { config?: Partial<TestConfig> } = {},
): Promise<EngineHandle> {
  const tmp = await tempDir("assist-phi-");
  const engine = await createPhiEngine({
    sidecar: false,
    ...options,
    config: testConfig(tmp.path, { autoPhi: mode, ...options.config }),
  });
  return { home: tmp.path, engine, [Symbol.asyncDispose]: () => tmp[Symbol.asyncDispose]() };
}

/**
 * True when `value` still appears in `text` as a whole value (not inside a longer run of letters or
 * digits: a 5-digit zip code inside a message timestamp is not a leak).
 */
export function leaks(text: string, value: string): boolean {
  const esc = value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(?<![A-Za-z0-9])${esc}(?![A-Za-z0-9])`).test(text);
}

/** The values of the never-tokenize corpus's fenced block, as a tool result tokenizes them (tier, category). */
export const FENCED_VALUES = ["contextual MRN", "contextual DOB", "definite SSN", "definite PHONE"];

/** The lines of `text` outside fenced blocks (fence lines kept). */
export function outsideFences(text: string): string[] {
  let inside = false;
  return text.split("\n").filter((l) => {
    if (l.startsWith("```")) {
      inside = !inside;
      return true;
    }
    return !inside;
  });
}

/** Sanitizes `text` as a tool result of `tool`; asserts the exact round trip; returns the model's text. */
export async function through(engine: PhiEngine, text: string, tool = "read_file"): Promise<string> {
  const out = await engine.sanitizeToolResult(text, tool);
  assertEquals(engine.detokenize(out.text).text, text, "round trip");
  return out.text;
}

/** Every value is gone from what the model gets (as a whole value). */
export function assertGone(out: string, values: string[], where: string): void {
  for (const v of values) assert(!leaks(out, v), `${where}: ${v} reached the model\n${out}`);
}

/** Every engine fact is still there, untouched. */
export function assertKept(out: string, facts: string[], where: string): void {
  for (const f of facts) assert(out.includes(f), `${where}: engine fact ${f} was tokenized\n${out}`);
}

/**
 * Cuts of each base text at random places, scanned by `scan`: every structured value is the exact
 * source text at its span, in order and disjoint; at least `least` values were seen in all.
 */
export function assertSpansExact(
  scan: (text: string) => { structured: { start: number; end: number; value: string }[] } | undefined,
  bases: string[],
  rand: () => number,
  least = 300,
): void {
  let n = 0;
  for (let i = 0; i < 1200; i++) {
    const b = bases[i % bases.length];
    const a = Math.floor(rand() * b.length * 0.3), e = a + Math.floor(rand() * b.length);
    const t = `pre ${b.slice(a, e)} post`;
    let last = -1;
    for (const x of scan(t)?.structured ?? []) {
      n++;
      assertEquals(t.slice(x.start, x.end), x.value);
      assert(x.start >= last && x.end > x.start, "ordered, disjoint");
      last = x.end;
    }
  }
  assert(n > least, String(n));
}

/**
 * `text` through a fresh engine as a tool result (or, `how: "user"`, a prompt): every value gone,
 * every fact still there (`facts: "whole"` as a whole value, `"text"` anywhere), the round trip
 * exact. Returns what the model gets.
 */
export async function roundTrip(
  text: string,
  values: string[],
  facts: string[],
  how: "tool" | "user" = "tool",
  kept: "whole" | "text" = "whole",
): Promise<string> {
  await using h = await testEngine();
  const out = how === "tool"
    ? await h.engine.sanitizeToolResult(text, "read_file")
    : await h.engine.tokenizeUserInput(text);
  for (const v of values) assert(!leaks(out.text, v), `leaked ${v}\n${JSON.stringify(out.text)}`);
  for (const f of facts) {
    assert(
      kept === "whole" ? leaks(out.text, f) : out.text.includes(f),
      `fact lost ${f}\n${JSON.stringify(out.text)}`,
    );
  }
  assertEquals(h.engine.detokenize(out.text).text, text);
  return out.text;
}
