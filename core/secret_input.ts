/**
 * Reading a secret from the operator: on a terminal a hidden prompt (raw mode, nothing echoed,
 * Backspace and Ctrl-C handled); otherwise the first line of standard input (for scripts). The
 * value is returned as a Secret and never written anywhere by this module.
 */
import { concat } from "./bytes.ts";
import { AssistError } from "./errors.ts";
import { stripCr } from "./clean.ts";
import { Secret } from "./secret.ts";

/** Applies one key press to the line being typed; pure, so the editing rules are tested. */
export function applyKey(line: string, byte: number): { line: string; done?: "enter" | "cancel" } {
  if (byte === 13 || byte === 10) return { line, done: "enter" };
  if (byte === 3 || byte === 4) return { line, done: "cancel" }; // Ctrl-C, Ctrl-D
  if (byte === 127 || byte === 8) return { line: Array.from(line).slice(0, -1).join("") };
  if (byte === 21) return { line: "" }; // Ctrl-U
  if (byte < 32) return { line };
  return { line: line + String.fromCharCode(byte) };
}

export async function readSecret(prompt: string): Promise<Secret> {
  if (!Deno.stdin.isTerminal()) {
    const chunks: Uint8Array[] = [];
    for await (const c of Deno.stdin.readable) chunks.push(c);
    const all = new TextDecoder().decode(concat(chunks));
    const first = stripCr(all.split("\n")[0] ?? "");
    if (first === "") throw new AssistError("no secret on standard input", { level: "input" });
    return new Secret(first);
  }
  const enc = new TextEncoder();
  await Deno.stderr.write(enc.encode(prompt));
  Deno.stdin.setRaw(true);
  let line = "";
  const bytes: number[] = [];
  try {
    const buf = new Uint8Array(64);
    outer: for (;;) {
      const n = await Deno.stdin.read(buf);
      if (n === null) break;
      for (let i = 0; i < n; i++) bytes.push(buf[i]);
      // Decode whole UTF-8 sequences only.
      const text = new TextDecoder().decode(new Uint8Array(bytes));
      bytes.length = 0;
      for (const ch of text) {
        const code = ch.codePointAt(0)!;
        if (code > 127) {
          line += ch;
          continue;
        }
        const r = applyKey(line, code);
        line = r.line;
        if (r.done === "cancel") throw new AssistError("cancelled", { level: "input", exitCode: 130 });
        if (r.done === "enter") break outer;
      }
    }
  } finally {
    Deno.stdin.setRaw(false);
    await Deno.stderr.write(enc.encode("\n"));
  }
  if (line === "") throw new AssistError("nothing entered", { level: "input" });
  return new Secret(line);
}
