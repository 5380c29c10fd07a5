/**
 * `assist ssh <op> ...`: the command-line form of the REPL's `/ssh-*` commands, for scripts and
 * locked-down jump boxes. Output goes to stdout; a failure is one line on stderr (exit 1), bad usage
 * exit 2. `pass` reads the password with a hidden prompt on a terminal, else the first line of
 * standard input; it is never an argument, never echoed, never in history.
 */
import { lazy } from "../core/lazy.ts";
import { AssistError, EXIT } from "../core/errors.ts";
import { loadConfig } from "../core/config.ts";
import { ensureHome } from "../core/home.ts";
import { readSecret } from "../core/secret_input.ts";

export const SSH_USAGE = [
  "usage: assist ssh <op> [args]",
  "  hosts                          list aliases",
  "  add <alias> <user@host[:port]> register a host",
  "  remove <alias>                 remove host, credential and socket",
  "  pass <alias>                   store the password (hidden prompt; stdin when not a terminal)",
  "  setup <alias>                  open the control master (direct mode: check the connection)",
  "  close <alias>                  close the control master",
  "  status [alias]                 masters and credential presence",
  "  set-hciroot <alias> <path>     pin the engine root (an empty path clears the pin)",
  "  set-direct <alias>             direct mode: one authenticated connection per command",
  "  set-multiplex <alias>          back from direct mode to the control master",
  "  forget-hostkey <alias>         drop the recorded host key (after a deliberate re-key)",
].join("\n");

/** Arity of each operation: [required, optional]. */
const ARITY: Record<string, [number, number]> = {
  hosts: [0, 0],
  add: [2, 0],
  remove: [1, 0],
  pass: [1, 0],
  setup: [1, 0],
  close: [1, 0],
  status: [0, 1],
  "set-hciroot": [1, 1],
  "set-direct": [1, 0],
  "set-multiplex": [1, 0],
  "forget-hostkey": [1, 0],
};

function usage(message: string): AssistError {
  return new AssistError(`${message} (see \`assist ssh --help\`)`, { level: "usage" });
}

export async function runSsh(args: string[]): Promise<number> {
  const [op, ...rest] = args;
  if (op === undefined || op === "--help" || op === "-h" || op === "help") {
    console.log(SSH_USAGE);
    return op === undefined ? EXIT.usage : EXIT.ok;
  }
  const arity = ARITY[op];
  if (!arity) throw usage(`unknown ssh operation: ${op}`);
  const [need, optional] = arity;
  if (rest.length < need) throw usage(`ssh ${op}: missing argument`);
  if (rest.length > need + optional) throw usage(`ssh ${op}: unexpected argument "${rest[need + optional]}"`);
  const config = loadConfig();
  await ensureHome(config.home);
  const home = config.home;
  const ops = await lazy<typeof import("../ssh/mod.ts")>(import.meta.url, "../ssh/mod.ts");
  let text: string;
  switch (op) {
    case "hosts":
      text = await ops.hostsText(home);
      break;
    case "add":
      text = await ops.addHost(home, rest[0], rest[1]);
      break;
    case "remove":
      text = await ops.removeHost(home, rest[0]);
      break;
    case "pass": {
      await ops.getHost(home, rest[0]); // an unknown alias fails before the prompt
      const secret = await readSecret(`password for ${rest[0]} (input hidden): `);
      text = await ops.setPassword(home, rest[0], secret);
      break;
    }
    case "setup":
      text = await ops.setup(home, rest[0]);
      break;
    case "close":
      text = await ops.closeMaster(home, rest[0]);
      break;
    case "status":
      text = await ops.statusText(home, rest[0]);
      break;
    case "set-hciroot":
      text = await ops.setHciroot(home, rest[0], rest[1] ?? "");
      break;
    case "set-direct":
      text = await ops.setDirect(home, rest[0]);
      break;
    case "set-multiplex":
      text = await ops.setMultiplex(home, rest[0]);
      break;
    case "forget-hostkey":
      text = await ops.forgetHostkey(home, rest[0]);
      break;
    default:
      throw usage(`unknown ssh operation: ${op}`);
  }
  console.log(text);
  return EXIT.ok;
}
