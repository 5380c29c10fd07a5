/**
 * The key decoder of the REPL's line editor: raw terminal bytes in, key events out. Pure and
 * incremental: a partial escape sequence, a bracketed paste or a UTF-8 character split across reads
 * is kept until the rest arrives. A lone ESC stays pending until the caller says the 50 ms timeout
 * passed (`timeout()`). Mouse reports (SGR `ESC[<b;x;yM/m` and X10 `ESC[M` + 3 bytes) are consumed and
 * dropped, so they never reach the text.
 */

/** Named keys; Ctrl+letter comes as `{ name: "a".."z", ctrl: true }`. */
export type KeyName =
  | "enter" // CR: the Enter key (Windows raw mode sends CR only)
  | "linefeed" // LF: Ctrl-J
  | "tab"
  | "backtab"
  | "backspace"
  | "delete"
  | "insert"
  | "up"
  | "down"
  | "left"
  | "right"
  | "home"
  | "end"
  | "pageup"
  | "pagedown"
  | "escape"
  | string;

/** One decoded input event. */
export type KeyEvent =
  /** Printable text typed (a run of characters from one read). */
  | { kind: "text"; text: string }
  /** A bracketed paste, whole: CRLF/CR made LF, ESC and C0 controls other than \t \n removed. */
  | { kind: "paste"; text: string }
  | { kind: "key"; name: KeyName; ctrl: boolean; alt: boolean; shift: boolean };

const ESC = 0x1b;
const PASTE_END = [ESC, 0x5b, 0x32, 0x30, 0x31, 0x7e]; // ESC[201~
/** A CSI longer than this is garbage (or an attack), not a key: it is dropped. */
const MAX_SEQ = 64;

function key(name: string, mods: { ctrl?: boolean; alt?: boolean; shift?: boolean } = {}): KeyEvent {
  return { kind: "key", name, ctrl: mods.ctrl ?? false, alt: mods.alt ?? false, shift: mods.shift ?? false };
}

/** The event for a C0 control byte or DEL (never ESC). */
function controlKey(b: number, alt: boolean): KeyEvent | undefined {
  switch (b) {
    case 0x0d:
      return key("enter", { alt });
    case 0x0a:
      return key("linefeed", { alt });
    case 0x09:
      return key("tab", { alt });
    case 0x7f:
      return key("backspace", { alt });
    case 0x00:
      return undefined; // Ctrl-Space / Ctrl-@: no binding
  }
  if (b >= 1 && b <= 26) return key(String.fromCharCode(b + 96), { ctrl: true, alt });
  if (b >= 0x1c && b <= 0x1f) return key("\\]^_"[b - 0x1c], { ctrl: true, alt });
  return undefined;
}

const CSI_TILDE: Record<string, string> = {
  "1": "home",
  "2": "insert",
  "3": "delete",
  "4": "end",
  "5": "pageup",
  "6": "pagedown",
  "7": "home",
  "8": "end",
};
const CSI_FINAL: Record<string, string> = {
  A: "up",
  B: "down",
  C: "right",
  D: "left",
  H: "home",
  F: "end",
  Z: "backtab",
};

/** Modifier parameter of xterm sequences (`ESC[1;5C`): 1 + shift 1, alt 2, ctrl 4. */
function modifiers(param: string | undefined): { shift: boolean; alt: boolean; ctrl: boolean } {
  const m = Math.max(0, (Number(param) || 1) - 1);
  return { shift: (m & 1) !== 0, alt: (m & 2) !== 0 || (m & 8) !== 0, ctrl: (m & 4) !== 0 };
}

/** Length of the UTF-8 sequence a lead byte starts (1 for ASCII and for invalid lead bytes). */
function utf8Length(b: number): number {
  if (b >= 0xf0 && b <= 0xf4) return 4;
  if (b >= 0xe0) return b <= 0xef ? 3 : 1;
  if (b >= 0xc2) return 2;
  return 1;
}

function isText(b: number): boolean {
  return b >= 0x20 && b !== 0x7f;
}

