/**
 * Glob patterns: `*` (within one component), `**` (any number of components), `?`, `[abc]`, `[!a-z]`,
 * `{a,b}`; `/` separates components on every platform (and `\` too on Windows). Pure.
 */

/** Splits a pattern into its literal leading folder and the globbed rest. */
export function splitGlob(pattern: string, windows: boolean): { base: string; rest: string } {
  const norm = windows ? pattern.replace(/\\/g, "/") : pattern;
  const parts = norm.split("/");
  let i = 0;
  while (i < parts.length - 1 && !/[*?[{]/.test(parts[i])) i++;
  if (i === parts.length - 1 && !/[*?[{]/.test(parts[i])) {
    // No glob characters at all: the last component is matched literally.
    i = parts.length - 1;
  }
  let base = parts.slice(0, i).join("/");
  if (base === "" && norm.startsWith("/")) base = "/";
  if (/^[A-Za-z]:$/.test(base)) base += "/";
  return { base: base === "" ? "." : base, rest: parts.slice(i).join("/") };
}

/**
 * A RegExp matching whole `/`-separated relative paths.
 *
 * @example
 * ```ts
 * globToRegExp("**\/*.tcl").test("tclprocs/route.tcl"); // true
 * ```
 */
export function globToRegExp(glob: string, caseInsensitive = false): RegExp {
  let re = "";
  let inGroup = 0;
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i];
    if (ch === "*") {
      if (glob[i + 1] === "*") {
        const atStart = i === 0 || glob[i - 1] === "/";
        const atEnd = i + 2 === glob.length || glob[i + 2] === "/";
        if (atStart && atEnd) {
          if (glob[i + 2] === "/") {
            re += "(?:[^/]*(?:/[^/]*)*/)?";
            i += 2;
          } else {
            re += ".*";
            i += 1;
          }
          continue;
        }
        i += 1;
      }
      re += "[^/]*";
    } else if (ch === "?") {
      re += "[^/]";
    } else if (ch === "[") {
      const close = glob.indexOf("]", i + 2);
      if (close === -1) {
        re += "\\[";
        continue;
      }
      let body = glob.slice(i + 1, close);
      const negate = body[0] === "!" || body[0] === "^";
      if (negate) body = body.slice(1);
      body = body.replace(/[\\\]^]/g, "\\$&");
      re += negate ? `[^/${body}]` : `[${body}]`;
      i = close;
    } else if (ch === "{") {
      inGroup++;
      re += "(?:";
    } else if (ch === "}" && inGroup > 0) {
      inGroup--;
      re += ")";
    } else if (ch === "," && inGroup > 0) {
      re += "|";
    } else {
      re += ch.replace(/[.+^$()|\\\]{}]/g, "\\$&");
    }
  }
  while (inGroup-- > 0) re += ")";
  return new RegExp(`^${re}$`, caseInsensitive ? "i" : "");
}

/** How deep a walk must go for `rest` (Infinity with `**`). */
export function globDepth(rest: string): number {
  return rest.includes("**") ? Infinity : rest.split("/").length;
}
