/**
 * Which update origin this program uses, and the URL of a file on it (spec, "Outbound calls": the
 * update fetch is `GET {base_url}/raw/branch/<branch>/<path>`). The effective origin is
 * `ASSIST_BASE_URL`, else the `.origin` pin under `$ASSIST_HOME`, else the default. A pin of `gitea`
 * names the default; a legacy pin of `github` is invalid: one warning at start, the default is used,
 * and the file is not rewritten.
 *
 * @module
 */

/**
 * The default origin: the project's Gitea repository (a private GitHub mirror is never used). The
 * spec does not give its address; until the release host is named this is a reserved `.invalid`
 * name, which never resolves, so a default install reports "auto-update skipped this launch" rather
 * than ever asking a stranger's server. Operators set ASSIST_BASE_URL or `/origin <https-url>`.
 */
export const DEFAULT_BASE_URL = "https://gitea.assist.invalid/assist/assist";

/** The branch releases are published on. */
export const RELEASE_BRANCH = "main";

/** Where the effective origin came from. */
export type OriginSource = "env" | "pin" | "default";

export interface Origin {
  /** Base address without a trailing slash. */
  baseUrl: string;
  source: OriginSource;
  /** A pin that could not be used, in words (shown once at start). */
  warning?: string;
}

/** What a `.origin` pin file holds, in words; `url` is set when the pin names a usable origin. */
export interface PinReading {
  url?: string;
  /** "gitea" pins the default origin. */
  isDefault?: boolean;
  note: string;
  /** The pin is present but unusable (legacy `github`, or garbage). */
  invalid?: boolean;
}

/**
 * Reads the content of a `.origin` pin file.
 *
 * @example
 * ```ts
 * import { readPin } from "./origin.ts";
 * readPin("github\n").invalid; // true
 * readPin("https://git.example.org/ops/assist\n").url; // "https://git.example.org/ops/assist"
 * ```
 */
export function readPin(content: string): PinReading {
  const v = content.replace(/\r/g, "").trim();
  if (v === "" || v === "auto") return { note: "empty (no pin)" };
  if (v === "gitea") {
    return { url: DEFAULT_BASE_URL, isDefault: true, note: "pins the default origin (gitea)" };
  }
  if (v === "github") {
    return {
      invalid: true,
      note: `holds "github", which is invalid (the github mirror is private); the default is used`,
    };
  }
  const url = httpsOrigin(v);
  if (url) return { url, note: `pins ${url}` };
  return {
    invalid: true,
    note: `holds "${v.slice(0, 60)}", which is not gitea, auto or an https:// URL; the default is used`,
  };
}

/**
 * An origin base address: an https:// URL without credentials, query or fragment, with no trailing
 * slash; undefined for anything else. (`http://` is accepted only for 127.0.0.1 and localhost, where
 * a local test origin runs.)
 */
export function httpsOrigin(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return undefined;
  }
  const local = url.hostname === "127.0.0.1" || url.hostname === "localhost" || url.hostname === "[::1]";
  if (url.protocol !== "https:" && !(url.protocol === "http:" && local)) return undefined;
  if (url.username || url.password || url.search || url.hash) return undefined;
  return url.href.replace(/\/+$/, "");
}

/**
 * The effective origin from `ASSIST_BASE_URL` (already read) and the pin file's content.
 *
 * @example
 * ```ts
 * import { resolveOrigin } from "./origin.ts";
 * resolveOrigin(undefined, "github\n").source; // "default", with a warning
 * ```
 */
export function resolveOrigin(envBaseUrl: string | undefined, pinContent: string | undefined): Origin {
  if (envBaseUrl) {
    const url = httpsOrigin(envBaseUrl);
    if (url) return { baseUrl: url, source: "env" };
    return {
      baseUrl: DEFAULT_BASE_URL,
      source: "default",
      warning: `ASSIST_BASE_URL is not an https:// URL without credentials; the default origin is used`,
    };
  }
  if (pinContent !== undefined) {
    const pin = readPin(pinContent);
    if (pin.url) return { baseUrl: pin.url, source: pin.isDefault ? "default" : "pin" };
    if (pin.invalid) {
      return { baseUrl: DEFAULT_BASE_URL, source: "default", warning: `the origin pin ${pin.note}` };
    }
  }
  return { baseUrl: DEFAULT_BASE_URL, source: "default" };
}

/** Reads the pin file; undefined when absent or unreadable. */
export async function readPinFile(path: string): Promise<string | undefined> {
  try {
    return await Deno.readTextFile(path);
  } catch {
    return undefined;
  }
}

/**
 * The URL of one file on the origin: `{base_url}/raw/branch/<branch>/<path>`, each path segment
 * percent-encoded.
 *
 * @example
 * ```ts
 * import { rawUrl } from "./origin.ts";
 * rawUrl("https://git.example.org/ops/assist", "cli/repl/repl.ts");
 * // "https://git.example.org/ops/assist/raw/branch/main/cli/repl/repl.ts"
 * ```
 */
export function rawUrl(baseUrl: string, path: string, branch = RELEASE_BRANCH): string {
  const enc = path.split("/").map(encodeURIComponent).join("/");
  return `${baseUrl}/raw/branch/${encodeURIComponent(branch)}/${enc}`;
}
