/**
 * Sync progress (spec, "Versioning" item 3 and "Limits": sync heartbeat). On a terminal one line is
 * rewritten in place (`\r` + erase-line): `checking N/<total> <file>`, switching to
 * `downloading N/<total> <file>`; otherwise a heartbeat line every 10 files and one for the last.
 *
 * @module
 */

export type Phase = "checking" | "downloading";

export interface ProgressEvent {
  phase: Phase;
  n: number;
  total: number;
  path: string;
}

/**
 * A progress printer: `write` gets raw text. Call `done()` to end an in-place line.
 *
 * @example
 * ```ts
 * import { progressPrinter } from "./progress.ts";
 * const p = progressPrinter((s) => Deno.stderr.writeSync(new TextEncoder().encode(s)), false);
 * p.report({ phase: "checking", n: 10, total: 48, path: "cli/help.ts" }); // "checking 10/48 cli/help.ts\n"
 * p.done();
 * ```
 */
export function progressPrinter(write: (text: string) => void, tty: boolean) {
  let open = false;
  return {
    report(e: ProgressEvent): void {
      const line = `${e.phase} ${e.n}/${e.total} ${e.path}`;
      if (tty) {
        write(`\r\x1b[K${line}`);
        open = true;
      } else if (e.n % 10 === 0 || e.n === e.total) write(`${line}\n`);
    },
    done(): void {
      if (open) write("\r\x1b[K");
      open = false;
    },
  };
}
