/**
 * SSH failures as one error type with a `kind` callers act on (ssh2 style: the level of a failure is
 * data, not something to parse out of a message). Tools turn it into a structured tool error whose
 * `error` field is the kind; the command line prints the message. Messages are one sentence with the
 * next step, and never hold the password: they are built here from our own words and the host name.
 *
 * @module
 */
import { AssistError, type ErrorLevel } from "../core/errors.ts";

export type SshErrorKind =
  /** The alias is not in the registry. */
  | "unknown_alias"
  /** No stored password for the alias. */
  | "no_credential"
  /** Multiplexed alias whose master is not running (spec: "open the master with /ssh-setup <alias> first"). */
  | "master_closed"
  /** The host refused the stored password. */
  | "auth_failed"
  /** The host presented a key other than the one recorded on first use. */
  | "host_key_changed"
  /** The host could not be reached (refused, no route, DNS). */
  | "unreachable"
  /** Connecting or a request took longer than allowed. */
  | "timeout"
  /** The connection dropped while a request was running. */
  | "connection_lost"
  /** A transfer ended with fewer (or more) bytes than the file holds. */
  | "partial_transfer"
  | "not_found"
  | "permission_denied"
  | "is_directory"
  /** The master's socket spoke something unexpected. */
  | "protocol"
  | "cancelled"
  | "io_error";

const LEVELS: Record<SshErrorKind, ErrorLevel> = {
  // An alias that names nothing is a usage error (exit 2), as an unknown site or thread is.
  unknown_alias: "usage",
  no_credential: "input",
  master_closed: "refused",
  auth_failed: "refused",
  host_key_changed: "refused",
  unreachable: "network",
  timeout: "network",
  connection_lost: "network",
  partial_transfer: "network",
  not_found: "input",
  permission_denied: "refused",
  is_directory: "input",
  protocol: "internal",
  cancelled: "internal",
  io_error: "io",
};

export class SshError extends AssistError {
  readonly kind: SshErrorKind;
  /** Extra facts for the structured tool error (never secrets). */
  readonly extra: Record<string, unknown>;
  constructor(kind: SshErrorKind, message: string, extra: Record<string, unknown> = {}, cause?: unknown) {
    super(message, { level: LEVELS[kind], cause });
    this.name = "SshError";
    this.kind = kind;
    this.extra = extra;
  }
}

/**
 * The spec's exact text for a multiplexed alias whose master is closed.
 *
 * @example
 * ```ts
 * masterClosedMessage("eng1"); // "open the master with /ssh-setup eng1 first"
 * ```
 */
export function masterClosedMessage(alias: string): string {
  return `open the master with /ssh-setup ${alias} first`;
}

export function masterClosed(alias: string, reason?: string): SshError {
  return new SshError("master_closed", masterClosedMessage(alias), reason ? { alias, reason } : { alias });
}

/** Rebuilds an SshError from its wire form (the master sends kind + message). */
export function fromWire(e: { kind?: unknown; message?: unknown; extra?: unknown }): SshError {
  const kind = typeof e.kind === "string" && e.kind in LEVELS ? e.kind as SshErrorKind : "protocol";
  const message = typeof e.message === "string" ? e.message : "the SSH master sent an unreadable error";
  const extra = e.extra && typeof e.extra === "object" ? e.extra as Record<string, unknown> : {};
  return new SshError(kind, message, extra);
}

/** The wire form of any thrown value. */
export function toWire(
  err: unknown,
): { kind: SshErrorKind; message: string; extra: Record<string, unknown> } {
  if (err instanceof SshError) return { kind: err.kind, message: err.message, extra: err.extra };
  const message = err instanceof Error ? err.message : String(err);
  return { kind: "io_error", message: `unexpected SSH failure: ${message}`, extra: {} };
}
