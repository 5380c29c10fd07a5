/**
 * A file-system error as the operator's one line (issue #29 item 10). A full disk or a read-only
 * file system is not a bug of the program: the line names the file, says what is wrong in plain
 * words and ends with the next step, instead of "unexpected error: No space left on device (os
 * error 28)" or the class name of the error ("(Error)").
 *
 * `ioReason` gives the reason alone (for a message that already names the file), `ioErrorLine` the
 * whole line; `ioError` (core/errors.ts) the `AssistError` to throw, and `describeError` there uses
 * the same words for any such error that reaches a front unwrapped. Pure: no imports.
 *
 * @module
 */
/** What kind of file-system trouble an error is, when it is one an operator can fix. */
export type IoFault = "disk_full" | "read_only" | "denied";

/** The OS codes behind each fault (POSIX names; Deno gives Windows' disk-full errors the same code). */
const CODES: Record<string, IoFault> = {
  ENOSPC: "disk_full",
  EDQUOT: "disk_full",
  EROFS: "read_only",
  EACCES: "denied",
  EPERM: "denied",
};

/** The OS error numbers, for an error that lost its code but kept Deno's "(os error N)". */
const NUMBERS: Record<string, IoFault> = {
  "28": "disk_full", // ENOSPC
  "122": "disk_full", // EDQUOT (Linux)
  "112": "disk_full", // ERROR_DISK_FULL (Windows)
  "39": "disk_full", // ERROR_HANDLE_DISK_FULL (Windows)
  "30": "read_only", // EROFS
};

/**
 * The fault an error stands for, or undefined for any other error.
 *
 * @example
 * ```ts
 * ioFault(Object.assign(new Error("No space left on device (os error 28)"), { code: "ENOSPC" })); // "disk_full"
 * ioFault(new TypeError("x")); // undefined
 * ```
 */
export function ioFault(err: unknown): IoFault | undefined {
  if (err instanceof Deno.errors.PermissionDenied) return "denied";
  if (!(err instanceof Error)) return undefined;
  const code = (err as { code?: unknown }).code;
  if (typeof code === "string" && Object.hasOwn(CODES, code)) return CODES[code];
  const n = /\(os error (\d+)\)/.exec(err.message)?.[1];
  return n !== undefined && Object.hasOwn(NUMBERS, n) ? NUMBERS[n] : undefined;
}

/**
 * Why a file could not be read or written, in plain words: "the disk is full", "the file system is
 * read-only", "permission denied", else the system's own message without its "(os error N)" and
 * without the path Deno appends (the caller names the file).
 *
 * @example
 * ```ts
 * ioReason(Object.assign(new Error("Read-only file system (os error 30): open '/x'"), { code: "EROFS" }));
 * // "the file system is read-only"
 * ioReason(new Error("Is a directory (os error 21): open '/x'")); // "is a directory"
 * ```
 */
export function ioReason(err: unknown): string {
  switch (ioFault(err)) {
    case "disk_full":
      return "the disk is full";
    case "read_only":
      return "the file system is read-only";
    case "denied":
      return "permission denied";
  }
  const message = err instanceof Error ? err.message : String(err);
  const plain = message
    .replace(/:\s*\w+ '[^']*'(?: -> '[^']*')?\s*$/, "") // Deno's ": open '/path'" tail
    .replace(/\s*\(os error \d+\)/, "")
    .trim();
  if (plain === "") return err instanceof Error ? err.name : "unknown error";
  return plain.charAt(0).toLowerCase() + plain.slice(1);
}

/** The file an error names (Deno's `: open '/path'` tail), if any. */
function pathOf(err: unknown): string | undefined {
  const m = err instanceof Error ? /:\s*\w+ '([^']*)'(?: -> '[^']*')?\s*$/.exec(err.message) : null;
  return m?.[1];
}

export interface IoErrorOptions {
  /** What failed, as a verb: "write" or "read". @default "write" */
  action?: "write" | "read";
  /**
   * The next step after the fix, in the caller's form (e.g. "run assist ssh add h1 u@h again").
   * @default "try again"
   */
  retry?: string;
  /** The file lives under $ASSIST_HOME: a read-only one can also be moved with ASSIST_HOME. */
  inHome?: boolean;
}

/**
 * The operator's line for a failed read or write of `path`.
 *
 * @example
 * ```ts
 * const full = Object.assign(new Error("No space left on device (os error 28)"), { code: "ENOSPC" });
 * ioErrorLine(full, "/home/op/.assist/.ssh-hosts.tsv", { retry: "run assist ssh add h1 u@h again" });
 * // "cannot write /home/op/.assist/.ssh-hosts.tsv: the disk is full
 * //  (free space on it, then run assist ssh add h1 u@h again)"
 * ```
 */
export function ioErrorLine(err: unknown, path = pathOf(err), options: IoErrorOptions = {}): string {
  const action = options.action ?? "write";
  const retry = options.retry ?? "try again";
  const head = path ? `cannot ${action} ${path}` : `cannot ${action} a file`;
  const reason = ioReason(err);
  switch (ioFault(err)) {
    case "disk_full":
      return `${head}: ${reason} (free space on it, then ${retry})`;
    case "read_only":
      return `${head}: ${reason} (${
        options.inHome ? "make it writable or set ASSIST_HOME to a writable folder" : "make it writable"
      }, then ${retry})`;
    case "denied":
      return `${head}: ${reason} (check the owner and mode of the file and its folder, then ${retry})`;
  }
  return `${head}: ${reason}`;
}
