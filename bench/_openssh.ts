/**
 * OpenSSH's own multiplexing, the yardstick of the SSH benches' whole-process rows (ssh_exec.bench.ts:
 * `ssh -S`, ssh_pull.bench.ts: scp): client options for the test sshd, and a ControlMaster opened
 * and closed the way an operator would.
 */
import type { Sshd } from "../tests/support/sshd.ts";

/** `ssh`/`scp` options for the test sshd with a client key: no host-key prompt, no noise, no password. */
export function opensshOptions(key: string): string[] {
  return [
    "-i",
    key,
    "-o",
    "StrictHostKeyChecking=no",
    "-o",
    "UserKnownHostsFile=/dev/null",
    "-o",
    "LogLevel=ERROR",
    "-o",
    "BatchMode=yes",
  ];
}

/**
 * An OpenSSH ControlMaster to `sshd` (on `port`: its own, or a relay's) at the socket `control`;
 * its pid, or 0 when `ssh -O check` does not say.
 */
export async function openControlMaster(
  sshd: Sshd,
  key: string,
  control: string,
  port = sshd.port,
): Promise<number> {
  const cm = await new Deno.Command("ssh", {
    args: [
      ...opensshOptions(key),
      "-o",
      "ControlMaster=yes",
      "-o",
      `ControlPath=${control}`,
      "-o",
      "ControlPersist=yes",
      "-fN",
      "-p",
      String(port),
      `${sshd.user}@127.0.0.1`,
    ],
    stdin: "null",
  }).output();
  if (!cm.success) throw new Error("cannot open the OpenSSH ControlMaster for the baseline");
  const check = await new Deno.Command("ssh", { args: ["-o", `ControlPath=${control}`, "-O", "check", "x"] })
    .output();
  return Number(new TextDecoder().decode(check.stderr).match(/pid=(\d+)/)?.[1] ?? 0);
}

/** Closes the ControlMaster at `control` (for an unload handler: synchronous, quiet). */
export function closeControlMasterSync(control: string): void {
  new Deno.Command("ssh", {
    args: ["-o", `ControlPath=${control}`, "-O", "exit", "x"],
    stderr: "null",
    stdout: "null",
  }).outputSync();
}
