/**
 * SHA-256 of bytes and of files, hex-encoded. Files are streamed through `node:crypto`, so a
 * 100 MB binary is never held in memory at once.
 *
 * @module
 */
import { createHash } from "node:crypto";

/**
 * @example
 * ```ts
 * import { sha256Hex } from "./hash.ts";
 * sha256Hex(new TextEncoder().encode("abc")).slice(0, 8); // "ba7816bf"
 * ```
 */
export function sha256Hex(data: Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

/** Size and SHA-256 of a file; undefined when it does not exist or is not a file. */
export async function hashFile(path: string): Promise<{ size: number; sha256: string } | undefined> {
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path, { read: true });
  } catch {
    return undefined;
  }
  try {
    const info = await file.stat();
    if (!info.isFile) return undefined;
    const h = createHash("sha256");
    let size = 0;
    const buf = new Uint8Array(256 * 1024);
    for (;;) {
      const n = await file.read(buf);
      if (n === null) break;
      h.update(buf.subarray(0, n));
      size += n;
    }
    return { size, sha256: h.digest("hex") };
  } finally {
    file.close();
  }
}
