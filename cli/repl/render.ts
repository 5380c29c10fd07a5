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
  /** The width the draw was made for (a later draw at another width is after a resize). */
  columns?: number;
  /**
   * Display width of each hard-ended line (prompt rows wrapped by the terminal count as one line
   * with the text after them) above the cursor's line, and the cursor's column within its line
   * (see `cursorRowAfter`).
   */
  above?: number[];
  lineOffset?: number;
  /** The cursor's screen column. */
  cursorCol?: number;
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
  /**
   * A screen position (row and column from the editor's first row) whose text offset is wanted:
   * `located` is the last grapheme boundary on that row at or before the column (the row's first
   * one when the column is left of the text), undefined when no text starts on that row.
   */
  locate?: { row: number; col: number };
}

/** The redraw string and the geometry to pass to the next draw. */
export interface RenderOutput {
  output: string;
  geometry: RenderGeometry;
  /** See `RenderInput.locate`. */
  located?: number;
}

/**
 * The cursor's row in a drawn editor once the window is `columns` wide. Terminals that reflow on a
 * resize (tmux, VTE, iTerm2, Windows Terminal, kitty …) re-wrap each line: the text's rows end in
 * hard line ends (`\r\n`) and are never joined, a long prompt's rows (autowrapped) are; a line
 * wider than the new width takes more rows, a narrower one one row.
 * Counting the old rows alone after a shrink would go back too few rows and leave the top of the
 * old editor on the screen (a second prompt line above the redrawn one).
 */
export function cursorRowAfter(previous: RenderGeometry, columns: number): number {
  if (previous.columns === undefined || previous.columns === columns || !previous.above) {
    return previous.cursorRow;
  }
  const cols = Math.max(2, columns);
  let row = 0;
  for (const w of previous.above) row += Math.max(1, Math.ceil(w / cols));
  return row + Math.floor((previous.lineOffset ?? 0) / cols);
}

/** Output that erases a drawn editor and leaves the cursor at the start of its first row. */
export function clearEditor(previous: RenderGeometry | undefined, columns?: number): string {
  if (!previous) return "\r\x1b[J";
  const row = columns === undefined ? previous.cursorRow : cursorRowAfter(previous, columns);
  return "\r" + (row > 0 ? `\x1b[${row}A` : "") + "\x1b[J";
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
  let out = clearEditor(input.previous, columns);
  // For a later resize: the display width of each line ended by a hard line end (`\r\n`) above the
  // cursor's, and the cursor's column within its line. The prompt wraps by the terminal's autowrap
  // (soft: a reflow joins those rows again), the text rows end hard.
  const lines: number[] = [];
  let lineWidth = 0;
  const hardEnd = () => {
    lines.push(lineWidth);
    lineWidth = 0;
  };
  const promptWidth = stringWidth(input.prompt);
  out += input.prompt;
  let row = 0;
  let col = promptWidth % columns;
  row += Math.floor(promptWidth / columns);
  lineWidth = promptWidth;
  // A prompt that fills rows exactly: the terminal's autowrap is pending, make it real.
  if (promptWidth > 0 && col === 0) {
    out += "\r\n";
    hardEnd();
  }
  let curRow = -1;
  let curCol = 0;
  let curLines = 0;
  let curOffset = 0;
  const cursorHere = () => {
    curRow = row;
    curCol = col;
    curLines = lines.length;
    curOffset = lineWidth;
  };
  const text = input.text;
  const parts: string[] = [];
  const target = input.locate;
  let located: number | undefined;
  const boundary = (index: number) => {
    if (target && row === target.row && (col <= target.col || located === undefined)) located = index;
  };
  for (const g of graphemes(text)) {
    if (g.index === input.cursor) cursorHere();
    if (g.text === "\n" || g.text === "\r\n") {
      boundary(g.index);
      parts.push("\r\n");
      hardEnd();
      row++;
      col = 0;
      continue;
    }
    // A tab (pasted TSV, a OneNote table) shows as spaces up to the next 8-column stop (at most to
    // the row's end), as the terminal would show it, not as `^I`.
    const tab = g.text === "\t" ? Math.min(8 - (col % 8), columns - col) : 0;
    const shown = tab ? { text: " ".repeat(tab), width: tab } : visible(g.text);
    const w = shown ? shown.width : g.width;
    if (col + w > columns) {
      parts.push("\r\n");
      hardEnd();
      row++;
      col = 0;
      if (g.index === input.cursor) cursorHere();
    }
    boundary(g.index);
    parts.push(shown ? shown.text : g.text);
    col += w;
    lineWidth += w;
    if (col === columns) {
      parts.push("\r\n");
      hardEnd();
      row++;
      col = 0;
    }
  }
  out += parts.join("");
  if (curRow === -1) cursorHere();
  boundary(text.length);
  out += up(row - curRow) + "\r" + forward(curCol);
  return {
    located,
    output: out,
    geometry: {
      cursorRow: curRow,
      rows: row + 1,
      columns,
      above: lines.slice(0, curLines),
      lineOffset: curOffset,
      cursorCol: curCol,
    },
  };
}
