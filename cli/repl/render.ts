/**
 * Drawing the editor, pure: one string that goes back to the editor's first row (`\r`, cursor up),
 * clears below (`ESC[J`), writes the prompt and the text wrapped by display width, and puts the cursor
 * in place with relative moves. Append-only: no alternate screen, no full-screen clear. Rows are
 * ended with an explicit `\r\n`, so the terminal's pending-wrap state at the right edge never
 * matters; a wide character that does not fit at the edge goes to the next row.
 */
import { graphemes, stringWidth } from "./width.ts";

/** Where the last draw left things, relative to the editor's first row. */
export interface RenderGeometry {
  /** Row of the cursor. */
  cursorRow: number;
  /** Rows drawn. */
  rows: number;
}

/** What to draw. */
export interface RenderInput {
  /** The prompt (may hold SGR colour; its width is measured without it). */
  prompt: string;
  /** The text to show (chips already replaced by their labels). */
  text: string;
  /** The cursor as an offset into `text`. */
  cursor: number;
  columns: number;
  /** The previous draw's geometry; undefined for the first draw (the cursor is at the row start). */
  previous?: RenderGeometry;
}

/** The redraw string and the geometry to pass to the next draw. */
export interface RenderOutput {
  output: string;
  geometry: RenderGeometry;
}

/** Output that erases a drawn editor and leaves the cursor at the start of its first row. */
export function clearEditor(previous: RenderGeometry | undefined): string {
  if (!previous) return "\r\x1b[J";
  return "\r" + (previous.cursorRow > 0 ? `\x1b[${previous.cursorRow}A` : "") + "\x1b[J";
}

/** Cursor-up/down/forward sequences. */
function up(n: number): string {
  return n > 0 ? `\x1b[${n}A` : "";
}
function forward(n: number): string {
  return n > 0 ? `\x1b[${n}C` : "";
}

/** Control characters other than \n are shown as `^X` so they never move the real cursor. */
function visible(g: string): { text: string; width: number } | undefined {
  const c = g.charCodeAt(0);
  if (g.length === 1 && (c < 0x20 || c === 0x7f)) {
    return { text: "^" + String.fromCharCode(c === 0x7f ? 0x3f : c + 64), width: 2 };
  }
  return undefined;
}

/** The redraw of the editor. */
export function render(input: RenderInput): RenderOutput {
  const columns = Math.max(2, input.columns);
  let out = clearEditor(input.previous);
  const promptWidth = stringWidth(input.prompt);
  out += input.prompt;
  let row = 0;
  let col = promptWidth % columns;
  row += Math.floor(promptWidth / columns);
  // A prompt that fills rows exactly: the terminal's autowrap is pending, make it real.
  if (promptWidth > 0 && col === 0) out += "\r\n";
  let curRow = -1;
  let curCol = 0;
  const text = input.text;
  const parts: string[] = [];
  for (const g of graphemes(text)) {
    if (g.index === input.cursor) {
      curRow = row;
      curCol = col;
    }
    if (g.text === "\n" || g.text === "\r\n") {
      parts.push("\r\n");
      row++;
      col = 0;
      continue;
    }
    const shown = visible(g.text);
    const w = shown ? shown.width : g.width;
    if (col + w > columns) {
      parts.push("\r\n");
      row++;
      col = 0;
      if (g.index === input.cursor) {
        curRow = row;
        curCol = 0;
      }
    }
    parts.push(shown ? shown.text : g.text);
    col += w;
    if (col === columns) {
      parts.push("\r\n");
      row++;
      col = 0;
    }
  }
  out += parts.join("");
  if (curRow === -1) {
    curRow = row;
    curCol = col;
  }
  out += up(row - curRow) + "\r" + forward(curCol);
  return { output: out, geometry: { cursorRow: curRow, rows: row + 1 } };
}
