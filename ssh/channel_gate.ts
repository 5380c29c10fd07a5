/**
 * A tiny counting semaphore for the channels of one connection: exec channels and the SFTP session
 * share the server's session limit, and opens beyond it wait their turn instead of failing.
 *
 * @module
 */

/** OpenSSH allows 10 sessions per connection (MaxSessions); we keep one for SFTP and a margin. */
export const MAX_CHANNELS = 8;

export class ChannelGate {
  #free: number;
  #waiting: (() => void)[] = [];
  constructor(n: number = MAX_CHANNELS) {
    this.#free = n;
  }

  /** Waits for a free channel; the returned function gives it back (calling it twice is harmless). */
  async acquire(): Promise<() => void> {
    if (this.#free > 0) this.#free--;
    else await new Promise<void>((r) => this.#waiting.push(r));
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#waiting.shift();
      if (next) next();
      else this.#free++;
    };
  }
}
