/**
 * SSH to engine hosts: the public face of `ssh/` for the REPL's slash commands, the tools and the
 * engine layer. Import it dynamically from anything that must start fast; a client of a master
 * never loads ssh2 (only direct mode and the master itself do, through ./connection.ts).
 *
 * - Operations behind `assist ssh <op>` and `/ssh-*`: {@link hostsText}, {@link addHost},
 *   {@link removeHost}, {@link setPassword}, {@link setup}, {@link closeMaster}, {@link statusText},
 *   {@link statusOf}, {@link setHciroot}, {@link setDirect}, {@link setMultiplex}, {@link forgetHostkey}.
 * - Reaching a host: {@link openRemote} gives a {@link Remote} (exec, stat, list, readRange, pull,
 *   push) over the master, or a direct connection for an alias in direct mode.
 * - Remote commands: {@link wrapCommand} (login shell, `NOLOGIN`, ASSIST_SSH_NO_LOGIN, the pin),
 *   {@link filterNoise}.
 * - Transfers: {@link pullToFile}, {@link pushFromFile}, {@link cacheFileFor} (the pull cache),
 *   {@link resolveRemotePath}.
 * - SMAT on the host: {@link resolveScript}, {@link sampleScript} and their output parsers.
 * - Failures: {@link SshError} with a {@link SshErrorKind}; {@link masterClosedMessage} is the spec's
 *   "open the master with /ssh-setup <alias> first".
 *
 * Outside ssh/, import from here only (tools/ and cli/ do). The one exception is the master
 * process itself, `assist internal ssh-master`, which main.ts starts through ssh/master.ts: it loads
 * ssh2, which this face must never load.
 *
 * @example
 * ```ts
 * import { openRemote, wrapCommand } from "./mod.ts";
 * import { loadConfig } from "../core/config.ts";
 * const { remote, options } = await openRemote(loadConfig().home, "eng1");
 * const r = await remote.exec(wrapCommand("hcisitectl", { noLogin: false, hciroot: options.hciroot }).command);
 * ```
 *
 * @module
 */
export {
  addHost,
  type AliasStatus,
  closeMaster,
  forgetHostkey,
  hostsText,
  removeHost,
  setDirect,
  setHciroot,
  setMultiplex,
  setPassword,
  setup,
  statusOf,
  statusText,
} from "./ops.ts";
export { type OpenedRemote, openRemote } from "./open.ts";
export type {
  ExecOptions,
  ExecResult,
  PullOptions,
  PullSink,
  PushSource,
  Remote,
  RemoteEntry,
  RemoteStat,
  TransferResult,
} from "./remote.ts";
export { filterNoise, shQuote, wrapCommand, type WrapHow, type Wrapped } from "./wrap.ts";
export { cacheFileFor, pullToFile, pushFromFile, remoteHciroot, resolveRemotePath } from "./transfer.ts";
export { safeBasename } from "./paths.ts";
export {
  parseSampleOutput,
  pickSmatdbPath,
  resolveError,
  resolveScript,
  rowsToTsv,
  SAMPLE_LIMIT,
  sampleScript,
  TSV_COLUMNS,
} from "./smat.ts";
export { masterClosedMessage, SshError, type SshErrorKind } from "./errors.ts";
export {
  checkAlias,
  describeTarget,
  getHost,
  type Host,
  type HostOptions,
  parseTarget,
  readHosts,
  readOptions,
} from "./registry.ts";
export { hasCredential } from "./creds.ts";
export { runMaster } from "./master.ts";
