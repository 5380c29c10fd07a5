/**
 * The binary swap. The Windows logic runs here through an injected file system that behaves like
 * Windows: a running exe can be renamed but not replaced or deleted, and a rename can fail for a
 * while (an antivirus scan). The Unix swap runs on the real file system, and is SIGKILLed at each
 * of its steps in a child process.
 */
import { deepStrictEqual as assertEquals, match, ok as assert, rejects } from "node:assert/strict";
import { swapBinary, type SwapFs } from "../../update/swap.ts";
import { launchSync } from "../../update/launch.ts";
import { tempDir } from "../support/run_assist.ts";

class WinFs implements SwapFs {
  files = new Map<string, string>();
  running = new Set<string>();
  sleeps: number[] = [];
  /** Fails the next n renames onto this target with a sharing violation. */
  failInto = new Map<string, number>();
  /** Renames from these sources always fail. */
  stuck = new Set<string>();
  rename(from: string, to: string): Promise<void> {
    const n = this.failInto.get(to) ?? 0;
    if (n > 0) {
      this.failInto.set(to, n - 1);
      return Promise.reject(new Deno.errors.PermissionDenied("Access is denied. (os error 5)"));
    }
    if (this.stuck.has(from)) return Promise.reject(new Deno.errors.PermissionDenied("(os error 5)"));
    if (!this.files.has(from)) return Promise.reject(new Deno.errors.NotFound(from));
    if (this.files.has(to) && this.running.has(to)) {
      return Promise.reject(new Deno.errors.PermissionDenied("Access is denied. (os error 5)"));
    }
    this.files.set(to, this.files.get(from)!);
    this.files.delete(from);
    if (this.running.delete(from)) this.running.add(to); // the image follows its file
    return Promise.resolve();
  }
  link(): Promise<void> {
    return Promise.reject(new Error("not used on Windows"));
  }
  copyFile(from: string, to: string): Promise<void> {
    this.files.set(to, this.files.get(from)!);
    return Promise.resolve();
  }
  remove(p: string): Promise<void> {
    if (this.running.has(p)) return Promise.reject(new Deno.errors.PermissionDenied("in use (os error 32)"));
    this.files.delete(p);
    return Promise.resolve();
  }
  exists(p: string): Promise<boolean> {
    return Promise.resolve(this.files.has(p));
  }
  readDir(dir: string): Promise<string[]> {
    return Promise.resolve(
      [...this.files.keys()].filter((p) => p.startsWith(dir + "\\")).map((p) => p.slice(dir.length + 1)),
    );
  }
  syncDir(): Promise<void> {
    return Promise.resolve();
  }
  sleep(ms: number): Promise<void> {
    this.sleeps.push(ms);
    return Promise.resolve();
  }
}

const EXE = "C:\\Users\\op\\AppData\\Local\\assist\\bin\\assist.exe";
const STAGED = "C:\\Users\\op\\AppData\\Local\\assist\\bin\\.assist.exe.assist-new";

function windows() {
  const fs = new WinFs();
  fs.files.set(EXE, "old");
  fs.files.set(STAGED, "new");
  fs.running.add(EXE);
  return fs;
}

Deno.test("windows: the running exe is renamed aside (unique name), the new one moved in, old leftovers swept", async () => {
  const fs = windows();
  fs.files.set(`${EXE}.old-1-a`, "older"); // from an earlier update, no longer running
  fs.files.set(`${EXE}.old-2-b`, "old2");
  fs.running.add(`${EXE}.old-2-b`); // another assist window still runs it
  // A plain rename over the running exe is what fails on Windows:
  await rejects(fs.rename(STAGED, EXE), Deno.errors.PermissionDenied);
  await swapBinary(EXE, STAGED, "windows", fs);
  assertEquals(fs.files.get(EXE), "new");
  assert(!fs.files.has(STAGED));
  assert(!fs.files.has(`${EXE}.old-1-a`), "an unused leftover is swept");
  assert(fs.files.has(`${EXE}.old-2-b`), "a leftover in use stays");
  const aside = [...fs.files.keys()].filter((p) =>
    /assist\.exe\.old-\d+-[0-9a-f]+$/.test(p) && !p.endsWith("-b")
  );
  assertEquals(aside.length, 1);
  assertEquals(fs.files.get(aside[0]), "old");
  assert(fs.running.has(aside[0]), "the running image moved aside with its file");

  // The next swap sweeps that aside file once it no longer runs.
  fs.running.delete(aside[0]);
  fs.files.set(STAGED, "newer");
  await swapBinary(EXE, STAGED, "windows", fs);
  assert(!fs.files.has(aside[0]));
  assertEquals(fs.files.get(EXE), "newer");
});

