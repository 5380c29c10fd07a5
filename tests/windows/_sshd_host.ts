/**
 * The Linux side of the Windows job's SSH check (.ci/windows.sh): a real sshd on 127.0.0.1 with a
 * throwaway user (tests/support/sshd.ts), described in the file named by the first argument
 * (`{ target, password, hciroot }`, 0600), until standard input closes; then everything is removed.
 * Wine's programs share this machine's loopback, so Deno's Windows build reaches it.
 */
import { Sshd } from "../support/sshd.ts";

const out = Deno.args[0];
if (!out) {
  console.error("usage: _sshd_host.ts <info-file>");
  Deno.exit(2);
}
await using sshd = await Sshd.start({}, "plain");
await Deno.writeTextFile(
  out,
  JSON.stringify({ target: sshd.target, password: sshd.password, hciroot: sshd.hciroot }) + "\n",
  { mode: 0o600 },
);
console.log("ready");
// Until the job closes our standard input.
for await (const _ of Deno.stdin.readable) { /* nothing to read */ }
await Deno.remove(out).catch(() => {});
