/**
 * `/oauth-debug` (spec, Authentication item 3): the token file's mode, size, mtime, JSON validity,
 * the refresh decision, the first 20 characters and the length of each token (never more), and the
 * CR and LF byte counts. Pure over the file's bytes and stat, so it is tested exactly.
 */
import { parseTokens, refreshDecision, validityText } from "./oauth_store.ts";

export function oauthDebugReport(
  path: string,
  bytes: Uint8Array | undefined,
  info: { mode: number | null; size: number; mtime: Date | null } | undefined,
  nowSeconds: number,
): string {
  const lines = [`oauth-debug: ${path}`];
  if (!bytes || !info) {
    lines.push("  file: missing (run /login)");
    return lines.join("\n");
  }
  lines.push(
    `  mode: ${info.mode === null ? "n/a" : (info.mode & 0o777).toString(8).padStart(4, "0")}${
      info.mode !== null && (info.mode & 0o077) ? " (too open: should be 0600)" : ""
    }`,
  );
  lines.push(`  size: ${info.size} bytes`);
  lines.push(`  mtime: ${info.mtime ? info.mtime.toISOString() : "n/a"}`);
  let cr = 0;
  let lf = 0;
  for (const b of bytes) {
    if (b === 13) cr++;
    else if (b === 10) lf++;
  }
  lines.push(`  CR bytes: ${cr}, LF bytes: ${lf}`);
  const text = new TextDecoder().decode(bytes);
  let json: Record<string, unknown> | undefined;
  try {
    json = JSON.parse(text);
    lines.push("  JSON: valid");
  } catch {
    lines.push("  JSON: invalid");
  }
  for (const key of ["access_token", "refresh_token"]) {
    const v = json?.[key];
    lines.push(
      typeof v === "string" ? `  ${key}: ${v.slice(0, 20)}… (${v.length} chars)` : `  ${key}: missing`,
    );
  }
  try {
    const tokens = parseTokens(text);
    const left = tokens.fetched_at + tokens.expires_in - nowSeconds;
    lines.push(`  refresh decision: ${refreshDecision(tokens, nowSeconds)} (${validityText(left)})`);
  } catch (err) {
    lines.push(`  refresh decision: cannot decide (${(err as Error).message})`);
  }
  return lines.join("\n");
}
