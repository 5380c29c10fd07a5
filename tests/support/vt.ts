/**
 * A tiny VT screen for the REPL tests: feed it what the editor writes and assert on the cells. It
 * knows `\r`, `\n` (line feed only, scrolling at the bottom), printable text with wide characters and
 * xterm's pending-wrap at the right edge, CUU/CUD/CUF/CUB (`ESC[nA/B/C/D`), CHA (`ESC[nG`), CUP
 * (`ESC[r;cH`), ED (`ESC[J`, `ESC[2J`) and EL (`ESC[K`). Other CSI sequences (SGR, private modes) are
 * ignored. A wide character takes two cells: the second holds "".
 */
import { graphemeWidth } from "../../cli/repl/width.ts";

const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });

export class VtScreen {
  readonly cols: number;
  readonly rows: number;
  cells: string[][];
  row = 0;
  col = 0;
  /** The cursor sits past the last column after writing there (xterm's deferred wrap). */
  pendingWrap = false;
  /** Lines scrolled off the top. */
  scrolled: string[] = [];

  constructor(cols: number, rows = 24) {
    this.cols = cols;
    this.rows = rows;
    this.cells = Array.from({ length: rows }, () => this.#blank());
  }

  #blank(): string[] {
    return Array.from({ length: this.cols }, () => " ");
  }

  #lineFeed(): void {
    if (this.row === this.rows - 1) {
      this.scrolled.push(this.line(0));
      this.cells.shift();
      this.cells.push(this.#blank());
    } else this.row++;
  }

  #put(g: string, w: number): void {
    if (w === 0) {
      // Joins the previous cell (combining mark after a base).
      if (this.col > 0) this.cells[this.row][this.col - 1] += g;
      return;
    }
    if (this.pendingWrap || this.col + w > this.cols) {
      this.col = 0;
      this.pendingWrap = false;
      this.#lineFeed();
    }
    this.cells[this.row][this.col] = g;
    if (w === 2) this.cells[this.row][this.col + 1] = "";
    this.col += w;
    if (this.col >= this.cols) {
      this.col = this.cols - 1;
      this.pendingWrap = true;
    }
  }

  write(s: string): void {
    let i = 0;
    while (i < s.length) {
      const ch = s[i];
      if (ch === "\x1b") {
        // deno-lint-ignore no-control-regex
        const m = /^\x1b\[([?<>]?)([0-9;]*)([ -/]*)([@-~])/.exec(s.slice(i, i + 32));
        if (!m) {
          i++;
          continue;
        }
        i += m[0].length;
        if (m[1] !== "") continue;
        this.#csi(m[2].split(";").map((p) => (p === "" ? NaN : Number(p))), m[4]);
        continue;
      }
      if (ch === "\r") {
        this.col = 0;
        this.pendingWrap = false;
        i++;
        continue;
      }
      if (ch === "\n") {
        this.pendingWrap = false;
        this.#lineFeed();
        i++;
        continue;
      }
      if (ch < " ") {
        i++;
        continue;
      }
      // One grapheme of a printable stretch.
      let j = i;
      while (j < s.length && s[j] >= " " && s[j] !== "\x1b") j++;
      for (const seg of segmenter.segment(s.slice(i, j))) this.#put(seg.segment, graphemeWidth(seg.segment));
      i = j;
    }
  }

  #csi(p: number[], f: string): void {
    const n = Number.isNaN(p[0]) || p[0] === 0 ? 1 : p[0];
    this.pendingWrap = false;
    switch (f) {
      case "A":
        this.row = Math.max(0, this.row - n);
        break;
      case "B":
        this.row = Math.min(this.rows - 1, this.row + n);
        break;
      case "C":
        this.col = Math.min(this.cols - 1, this.col + n);
        break;
      case "D":
        this.col = Math.max(0, this.col - n);
        break;
      case "G":
        this.col = Math.min(this.cols - 1, n - 1);
        break;
      case "H":
        this.row = Math.min(this.rows - 1, (Number.isNaN(p[0]) ? 1 : p[0]) - 1);
        this.col = Math.min(this.cols - 1, (Number.isNaN(p[1]) ? 1 : p[1]) - 1);
        break;
      case "J": {
        const mode = Number.isNaN(p[0]) ? 0 : p[0];
        if (mode === 2) this.cells = this.cells.map(() => this.#blank());
        else {
          for (let c = this.col; c < this.cols; c++) this.cells[this.row][c] = " ";
          for (let r = this.row + 1; r < this.rows; r++) this.cells[r] = this.#blank();
        }
        break;
      }
      case "K":
        for (let c = this.col; c < this.cols; c++) this.cells[this.row][c] = " ";
        break;
    }
  }

  /** Row `r` as text, trailing blanks removed. */
  line(r: number): string {
    return this.cells[r].join("").replace(/ +$/, "");
  }

  /** Every non-blank row up to the last one written, trailing blanks removed. */
  lines(): string[] {
    const all = this.cells.map((_, r) => this.line(r));
    while (all.length > 0 && all[all.length - 1] === "") all.pop();
    return all;
  }
}