Deno.test("windows: a locked file is retried (100 ms doubling) and then succeeds", async () => {
  const fs = windows();
  fs.failInto.set(EXE, 3);
  await swapBinary(EXE, STAGED, "windows", fs);
  assertEquals(fs.files.get(EXE), "new");
  assertEquals(fs.sleeps, [100, 200, 400]);
});

Deno.test("windows: when the new exe cannot be moved in, the old one is put back", async () => {
  const fs = windows();
  fs.stuck.add(STAGED);
  await rejects(swapBinary(EXE, STAGED, "windows", fs), (e: Error) => {
    match(e.message, /could not replace .*assist\.exe .*the old one is back in place.*assist update/);
    return true;
  });
  assertEquals(fs.files.get(EXE), "old");
  assert(fs.running.has(EXE));
  assertEquals(fs.sleeps, [100, 200, 400, 800, 1600]);
  assertEquals([...fs.files.keys()].filter((p) => p.includes(".old-")), []);
});

Deno.test("windows: when putting the old one back fails too, the error names the renames that recover", async () => {
  const fs = windows();
  fs.stuck.add(STAGED);
  const orig = fs.rename.bind(fs);
  fs.rename = (from, to) => from.includes(".old-") ? Promise.reject(new Error("disk gone")) : orig(from, to);
  await rejects(swapBinary(EXE, STAGED, "windows", fs), (e: Error) => {
    match(
      e.message,
      /rename ".*assist\.exe\.old-[^"]+" to ".*assist\.exe" by hand \(the new one is ".*assist-new"\)/,
    );
    return true;
  });
});

Deno.test("unix: the new binary is renamed in (a new inode), the old one kept as .prev", async () => {
  await using tmp = await tempDir();
  const exe = `${tmp.path}/assist`;
  const staged = `${tmp.path}/.assist.assist-new`;
  await Deno.writeTextFile(exe, "old", { mode: 0o755 });
  await Deno.writeTextFile(staged, "new", { mode: 0o755 });
  const ino = (await Deno.stat(exe)).ino;
  await swapBinary(exe, staged, "linux");
  assertEquals(await Deno.readTextFile(exe), "new");
  assertEquals(await Deno.readTextFile(`${exe}.prev`), "old");
  assertEquals((await Deno.stat(`${exe}.prev`)).ino, ino, ".prev is the old file itself (a hard link)");
  assert((await Deno.stat(exe)).ino !== ino);
  await Deno.stat(staged).then(() => assert(false, "staged left"), () => {});
});

const CHILD = new URL("./_swap_child.ts", import.meta.url).pathname;

for (const step of ["swap-prev", "swap-renamed"]) {
  Deno.test(`unix: SIGKILL at ${step} leaves the old or the new binary in place, never none`, async () => {
    await using tmp = await tempDir();
    const exe = `${tmp.path}/assist`;
    const staged = `${tmp.path}/.assist.assist-new`;
    await Deno.writeTextFile(exe, "old", { mode: 0o755 });
    await Deno.writeTextFile(staged, "new", { mode: 0o755 });
    const child = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-q",
        "--allow-read",
        "--allow-write",
        "--allow-env=ASSIST_TEST_CRASH_AT",
        CHILD,
        exe,
        staged,
      ],
      env: { ASSIST_TEST_CRASH_AT: step },
      stdout: "null",
      stderr: "piped",
    }).spawn();
    let seen = "";
    for await (const c of child.stderr) {
      seen += new TextDecoder().decode(c);
      if (seen.includes(`crash-point ${step}`)) break;
    }
    child.kill("SIGKILL");
    await child.status;
    assert(seen.includes(`crash-point ${step}`), seen);
    const now = await Deno.readTextFile(exe);
    assert(now === "old" || now === "new", now);
    assertEquals(await Deno.readTextFile(`${exe}.prev`), "old");
  });
}

Deno.test("windows: the next start sweeps aside files nothing runs any more", async () => {
  await using tmp = await tempDir();
  const fs = windows();
  fs.files.set(`${EXE}.old-1-a`, "older");
  fs.files.set(`${EXE}.old-2-b`, "old2");
  fs.running.add(`${EXE}.old-2-b`);
  const lines: string[] = [];
  // The origin is unreachable: the sweep does not depend on it.
  await launchSync({
    home: tmp.path,
    baseUrl: "http://127.0.0.1:9/x",
    line: (l) => lines.push(l),
    compiled: true,
    os: "windows",
    exe: EXE,
    fs,
  });
  assert(!fs.files.has(`${EXE}.old-1-a`));
  assert(fs.files.has(`${EXE}.old-2-b`));
  assertEquals(fs.files.get(EXE), "old");
  match(lines.join("\n"), /auto-update skipped this launch/);
});
