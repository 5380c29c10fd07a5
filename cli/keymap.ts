/**
 * The REPL's keys, defined once: each row binds keys to one editor operation and says in one line
 * what it does. The line editor (cli/repl/editor.ts) looks keys up here, `/help` prints the rows,
 * and README's key table is checked against them (tests/cli/keymap.test.ts). After reedline's
 * `keybindings.rs` (key → event) and `emacs.rs` (the default emacs bindings).
 *
 * @example
 * ```ts
 * import { keyOp } from "./keymap.ts";
 * keyOp({ name: "a", ctrl: true, alt: false }); // "lineStart"
 * keyOp({ name: "enter", ctrl: false, alt: true }); // "newline"
 * ```
 *
 * @module
 */

/** What a key does in the line editor. */
export type EditOp =
  | "submit"
  | "newline"
  | "complete"
  | "charLeft"
  | "charRight"
  | "wordLeft"
  | "wordRight"
  | "lineStart"
  | "lineEnd"
  | "bufferStart"
  | "bufferEnd"
  | "up"
  | "down"
  | "historyPrev"
  | "historyNext"
  | "search"
  | "leaveSearch"
  | "backspace"
  | "deleteChar"
  | "deleteOrEof"
  | "killLineStart"
  | "killLineEnd"
  | "killWordBack"
  | "killSpaceWordBack"
  | "killWordForward"
  | "yank"
  | "transpose"
  | "interrupt"
  | "clear"
  | "suspend"
  | "cancel";

/** A key as the decoder names it (cli/repl/keys.ts): `a`…`z`, `enter`, `left`, …, and its modifiers. */
export interface Chord {
  name: string;
  ctrl: boolean;
  alt: boolean;
}

/** One row: the keys (`ctrl+a`, `alt+enter`, `home`), the operation, the help line. */
export interface KeyRow {
  keys: readonly string[];
  /** The same keys as some terminals send them (bound, not listed). */
  also?: readonly string[];
  op: EditOp;
  help: string;
}

/** Every key binding, in /help and README order. */
export const KEYMAP: readonly KeyRow[] = [
  {
    keys: ["enter"],
    op: "submit",
    help: "send; a bracketed paste never sends by itself; without brackets, more input within 50 ms " +
      "makes an Enter a newline, and a block pasted at once keeps its TABs and waits for Enter",
  },
  {
    keys: ["alt+enter", "linefeed"],
    also: ["alt+linefeed", "ctrl+j"],
    op: "newline",
    help: "new line; a trailing \\ continues until a blank line, << until a line EOF",
  },
  {
    keys: ["tab"],
    op: "complete",
    help: "complete /commands, HL7 paths (PID.5.1), @files and the paths of /load and /phi-reveal",
  },
  { keys: ["ctrl+b", "left"], op: "charLeft", help: "one character left" },
  { keys: ["ctrl+f", "right"], op: "charRight", help: "one character right" },
  { keys: ["alt+b", "alt+left", "ctrl+left"], op: "wordLeft", help: "one word left" },
  { keys: ["alt+f", "alt+right", "ctrl+right"], op: "wordRight", help: "one word right" },
  { keys: ["ctrl+a", "home"], op: "lineStart", help: "start of the line" },
  { keys: ["ctrl+e", "end"], op: "lineEnd", help: "end of the line" },
  { keys: ["ctrl+home"], op: "bufferStart", help: "start of the entry" },
  { keys: ["ctrl+end"], op: "bufferEnd", help: "end of the entry" },
  {
    keys: ["up", "ctrl+p", "ctrl+up"],
    op: "up",
    help: "the row above in a long entry; from its first row, the previous history entry",
  },
  {
    keys: ["down", "ctrl+n", "ctrl+down"],
    op: "down",
    help: "the row below in a long entry; from its last row, the next history entry",
  },
  { keys: ["pageup"], op: "historyPrev", help: "the previous history entry" },
  { keys: ["pagedown"], op: "historyNext", help: "the next history entry" },
  { keys: ["ctrl+r"], op: "search", help: "search the history (again: an older match; Enter takes it)" },
  { keys: ["ctrl+g"], op: "leaveSearch", help: "leave the history search, the line as it was (Esc too)" },
  { keys: ["backspace", "ctrl+h"], op: "backspace", help: "delete the character before the cursor" },
  { keys: ["delete"], op: "deleteChar", help: "delete the character under the cursor" },
  {
    keys: ["ctrl+d"],
    op: "deleteOrEof",
    help: "delete the character under the cursor; on an empty line, leave",
  },
  { keys: ["ctrl+u"], op: "killLineStart", help: "delete to the start of the line (into the kill ring)" },
  { keys: ["ctrl+k"], op: "killLineEnd", help: "delete to the end of the line (into the kill ring)" },
  { keys: ["alt+backspace"], op: "killWordBack", help: "delete the word before the cursor" },
  { keys: ["ctrl+w"], op: "killSpaceWordBack", help: "delete back to the previous space" },
  { keys: ["alt+d"], op: "killWordForward", help: "delete the word after the cursor" },
  { keys: ["ctrl+y"], op: "yank", help: "insert what was deleted last (the kill ring)" },
  { keys: ["ctrl+t"], op: "transpose", help: "swap the two characters at the cursor" },
  {
    keys: ["ctrl+c"],
    op: "interrupt",
    help: "clear the line (Ctrl-Y brings it back); at an empty prompt twice within 2 s, leave; " +
      "during a turn, cancel it or stop waiting for a slow answer or a retry (the prompt and the answer " +
      "so far stay in the conversation, marked [Request interrupted by user])",
  },
  { keys: ["escape"], op: "cancel", help: "during a turn, cancel it; at a menu or question, leave it" },
  { keys: ["ctrl+l"], op: "clear", help: "clear the screen" },
  { keys: ["ctrl+z"], op: "suspend", help: "suspend (Unix; fg resumes)" },
];

