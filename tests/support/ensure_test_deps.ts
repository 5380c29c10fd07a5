/**
 * Run by `deno task test` before the suites, so the README's test command does all of its own
 * set-up on a fresh machine: the SSH suite needs a real OpenSSH sshd and a fake engine host whose
 * SQLite readers are sqlite3, python3 and Tcl with its sqlite package, and creates a throwaway user
 * (useradd, root); the REPL suite needs tmux. Missing pieces are installed with apt-get when we are root; otherwise the reason
 * is printed and the run fails: the SSH suite is never skipped.
 */

const PACKAGES = [
  "openssh-server",
  "openssh-client",
  "python3",
  "sqlite3",
  "tcl",
  "libsqlite3-tcl",
  "passwd",
  "tmux",
];

async function ok(cmd: string, args: string[], stdin?: string): Promise<boolean> {
  try {
    const child = new Deno.Command(cmd, {
      args,
      stdin: stdin ? "piped" : "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
    if (stdin) {
      const w = child.stdin.getWriter();
      await w.write(new TextEncoder().encode(stdin));
      await w.close();
    }
    return (await child.status).success;
  } catch {
    return false;
  }
}

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

/** What is missing, by a readable name. */
export async function missing(): Promise<string[]> {
  const checks: Array<[string, () => Promise<boolean>]> = [
    ["sshd", () => exists("/usr/sbin/sshd")],
    ["ssh-keygen", () => exists("/usr/bin/ssh-keygen")],
    ["scp", () => exists("/usr/bin/scp")],
    ["python3", () => ok("python3", ["--version"])],
    ["sqlite3", () => ok("sqlite3", ["--version"])],
    ["useradd", () => exists("/usr/sbin/useradd")],
    ["tclsh with sqlite3", () => ok("tclsh", [], "package require sqlite3\n")],
    // The REPL suite (tests/cli/repl/tmux_*.test.ts) drives the program in a real terminal.
    ["tmux", () => ok("tmux", ["-V"])],
  ];
  const out: string[] = [];
  for (const [name, check] of checks) if (!(await check())) out.push(name);
  return out;
}

if (import.meta.main) {
  if (Deno.build.os !== "linux") {
    console.error(
      "tests: the SSH suite needs Linux (a real sshd and a throwaway user); run the tests on Linux",
    );
    Deno.exit(1);
  }
  let lacking = await missing();
  if (lacking.length > 0) {
    if (Deno.uid() !== 0) {
      console.error(
        `tests: missing ${lacking.join(", ")}; run as root or install: apt-get install ${PACKAGES.join(" ")}`,
      );
      Deno.exit(1);
    }
    console.error(`tests: installing ${PACKAGES.join(" ")} (missing: ${lacking.join(", ")})`);
    const env = { DEBIAN_FRONTEND: "noninteractive" };
    const update = await new Deno.Command("apt-get", { args: ["update", "-qq"], env, stdout: "null" })
      .output();
    const install = update.success &&
      (await new Deno.Command("apt-get", { args: ["install", "-y", "-qq", ...PACKAGES], env, stdout: "null" })
        .output()).success;
    lacking = await missing();
    if (!install || lacking.length > 0) {
      console.error(`tests: could not install ${lacking.join(", ") || PACKAGES.join(" ")} with apt-get`);
      Deno.exit(1);
    }
  }
}
