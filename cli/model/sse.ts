/**
 * Server-sent events, decoded line by line (research/model-api.md §3): `event:` and `data:` fields,
 * `:` comments ignored, an event dispatched at a blank line; `\n`, `\r\n` and `\r` line ends; chunks
 * may split anywhere, even inside a line or a `\r\n` pair.
 */

export interface SseEvent {
  event: string;
  data: string;
}

export class SseDecoder {
  #buf = "";
  #event = "";
  #data: string[] = [];
  #pendingCr = false;

  /** Feeds decoded text; returns the events completed by it. */
  push(chunk: string): SseEvent[] {
    const out: SseEvent[] = [];
    let text = chunk;
    if (this.#pendingCr) {
      this.#pendingCr = false;
      if (text.startsWith("\n")) text = text.slice(1);
    }
    let buf = this.#buf + text;
    let start = 0;
    // Next LF and CR at or after `start`, each searched again only once passed: a CR-free chunk
    // is scanned for CR once, not once per line.
    let nl = buf.indexOf("\n");
    let cr = buf.indexOf("\r");
    for (;;) {
      if (nl !== -1 && nl < start) nl = buf.indexOf("\n", start);
      if (cr !== -1 && cr < start) cr = buf.indexOf("\r", start);
      let end: number;
      let next: number;
      if (nl === -1 && cr === -1) break;
      if (cr !== -1 && (nl === -1 || cr < nl)) {
        end = cr;
        if (cr + 1 === buf.length) {
          // A lone CR at the end of the chunk: a following LF belongs to it.
          this.#pendingCr = true;
          next = cr + 1;
        } else {
          next = buf[cr + 1] === "\n" ? cr + 2 : cr + 1;
        }
      } else {
        end = nl;
        next = nl + 1;
      }
      this.#line(buf.slice(start, end), out);
      start = next;
    }
    buf = buf.slice(start);
    this.#buf = buf;
    return out;
  }

  /** End of input: a final event without its blank line is still dispatched. */
  end(): SseEvent[] {
    const out: SseEvent[] = [];
    if (this.#buf !== "") this.#line(this.#buf, out);
    this.#buf = "";
    this.#line("", out);
    return out;
  }

  #line(line: string, out: SseEvent[]): void {
    if (line === "") {
      if (this.#data.length > 0 || this.#event !== "") {
        out.push({ event: this.#event || "message", data: this.#data.join("\n") });
      }
      this.#event = "";
      this.#data = [];
      return;
    }
    if (line.charCodeAt(0) === 58 /* : */) return;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.charCodeAt(0) === 32) value = value.slice(1);
    if (field === "event") this.#event = value;
    else if (field === "data") this.#data.push(value);
    // id, retry and unknown fields are ignored.
  }
}
