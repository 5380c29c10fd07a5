/**
 * A small tmpfs of its own for the fault suite (tests/faults/): a disk that fills up on demand and
 * can be remounted read-only. Needs Linux and root (CI runs as root, as for tests/ssh); a machine
 * where `mount` fails makes the test fail with the reason, never skip it. `deno task test:unit`
 * leaves tests/faults out (tests/integration/tasks.test.ts keeps it so).
 *
 * @example
 * ```ts
 * await using disk = await mountTmpfs(256 * 1024);
 * await disk.fill(); // every byte taken: the next write fails with ENOSPC
 * await disk.free(8192); // two pages free again
 * await disk.readOnly(true);
 * ```
 */
const PAGE = 4096;

export interface Tmpfs {
  /** The mount point (an empty folder of its own). */
  path: string;
  /** Takes every free byte with a filler file (`.filler`, outside what the program writes). */
  fill(): Promise<void>;
  /** Gives `bytes` of the filler back (rounded up to whole pages by the kernel). */
  free(bytes: number): Promise<void>;
  /** Removes the filler: the disk is as empty as its other files leave it. */
  unfill(): Promise<void>;
  /** Remounts read-only (true) or writable (false), keeping its files. */
  readOnly(on: boolean): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

async function run(cmd: string, args: string[]): Promise<void> {
  const out = await new Deno.Command(cmd, { args, stdout: "piped", stderr: "piped" }).output();
  if (!out.success) {
    throw new Error(
      `${cmd} ${args.join(" ")} failed (${out.code}): ${new TextDecoder().decode(out.stderr).trim()} ` +
        `(the fault suite needs Linux and root to mount a tmpfs)`,
    );
  }
}

/** Mounts a tmpfs of `size` bytes on a fresh temporary folder. */
export async function mountTmpfs(size: number): Promise<Tmpfs> {
  const path = await Deno.realPath(await Deno.makeTempDir({ prefix: "assist-tmpfs-" }));
  try {
    await run("mount", ["-t", "tmpfs", "-o", `size=${size},mode=0755`, "tmpfs", path]);
  } catch (err) {
    await Deno.remove(path).catch(() => {});
    throw err;
  }
  const filler = `${path}/.filler`;
  return {
    path,
    async fill() {
      const f = await Deno.open(filler, { write: true, create: true, append: true });
      const chunk = new Uint8Array(PAGE);
      try {
        for (;;) await f.write(chunk);
      } catch (err) {
        if ((err as { code?: string }).code !== "ENOSPC") throw err;
      } finally {
        f.close();
      }
    },
    async free(bytes: number) {
      const size = (await Deno.stat(filler)).size;
      await Deno.truncate(filler, Math.max(0, size - Math.ceil(bytes / PAGE) * PAGE));
    },
    async unfill() {
      await Deno.remove(filler).catch(() => {});
    },
    async readOnly(on: boolean) {
      await run("mount", ["-o", `remount,${on ? "ro" : "rw"}`, path]);
    },
    async [Symbol.asyncDispose]() {
      await run("umount", [path]).catch(() => run("umount", ["-l", path]));
      await Deno.remove(path, { recursive: true }).catch(() => {});
    },
  };
}
