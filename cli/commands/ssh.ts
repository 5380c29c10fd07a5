/**
 * SSH commands: `/ssh-*` in the REPL, `assist ssh <op>` on the command line (for scripts and
 * locked-down jump boxes), and `/ssh <alias> <command...>`, which runs through the ssh_exec tool
 * with its output shown to the operator only. The password is read with a hidden prompt (on the
 * command line, the first line of standard input when it is not a terminal); it is never an
 * argument, never echoed, never in history.
 *
 * @module
 */
import { lazy } from "../../core/lazy.ts";
import type { Command, CommandContext } from "./types.ts";
import { hinter, home } from "./_util.ts";

type Ops = typeof import("../../ssh/ops.ts");
const ops = () => lazy<typeof import("../../ssh/ops.ts")>(import.meta.url, "../../ssh/ops.ts");

/** A `/ssh-<op>` command whose body is one ssh/ops.ts call returning the text to show. */
function op(
  name: string,
  args: string,
  summary: string,
  arity: [number, number],
  call: (o: Ops, home: string, args: string[], ctx: CommandContext) => Promise<string>,
  extra: Partial<Command> = {},
): Command {
  return {
    name: `ssh-${name}`,
    cli: ["ssh", name],
    args,
    summary,
    group: "ssh",
    minArgs: arity[0],
    maxArgs: arity[1],
    ...extra,
    async run(a, ctx) {
      ctx.io.out(await call(await ops(), await home(ctx), a, ctx));
    },
  };
}

export const SSH_COMMANDS: readonly Command[] = [
  op("hosts", "", "list aliases", [0, 0], async (o, h, _a, ctx) => o.hostsText(h, await hinter(ctx))),
  op(
    "add",
    "<alias> <user@host[:port]>",
    "register a host",
    [2, 2],
    async (o, h, a, ctx) => o.addHost(h, a[0], a[1], await hinter(ctx)),
    { noHistory: true },
  ),
  op(
    "remove",
    "<alias>",
    "remove host, credential and socket",
    [1, 1],
    async (o, h, a, ctx) => o.removeHost(h, a[0], await hinter(ctx)),
  ),
  op(
    "pass",
    "<alias>",
    "store the password (hidden prompt; stdin when not a terminal)",
    [1, 1],
    async (o, h, a, ctx) => {
      const hint = await hinter(ctx);
      const { getHost } = await lazy<typeof import("../../ssh/registry.ts")>(
        import.meta.url,
        "../../ssh/registry.ts",
      );
      await getHost(h, a[0], hint); // an unknown alias fails before the prompt
      const secret = await ctx.io.readSecret(`password for ${a[0]} (input hidden): `);
      return o.setPassword(h, a[0], secret, hint);
    },
    { noHistory: true },
  ),
  op(
    "setup",
    "<alias>",
    "open the control master (direct mode: check the connection)",
    [1, 1],
    async (o, h, a, ctx) => o.setup(h, a[0], await hinter(ctx)),
  ),
  op(
    "close",
    "<alias>",
    "close the control master",
    [1, 1],
    async (o, h, a, ctx) => o.closeMaster(h, a[0], await hinter(ctx)),
  ),
  op(
    "status",
    "[alias]",
    "masters and credential presence",
    [0, 1],
    async (o, h, a, ctx) => o.statusText(h, a[0], await hinter(ctx)),
  ),
  op(
    "set-hciroot",
    "<alias> <path>",
    "pin the engine root (an empty or absent path clears the pin)",
    [1, 2],
    async (o, h, a, ctx) => o.setHciroot(h, a[0], a[1] ?? "", await hinter(ctx)),
  ),
  op(
    "set-direct",
    "<alias>",
    "direct mode: one authenticated connection per command",
    [1, 1],
    async (o, h, a, ctx) => o.setDirect(h, a[0], await hinter(ctx)),
  ),
  op(
    "set-multiplex",
    "<alias>",
    "back from direct mode to the control master",
    [1, 1],
    async (o, h, a, ctx) => o.setMultiplex(h, a[0], await hinter(ctx)),
  ),
  op(
    "forget-hostkey",
    "<alias>",
    "drop the recorded host key (after a deliberate re-key)",
    [1, 1],
    async (o, h, a, ctx) => o.forgetHostkey(h, a[0], await hinter(ctx)),
  ),
  {
    name: "ssh",
    args: "<alias> <command...>",
    summary: "run a command on the host (output shown to you only, not to the model)",
    group: "ssh",
    minArgs: 2,
    maxArgs: 2,
    rawTail: true,
    async run(a, ctx) {
      const { runTool } = await lazy<typeof import("./_tool.ts")>(import.meta.url, "./_tool.ts");
      return await runTool("ssh_exec", { alias: a[0], command: a[1] }, ctx);
    },
  },
];