function indexOfSeq(hay: Uint8Array, needle: number[], from: number): number {
  const first = needle[0];
  for (let i = hay.indexOf(first, from); i !== -1; i = hay.indexOf(first, i + 1)) {
    let j = 1;
    while (j < needle.length && i + j < hay.length && hay[i + j] === needle[j]) j++;
    if (j === needle.length) return i;
    if (i + j === hay.length) return -1; // a possible start of the end marker at the very end
  }
  return -1;
}

/**
 * Cleans pasted text: CRLF and CR become LF; ESC, DEL and C0 controls other than \t and \n are
 * removed.
 */
export function cleanPaste(text: string): string {
  // deno-lint-ignore no-control-regex
  return text.replace(/\r\n?/g, "\n").replace(/[\x00-\x08\x0b-\x1f\x7f]/g, "");
}

/** The incremental decoder: `feed()` bytes as they are read, `timeout()` after 50 ms of quiet. */
export class KeyDecoder {
  #pending: Uint8Array = new Uint8Array(0);
  #paste: Uint8Array[] | null = null;
  #text = new TextDecoder();

  /** Whether bytes are held back waiting for more (a lone ESC, a partial sequence or a paste). */
  get pending(): boolean {
    return this.#pending.length > 0 || this.#paste !== null;
  }

  /** Whether the pending bytes are an escape sequence that `timeout()` would resolve. */
  get wantsTimeout(): boolean {
    return this.#paste === null && this.#pending.length > 0 && this.#pending[0] === ESC;
  }

