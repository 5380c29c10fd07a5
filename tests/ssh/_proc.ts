/**
 * Process facts from /proc for the tests. Deno refuses /proc without --allow-all, and the test
 * permission set does not grant that, so a small python3 helper reads it (python3 is on the test
 * machine: .ci/run installs it). A secret to look for is given on the helper's stdin, never in its
 * argv or environment (which would put it into /proc itself).
 */

/** The python3 helper (also run synchronously by tests/support/sshd.ts disposeSync). */
export const PROC_HELPER = String.raw`
import os, sys, time, threading

def pids():
    return [int(p) for p in os.listdir('/proc') if p.isdigit()]

def read(pid, name):
    try:
        with open('/proc/%d/%s' % (pid, name), 'rb') as f:
            return f.read()
    except Exception:
        return None

mode = sys.argv[1]
if mode == 'tree':
    root = int(sys.argv[2])
    children = {}
    for p in pids():
        st = read(p, 'stat')
        if st is None:
            continue
        ppid = int(st[st.rindex(b')') + 2:].split()[1])
        children.setdefault(ppid, []).append(p)
    out, stack = [], [root]
    while stack:
        for c in children.get(stack.pop(), []):
            out.append(c)
            stack.append(c)
    print(' '.join(map(str, out)))
elif mode == 'uid':
    uid = sys.argv[2]
    out = []
    for p in pids():
        st = read(p, 'status')
        if st and any(l.startswith(b'Uid:') and l.split()[1] == uid.encode() for l in st.splitlines()):
            out.append(p)
    print(' '.join(map(str, out)))
elif mode == 'cpu':
    tick = os.sysconf('SC_CLK_TCK')
    out = []
    for a in sys.argv[2:]:
        st = read(int(a), 'stat')
        f = st[st.rindex(b')') + 2:].split() if st else None
        out.append(str((int(f[11]) + int(f[12])) * 1000 // tick) if f else '-1')
    print(' '.join(out))
elif mode == 'alive':
    st = read(int(sys.argv[2]), 'stat')
    print('yes' if st is not None and st[st.rindex(b')') + 2:st.rindex(b')') + 3] != b'Z' else 'no')
elif mode == 'watch':
    secret = sys.stdin.buffer.readline().rstrip(b'\n')
    done = threading.Event()
    def wait_eof():
        sys.stdin.buffer.read()
        done.set()
    threading.Thread(target=wait_eof, daemon=True).start()
    me = os.getpid()
    seen, scans, hits = set(), 0, set()
    while True:
        for p in pids():
            if p == me:
                continue
            cmd = read(p, 'cmdline')
            env = read(p, 'environ')
            if cmd is None:
                continue
            seen.add(p)
            if secret in cmd or (env is not None and secret in env):
                key = (p, cmd)
                if key not in hits:
                    hits.add(key)
                    sys.stdout.write('HIT %d %s\n' % (p, cmd.split(b'\0')[0].decode('utf-8', 'replace')))
                    sys.stdout.flush()
        scans += 1
        if done.is_set():
            break
        time.sleep(0.02)
    sys.stdout.write('SCANS %d PIDS %d\n' % (scans, len(seen)))
    sys.stdout.write('SEEN %s\n' % ' '.join(map(str, sorted(seen))))
`;

async function helper(args: string[]): Promise<string> {
  const out = await new Deno.Command("python3", {
    args: ["-c", PROC_HELPER, ...args],
    stdout: "piped",
    stderr: "piped",
  })
    .output();
  if (out.code !== 0) throw new Error(`proc helper failed: ${new TextDecoder().decode(out.stderr)}`);
  return new TextDecoder().decode(out.stdout).trim();
}

/** Every descendant pid of `pid`. */
export async function descendants(pid: number): Promise<number[]> {
  const t = await helper(["tree", String(pid)]);
  return t === "" ? [] : t.split(" ").map(Number);
}

/** CPU time (user + system, ms, at clock-tick resolution) of a process; -1 when it is gone. */
export async function cpuTimeMs(pid: number): Promise<number> {
  return Number(await helper(["cpu", String(pid)]));
}

/** Pids running with real uid `uid`. */
export async function pidsOfUid(uid: string): Promise<number[]> {
  const t = await helper(["uid", uid]);
  return t === "" ? [] : t.split(" ").map(Number);
}

/** Whether a process exists and is not a zombie. */
export async function alive(pid: number): Promise<boolean> {
  return (await helper(["alive", String(pid)])) === "yes";
}

/**
 * Scans every process on the machine (every ~20 ms) for a secret in /proc/<pid>/cmdline and
 * /proc/<pid>/environ until stopped; reports hits and how much it looked at.
 */
export class SecretWatch {
  #child: Deno.ChildProcess;
  #writer: WritableStreamDefaultWriter<Uint8Array>;
  #output: Promise<string>;
  constructor(secret: string) {
    this.#child = new Deno.Command("python3", {
      args: ["-c", PROC_HELPER, "watch"],
      stdin: "piped",
      stdout: "piped",
      stderr: "null",
    }).spawn();
    this.#writer = this.#child.stdin.getWriter();
    this.#writer.write(new TextEncoder().encode(secret + "\n"));
    this.#output = new Response(this.#child.stdout).text();
  }
  /** Stops the watch: the hit lines, the number of scans and distinct pids looked at. */
  async stop(): Promise<{ hits: string[]; scans: number; pids: number; seen: Set<number> }> {
    await this.#writer.close().catch(() => {});
    const text = await this.#output;
    await this.#child.status;
    const hits = text.split("\n").filter((l) => l.startsWith("HIT "));
    const m = text.match(/SCANS (\d+) PIDS (\d+)/);
    const seenLine = text.split("\n").find((l) => l.startsWith("SEEN ")) ?? "SEEN ";
    const seen = new Set(seenLine.slice(5).split(" ").filter((x) => x !== "").map(Number));
    return { hits, scans: m ? Number(m[1]) : 0, pids: m ? Number(m[2]) : 0, seen };
  }
}
