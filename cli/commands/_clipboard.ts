/**
 * `/copy`: the first clipboard program on PATH that takes the text. Each name must also be in the
 * `run` list of deno.json's "assist" permission set, or Deno refuses to start it.
 */

/** In the order tried: macOS, Wayland, X11 (two tools), Windows and WSL. */
export const CLIPBOARD_TOOLS: ReadonlyArray<readonly [string, ...string[]]> = [
  ["pbcopy"],
  ["wl-copy"],
  ["xclip", "-selection", "clipboard"],
  ["xsel", "--clipboard", "--input"],
  ["clip.exe"],
];

/** The file PATH resolves `name` to, or undefined. */
async function onPath(name: string): Promise<string | undefined> {
  let path = "";
  try {
    path = Deno.env.get("PATH") ?? "";
  } catch { /* not readable */ }
  const windows = Deno.build.os === "windows";
  for (const dir of path.split(windows ? ";" : ":")) {
    if (!dir) continue;
    const file = `${dir.replace(/[\\/]+$/, "")}${windows ? "\\" : "/"}${name}`;
    try {
      const info = await Deno.stat(file);
      if (info.isFile && (windows || info.mode === null || (info.mode & 0o111) !== 0)) return file;
    } catch { /* not here */ }
  }
  return undefined;
}

export interface CopyResult {
  /** The program that took the text, or undefined. */
  tool?: string;
  /** Programs found that failed, each with why. */
  tried: string[];
}

export async function copyToClipboard(text: string): Promise<CopyResult> {
  const tried: string[] = [];
  for (const [name, ...args] of CLIPBOARD_TOOLS) {
    if (!(await onPath(name))) continue;
    try {
      const child = new Deno.Command(name, { args, stdin: "piped", stdout: "null", stderr: "piped" }).spawn();
      const err = new Response(child.stderr).text();
      const writer = child.stdin.getWriter();
      // A tool that exits without reading (no display) must not fail the write loudly.
      await writer.write(new TextEncoder().encode(text)).catch(() => {});
      await writer.close().catch(() => {});
      const { code } = await child.status;
      if (code === 0) return { tool: name, tried };
      const why = (await err).replace(/\s+/g, " ").trim().slice(0, 80);
      tried.push(`${name}: exit ${code}${why ? `, ${why}` : ""}`);
    } catch (err) {
      tried.push(`${name}: ${(err as Error).message.replace(/\s+/g, " ").slice(0, 80)}`);
    }
  }
  return { tried };
}
