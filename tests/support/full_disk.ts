/**
 * A real small disk that can be filled up: a tmpfs mounted on a folder of the test's (root only).
 * A machine that cannot mount one fails the test that asks for it; nothing here skips.
 */

/** Mounts a tmpfs of `bytes` on `path` (created); the disposer unmounts it. */
export async function tmpfs(
  path: string,
  bytes: number,
): Promise<{ path: string; [Symbol.asyncDispose](): Promise<void> }> {
  await Deno.mkdir(path, { recursive: true });
  const out = await new Deno.Command("mount", {
    args: ["-t", "tmpfs", "-o", `size=${bytes},mode=0755`, "tmpfs", path],
    stdout: "null",
    stderr: "piped",
  }).output();
  if (!out.success) {
    throw new Error(
      `cannot mount a tmpfs on ${path} (the fault suite needs root): ${
        new TextDecoder().decode(out.stderr).trim()
      }`,
    );
  }
  return {
    path,
    async [Symbol.asyncDispose]() {
      await new Deno.Command("umount", { args: ["-l", path], stdout: "null", stderr: "null" }).output();
    },
  };
}

/**
 * Fills the file system holding `dir` until a write fails with ENOSPC; the disposer frees the space.
 * The filler file is outside any state folder, so what fails later is the program's own write.
 */
export async function fillDisk(dir: string): Promise<{ [Symbol.asyncDispose](): Promise<void> }> {
  const filler = `${dir}/.filler`;
  const file = await Deno.open(filler, { write: true, create: true, truncate: true });
  const chunk = new Uint8Array(64 << 10);
  try {
    for (let size = chunk.length; size >= 1; size = Math.floor(size / 2)) {
      for (;;) {
        try {
          await file.write(chunk.subarray(0, size));
        } catch (err) {
          if (err instanceof Error && /No space left|os error 28/.test(err.message)) break;
          throw err;
        }
      }
    }
  } finally {
    file.close();
  }
  return { [Symbol.asyncDispose]: () => Deno.remove(filler).catch(() => {}) };
}
