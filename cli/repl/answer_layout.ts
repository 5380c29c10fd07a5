/**
 * A streamed answer laid out to the terminal's width, append-only: lines break between words (the
 * terminal would split a word at the margin), a list item's continuation lines are indented under
 * its text, and a markdown table is drawn to fit: aligned columns when it fits, else its widest
 * columns narrowed with their cells wrapped, else one `header: value` block per row when even that
 * is too narrow. Nothing already written is ever redrawn: the word being typed is held back until
 * a space or a line end says where it goes, and a table until its last row. A word longer than a
 * line is written as it is (the terminal breaks it). Input is the styled text (markdown.ts): SGR
 * sequences take no columns; table cells are laid out plain.
 *
 * @example
 * ```ts
 * import { AnswerLayout } from "./answer_layout.ts";
 * const l = new AnswerLayout(() => 21); // a line holds 20 columns
 * l.push("The adt_in thread is up and the queue is empty.\n") + l.end();
 * // "The adt_in thread is\nup and the queue is\nempty.\n"
 * ```
 *
 * @module
 */
import { stringWidth, stripAnsi } from "./width.ts";

/** A list item's marker: its continuation lines are indented under the text after it. */
const LIST_MARKER = /^(?:[-*+•]|\d{1,3}[.)])$/;
/** A table's separator row cell: `---`, `:--`, `--:`, `:-:`. */
const SEPARATOR_CELL = /^:?-+:?$/;
/** The narrowest a column gets before a table is drawn as one block per row. */
const MIN_COLUMN = 6;
const COLUMN_GAP = " │ ";