/** `ctrl+alt+x` → the chord; the modifiers in any order. */
export function parseChord(spec: string): Chord {
  const parts = spec.split("+");
  const name = parts.pop()!;
  return { name, ctrl: parts.includes("ctrl"), alt: parts.includes("alt") };
}

const chordKey = (c: Chord) => `${c.ctrl ? "ctrl+" : ""}${c.alt ? "alt+" : ""}${c.name}`;

const BY_CHORD: ReadonlyMap<string, EditOp> = new Map(
  KEYMAP.flatMap((row) =>
    [...row.keys, ...row.also ?? []].map((k) => [chordKey(parseChord(k)), row.op] as const)
  ),
);

/** The operation bound to a key (shift is not told apart), or undefined. */
export function keyOp(key: Chord): EditOp | undefined {
  return BY_CHORD.get(chordKey(key));
}

const NAMES: Record<string, string> = {
  enter: "Enter",
  tab: "TAB",
  left: "Left",
  right: "Right",
  up: "Up",
  down: "Down",
  home: "Home",
  end: "End",
  pageup: "PageUp",
  pagedown: "PageDown",
  backspace: "Backspace",
  delete: "Delete",
  escape: "Esc",
  linefeed: "Ctrl-J", // the byte Ctrl-J sends (LF)
};

/** A key as people write it: `Ctrl-A`, `Alt+Enter`, `Ctrl-Left`, `TAB`. */
export function keyLabel(spec: string): string {
  const c = parseChord(spec);
  const name = NAMES[c.name] ?? c.name.toUpperCase();
  if (c.ctrl) return `Ctrl-${name}`;
  if (c.alt) return `Alt+${name}`;
  return name;
}

/** The rows as /help and README show them: the keys' labels and the help line. */
export function keyHelpRows(): Array<[string, string]> {
  return KEYMAP.map((row) => [row.keys.map(keyLabel).join(", "), row.help]);
}

/** README's key table, as the test expects it there. */
export function keyTableMarkdown(): string {
  const esc = (s: string) => s.replaceAll("|", "\\|");
  return ["| Keys | |", "|---|---|", ...keyHelpRows().map(([k, h]) => `| ${esc(k)} | ${esc(h)} |`)].join(
    "\n",
  );
}