  /** Decodes one chunk; bytes of an unfinished sequence are kept for the next call. */
  feed(chunk: Uint8Array): KeyEvent[] {
    const out: KeyEvent[] = [];
    let buf: Uint8Array;
    if (this.#pending.length === 0) buf = chunk;
    else {
      buf = new Uint8Array(this.#pending.length + chunk.length);
      buf.set(this.#pending);
      buf.set(chunk, this.#pending.length);
    }
    this.#pending = new Uint8Array(0);
    this.#decode(buf, out, false);
    return out;
  }

  /**
   * The 50 ms passed with no more bytes: a pending lone ESC is the Escape key; a pending partial
   * sequence is Escape followed by its bytes read as typed. A paste in progress keeps waiting.
   */
  timeout(): KeyEvent[] {
    const out: KeyEvent[] = [];
    if (this.#paste !== null || this.#pending.length === 0) return out;
    const buf = this.#pending;
    this.#pending = new Uint8Array(0);
    this.#decode(buf, out, true);
    return out;
  }

  #decode(buf: Uint8Array, out: KeyEvent[], flush: boolean): void {
    let i = 0;
    const n = buf.length;
    while (i < n) {
      if (this.#paste !== null) {
        const end = indexOfSeq(buf, PASTE_END, i);
        if (end === -1) {
          // Keep a possible partial end marker back; the rest joins the paste.
          let keep = 0;
          for (let k = Math.min(PASTE_END.length - 1, n - i); k > 0; k--) {
            let match = true;
            for (let j = 0; j < k; j++) if (buf[n - k + j] !== PASTE_END[j]) match = false;
            if (match) {
              keep = k;
              break;
            }
          }
          if (n - keep > i) this.#paste.push(buf.slice(i, n - keep));
          this.#pending = buf.slice(n - keep);
          return;
        }
        this.#paste.push(buf.slice(i, end));
        out.push({ kind: "paste", text: cleanPaste(this.#decodePaste(this.#paste)) });
        this.#paste = null;
        i = end + PASTE_END.length;
        continue;
      }
      const b = buf[i];
      if (b === ESC) {
        const used = this.#escape(buf, i, out, flush);
        if (used === 0) {
          this.#pending = buf.slice(i);
          return;
        }
        i += used;
        continue;
      }
      if (!isText(b)) {
        const ev = controlKey(b, false);
        if (ev) out.push(ev);
        i++;
        continue;
      }
      // A run of text: up to the next control byte, whole UTF-8 characters only.
      let j = i;
      while (j < n && isText(buf[j])) j++;
      let end = j;
      if (j === n) {
        // A character cut by the read boundary waits for its last bytes.
        for (let k = Math.max(i, n - 3); k < n; k++) {
          if (buf[k] >= 0xc0 && k + utf8Length(buf[k]) > n) {
            end = k;
            break;
          }
        }
      }
      if (end > i) out.push({ kind: "text", text: this.#text.decode(buf.subarray(i, end)) });
      if (end < j) {
        this.#pending = buf.slice(end);
        return;
      }
      i = j;
    }
  }

  #decodePaste(parts: Uint8Array[]): string {
    const dec = new TextDecoder();
    let s = "";
    for (const p of parts) s += dec.decode(p, { stream: true });
    return s + dec.decode();
  }

  /**
   * Decodes the escape sequence at `buf[i]` (an ESC). Returns the bytes used, or 0 when the sequence
   * is not complete yet (and `flush` is false).
   */
  #escape(buf: Uint8Array, i: number, out: KeyEvent[], flush: boolean): number {
    const n = buf.length;
    if (i + 1 >= n) {
      if (!flush) return 0;
      out.push(key("escape"));
      return 1;
    }
    const b1 = buf[i + 1];
    if (b1 === 0x5b) return this.#csi(buf, i, out, flush);
    if (b1 === 0x4f) {
      // SS3: ESC O <final>
      if (i + 2 >= n) {
        if (!flush) return 0;
        out.push(key("o", { alt: true, shift: true }));
        return 2;
      }
      const name = CSI_FINAL[String.fromCharCode(buf[i + 2])];
      if (name) out.push(key(name));
      return 3;
    }
    if (b1 === ESC) {
      out.push(key("escape"));
      return 1;
    }
    if (b1 < 0x20 || b1 === 0x7f) {
      const ev = controlKey(b1, true);
      if (ev) out.push(ev);
      return 2;
    }
    if (b1 < 0x80) {
      const ch = String.fromCharCode(b1);
      out.push(key(ch.toLowerCase(), { alt: true, shift: ch !== ch.toLowerCase() }));
      return 2;
    }
    // ESC before a non-ASCII character: Escape, then the character as text.
    out.push(key("escape"));
    return 1;
  }

  #csi(buf: Uint8Array, i: number, out: KeyEvent[], flush: boolean): number {
    const n = buf.length;
    const start = i + 2;
    // X10 mouse: ESC [ M then three raw bytes.
    if (start < n && buf[start] === 0x4d) {
      if (n - i >= 6) return 6;
      if (!flush) return 0;
      return n - i; // a cut-off mouse report is dropped whole
    }
    let j = start;
    while (j < n && buf[j] >= 0x20 && buf[j] <= 0x3f) j++;
    if (j >= n) {
      if (!flush && j - i < MAX_SEQ) return 0;
      if (j - i >= MAX_SEQ) return j - i; // runaway parameters: dropped
      // Timed out part-way: ESC is Escape, the rest is read as typed.
      out.push(key("escape"));
      return 1;
    }
    const fin = buf[j];
    if (fin < 0x40 || fin > 0x7e) {
      // Not a CSI after all (a control byte inside): drop what was read, go on at that byte.
      return j - i;
    }
    const params = new TextDecoder().decode(buf.subarray(start, j));
    const used = j + 1 - i;
    if (params.startsWith("<") || params.startsWith("?") || params.startsWith(">")) return used; // mouse, reports
    const parts = params.split(";");
    const f = String.fromCharCode(fin);
    if (f === "~") {
      if (parts[0] === "200") {
        this.#paste = [];
        return used;
      }
      if (parts[0] === "201") return used; // a stray end marker
      const name = CSI_TILDE[parts[0]];
      if (name) out.push(key(name, modifiers(parts[1])));
      return used;
    }
    const name = CSI_FINAL[f];
    if (name) out.push(key(name, modifiers(parts[1])));
    return used;
  }
}