// deno-lint-ignore no-control-regex -- our own SGR sequences
const SGR = /^\x1b\[[0-9;]*m/;

export class AnswerLayout {
  readonly #columns: () => number;
  /** Columns used on the current screen line. */
  #col = 0;
  /** The word being received (held back until it is known where it goes). */
  #word = "";
  /** Spaces after the last written word (dropped when the next word starts a new line). */
  #space = "";
  /** The line's kind: undefined while its start is undecided (held in `#lead`). */
  #line: "text" | "table" | undefined = undefined;
  /** A line's start while undecided (spaces and SGR sequences, one token each). */
  #lead: string[] = [];
  /** Columns of indentation for the current line's continuation rows. */
  #indent = 0;
  #firstWord = true;
  /** Rows of the table being received, and the row in progress. */
  #rows: string[] = [];
  #row = "";

  /** `columns`: the terminal's width now (read at each decision; a resize applies to what follows). */
  constructor(columns: () => number) {
    this.#columns = columns;
  }

  /** Columns a line may fill: one short of the margin, so no terminal wraps on its own. */
  #width(): number {
    return Math.max(10, this.#columns() - 1);
  }

  /** Laid-out output for `text` (possibly empty: a word or a table held back). */
  push(text: string): string {
    let out = "";
    let i = 0;
    while (i < text.length) {
      const sgr = text.charCodeAt(i) === 0x1b ? SGR.exec(text.slice(i, i + 16))?.[0] : undefined;
      const c = sgr ?? text[i];
      i += c.length;
      if (this.#line === "table") {
        if (c === "\n") {
          this.#rows.push(this.#row);
          this.#row = "";
          this.#line = undefined;
        } else this.#row += c;
        continue;
      }
      if (this.#line === undefined) {
        if (sgr || c === " " || c === "\t") {
          this.#lead.push(c);
          continue;
        }
        if (c === "|") {
          this.#line = "table";
          this.#row = this.#lead.join("") + c;
          this.#lead = [];
          continue;
        }
        out += this.#endTable();
        this.#line = "text";
        this.#indent = 0;
        this.#firstWord = true;
        const lead = this.#lead;
        this.#lead = [];
        for (const l of lead) out += this.#text(l);
      }
      out += this.#text(c);
    }
    return out;
  }

  /** Everything held back, written out (end of the answer, or a line of our own comes next). */
  end(): string {
    let out = "";
    if (this.#line === "table") {
      this.#rows.push(this.#row);
      this.#row = "";
      this.#line = undefined;
    }
    out += this.#endTable();
    for (const l of this.#lead) out += this.#text(l);
    this.#lead = [];
    out += this.#placeWord();
    if (this.#space) {
      out += this.#space; // spaces before whatever comes next on this line
      this.#col += this.#space.length;
      this.#space = "";
    }
    this.#line = this.#col === 0 ? undefined : "text";
    return out;
  }

  /** Someone else ended the line (a tool line, the elapsed indicator): the next text starts at column 0. */
  newLine(): void {
    this.#col = 0;
    this.#space = "";
    this.#line = undefined;
  }

  /** One character (or SGR sequence) of a text line. */
  #text(c: string): string {
    if (c === "\n") {
      const out = this.#placeWord() + "\n";
      this.#col = 0;
      this.#space = "";
      this.#line = undefined;
      return out;
    }
    if (c === " " || c === "\t") {
      const out = this.#placeWord();
      this.#space += c === "\t" ? " ".repeat(8 - ((this.#col + this.#space.length) % 8)) : c;
      return out;
    }
    this.#word += c;
    return "";
  }

  /** Writes the held word after the held spaces, or on a new line when it would cross the margin. */
  #placeWord(): string {
    const word = this.#word;
    if (word === "") return "";
    this.#word = "";
    const w = stringWidth(word);
    const space = this.#space;
    this.#space = "";
    const width = this.#width();
    let out: string;
    if (this.#col === 0 || this.#col + space.length + w <= width || w === 0) {
      out = space + word;
      this.#col += space.length + w;
    } else {
      const indent = this.#indent < width / 2 ? this.#indent : 0;
      out = "\n" + " ".repeat(indent) + word;
      this.#col = indent + w;
    }
    if (this.#col > width) this.#col %= width + 1; // a word longer than a line: the terminal broke it
    if (this.#firstWord) {
      this.#firstWord = false;
      const plain = stripAnsi(word);
      this.#indent = LIST_MARKER.test(plain) ? this.#col + 1 : stringWidth(stripAnsi(space));
    }
    return out;
  }

  /** The table received so far, drawn (empty when there is none). */
  #endTable(): string {
    if (this.#rows.length === 0) return "";
    const rows = this.#rows;
    this.#rows = [];
    return layTable(rows, this.#width());
  }
}

/** The cells of one table row (`| a | b |`), trimmed; `\|` is a pipe inside a cell. */
function cells(row: string): string[] {
  let s = stripAnsi(row).trim();
  if (s.startsWith("|")) s = s.slice(1);
  if (s.endsWith("|") && !s.endsWith("\\|")) s = s.slice(0, -1);
  return s.split(/(?<!\\)\|/).map((c) => c.trim().replaceAll("\\|", "|"));
}

/**
 * Rows of a markdown table drawn in `width` columns (every line ends in a newline). Rows without a
 * separator row second are not a table: they come back as they were.
 *
 * @example
 * ```ts
 * import { layTable } from "./answer_layout.ts";
 * layTable(["| Thread | State |", "|---|---|", "| adt_in | up |"], 40);
 * // "Thread │ State\n───────┼──────\nadt_in │ up\n"
 * ```
 */
export function layTable(rows: string[], width: number): string {
  const parsed = rows.map(cells);
  if (parsed.length < 2 || !parsed[1].every((c) => SEPARATOR_CELL.test(c))) {
    return rows.map((r) => wrapText(stripAnsi(r).trimEnd(), width).join("\n") + "\n").join("");
  }
  const right = parsed[1].map((c) => c.endsWith(":") && !c.startsWith(":"));
  const body = [parsed[0], ...parsed.slice(2)];
  const n = Math.max(...body.map((r) => r.length));
  for (const r of body) while (r.length < n) r.push("");
  const natural = Array.from({ length: n }, (_, c) => Math.max(1, ...body.map((r) => stringWidth(r[c]))));
  const gaps = COLUMN_GAP.length * (n - 1);
  const fitted = fitColumns(natural, width - gaps);
  if (!fitted) return blocks(body, width);
  const line = (r: string[]) => {
    const wrapped = r.map((cell, c) => wrapText(cell, fitted[c]));
    const height = Math.max(...wrapped.map((w) => w.length));
    const out: string[] = [];
    for (let k = 0; k < height; k++) {
      const parts = wrapped.map((w, c) => {
        const t = w[k] ?? "";
        const pad = " ".repeat(fitted[c] - stringWidth(t));
        return right[c] ? pad + t : t + pad;
      });
      out.push(parts.join(COLUMN_GAP).trimEnd());
    }
    return out;
  };
  const rule = fitted.map((w) => "─".repeat(w)).join("─┼─");
  return [...line(body[0]), rule, ...body.slice(1).flatMap(line)].join("\n") + "\n";
}

/**
 * Column widths that fit `room`: the natural ones when they do; else the narrow columns keep theirs
 * and the wide ones share what is left evenly. Undefined when a column would be under MIN_COLUMN.
 */
function fitColumns(natural: number[], room: number): number[] | undefined {
  if (natural.reduce((a, b) => a + b, 0) <= room) return natural;
  const out = natural.slice();
  let open = natural.map((_, i) => i);
  let left = room;
  for (;;) {
    const share = Math.floor(left / open.length);
    const fits = open.filter((i) => natural[i] <= share);
    if (fits.length === 0) {
      if (share < MIN_COLUMN) return undefined;
      for (const i of open) out[i] = share;
      return out;
    }
    for (const i of fits) left -= natural[i];
    open = open.filter((i) => natural[i] > share);
    if (open.length === 0) return out;
  }
}

/** A table too wide for columns: each row as `header: value` lines, rows apart by a blank line. */
function blocks(body: string[][], width: number): string {
  const [head, ...rows] = body;
  return rows.map((r) =>
    r.map((cell, c) => wrapText(`${head[c] || `column ${c + 1}`}: ${cell}`, width).join("\n")).join("\n") +
    "\n"
  ).join("\n");
}

/** Plain text broken between words into lines of at most `width` columns (a longer word is cut). */
export function wrapText(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  let col = 0;
  for (const word of text.split(/ +/)) {
    if (word === "") continue;
    let w = stringWidth(word);
    let rest = word;
    if (col > 0 && col + 1 + w <= width) {
      line += " " + rest;
      col += 1 + w;
      continue;
    }
    if (col > 0) lines.push(line);
    line = "";
    col = 0;
    while (w > width) {
      // Cut by characters (a long path or id): as many as fit.
      let cut = "";
      let cw = 0;
      for (const ch of rest) {
        const chw = stringWidth(ch);
        if (cw + chw > width) break;
        cut += ch;
        cw += chw;
      }
      lines.push(cut);
      rest = rest.slice(cut.length);
      w = stringWidth(rest);
    }
    line = rest;
    col = w;
  }
  if (line !== "" || lines.length === 0) lines.push(line);
  return lines;
}
