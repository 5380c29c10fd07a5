/**
 * Which NetConfig keys hold keyed lists and which hold lists of keyed lists. Tcl keyed lists carry
 * no type information (`{ PORT 5001 }` and `{ PROTOCOL { {PORT 5001} } }` look alike), so Infor's own
 * writer marks them ("subkeys" and "sublists" in nci.tlib's `_nfData`); this is that table
 * (research/cloverleaf.md 1.4), with the TPS blocks it implies, and `EDIBATCH` as a real 20.1 file
 * writes it (`IN_DATA`, `OUT_DATA` and its `TRIGGER`, each a keyed list). Every other key is a
 * scalar: a Tcl word or list kept as written. Unknown keys are scalars too, and are kept; one the
 * writer laid out over several lines as a keyed list is shown and compared key by key all the same
 * (see `structuredScalar`).
 *
 * @module
 */

/** The shape of a value. */
export type Shape =
  | { kind: "scalar" }
  | { kind: "kl"; fields: Readonly<Record<string, Shape>> }
  | { kind: "list"; item: Shape };

export const SCALAR: Shape = { kind: "scalar" };

/** A keyed list whose named fields have shapes (others are scalars). */
export function kl(fields: Record<string, Shape> = {}): Shape {
  // No prototype: a key such as "constructor" must not find anything.
  return { kind: "kl", fields: Object.freeze(Object.assign(Object.create(null), fields)) };
}

/** A list of keyed lists. */
export function listOf(item: Shape): Shape {
  return { kind: "list", item };
}

/** A TPS block: `{ {ARGS ...} {PROCS ...} {PROCSCONTROL ...} }`, three parallel scalar lists. */
const TPS = kl();

const ROUTE_DETAIL = kl({ PROCS: TPS, PREPROCS: TPS, POSTPROCS: TPS });
const ROUTE = kl({ ROUTE_DETAILS: listOf(ROUTE_DETAIL) });
const SEND_CTRL = kl({ FAILPROCS: TPS, OKPROCS: TPS, PREWRITEPROCS: TPS });

/** `protocol <thread> {...}`. */
export const PROTOCOL_SHAPE: Shape = kl({
  DATAFORMAT: kl({ OFFLEN: kl() }),
  DATAXLATE: listOf(ROUTE),
  // EDI batching (20.1: every thread has it, values empty unless batching is set up).
  EDIBATCH: kl({ IN_DATA: kl(), OUT_DATA: kl({ TRIGGER: kl() }) }),
  ERRDBTPS: kl({ ERRTPSPROCS: TPS }),
  PROTOCOL: kl({ IBDEL: kl(), IBDIRPARSE: TPS, READTPS: TPS, WRITETPS: TPS, OB_ACTION: kl() }),
  RECVCONTROL: kl({ ACKCONTROL: TPS }),
  REPLYCONTROL: kl({ REPLYGEN: kl({ PROCS: TPS }) }),
  REPLYFORMAT: kl({ OFFLEN: kl() }),
  REPLYXLATE: listOf(ROUTE),
  SAVEMSGS: kl(),
  SENDDATACTRL: SEND_CTRL,
  SENDREPLYCTRL: SEND_CTRL,
  SMS: kl({
    FWD_DATA: TPS,
    FWD_REPLY: TPS,
    IN_DATA: TPS,
    IN_REPLY: TPS,
    OUT_DATA: TPS,
    OUT_REPLY: TPS,
  }),
  STARTPROCS: TPS,
  STOPPROCS: TPS,
});

/** `process <name> {...}`. */
export const PROCESS_SHAPE: Shape = kl({
  ERRDBTPS: kl({ ERRTPSPROCS: TPS }),
  XLATE: kl(),
});

/** `destination <name> {...}` (inter-site destination: HOST, PORT and what else the IDE writes). */
export const DESTINATION_SHAPE: Shape = kl();

/** The shape of an entry's configuration by entry type; unknown types are kept as scalars. */
export function entryShape(type: string): Shape {
  switch (type) {
    case "protocol":
      return PROTOCOL_SHAPE;
    case "process":
      return PROCESS_SHAPE;
    case "destination":
      return DESTINATION_SHAPE;
    default:
      return SCALAR;
  }
}

/**
 * Keys that only change how the IDE draws a thread (position and icon); `nc_diff_interface` leaves
 * them out unless asked.
 */
export const COSMETIC_KEYS: ReadonlySet<string> = new Set(["COORDS", "BITMAP"]);
