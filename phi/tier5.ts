/**
 * Tier 5 of the spec's "Auto-PHI detection model": free-text entities found by the PHI sidecar
 * (phi/sidecar/client.ts), tokenized as `presidio_<TYPE>`, and the built-in name recognizer
 * (phi/names/, beyond the spec) that finds person names without the sidecar, tokenized as `NAME`.
 * The engine (phi/engine.ts) asks once per pass, over the free text only (the text outside HL7
 * segments, and free-text fields). This module also owns what tier 5 tells the operator: one warning
 * per session while the sidecar cannot be reached, the once-per-session notice (remembered across
 * processes in `.phi-notice-shown`), and whether names in free text are covered at all
 * ({@link namesCoverage}).
 *
 * When the built-in recognizer runs (`ASSIST_PHI_NAMES`, config `phiNames`): `auto` (default) when
 * the sidecar is not reachable or its engine has no person recognizer (the regex engine), `on`
 * always (its names join the sidecar's; the sidecar's win where both found one), `off` never.
 */
import type { Config, PhiNamesMode } from "../core/config.ts";
import { lazy } from "../core/lazy.ts";
import { atomicWrite } from "../core/atomic_write.ts";
import { type Candidate, candidate } from "./candidate.ts";
import { protectedSpans } from "./exclusions.ts";
import type { Hl7Scan } from "./hl7_sanitize.ts";
import { canonicalize, isDateShaped } from "./normalize.ts";
import { SidecarClient, type SidecarDetector, type SidecarHealth } from "./sidecar/client.ts";
import { sidecarFiles } from "./sidecar/files.ts";
import type { SpanSet } from "./spans.ts";
import { freeRegions, JoinedRegions } from "./_regions.ts";

/** `(E123456)`, `(HSP6287305)`, `(00-123-456)` right after a name: letters (0-4) and 5+ digits. */
const ID_IN_PARENS = /[ \t]?\((?:MRN[:# ]*)?([A-Za-z]{0,4}-?\d[\d-]{3,14}\d)\)/y;

export interface Tier5Options {
  /** The sidecar; absent: the built-in recognizer alone (as in `auto` with the sidecar down). */
  sidecar?: SidecarDetector & { health?(): Promise<SidecarHealth | undefined> };
  /** The built-in name recognizer. @default "auto" */
  names?: PhiNamesMode;
  /** Read when the notice is due (the caller's config object, so a later change is seen). */
  config: Pick<Config, "phiNotice">;
  /** `.phi-notice-shown` under the home folder. */
  noticeFlag: string;
  /** The session the notice was shown for; without one it is shown once per engine. */
  sessionId?: string;
}

/**
 * Tier 5 for one session (its warnings and notice are once per session).
 *
 * @example
 * ```ts
 * import { Tier5 } from "./tier5.ts";
 * import { homePaths } from "../core/home.ts";
 * import type { Config } from "../core/config.ts";
 * import { SidecarClient, type SidecarDetector, type SidecarHealth } from "./sidecar/client.ts";
import { sidecarFiles } from "./sidecar/files.ts";
 * import type { SpanSet } from "./spans.ts";
 * declare const sidecar: SidecarDetector;
 * declare const config: Config;
 * declare const home: string;
 * declare const sessionId: string;
 * declare const text: string;
 * declare const taken: SpanSet;
 * declare const warnings: string[];
 * const tier5 = new Tier5({ sidecar, config, noticeFlag: homePaths(home).phiNoticeShown, sessionId });
 * const found = await tier5.find(text, taken, undefined, warnings);
 * ```
 */
export class Tier5 {
  readonly #sidecar?: SidecarDetector & { health?(): Promise<SidecarHealth | undefined> };
  readonly #names: PhiNamesMode;
  /** Whether the reachable sidecar recognizes persons (asked once, from /health). */
  #sidecarPersons?: boolean;
  #namesFailed = false;
  readonly #config: Pick<Config, "phiNotice">;
  readonly #noticeFlag: string;
  readonly #sessionId?: string;
  #warned = false;
  #noticeDone = false;

  constructor(options: Tier5Options) {
    this.#sidecar = options.sidecar;
    this.#names = options.names ?? "auto";
    this.#config = options.config;
    this.#noticeFlag = options.noticeFlag;
    this.#sessionId = options.sessionId;
  }

  /**
   * Tier 5 over the free text of `text` (non-segment text and free-text fields when `scan` is
   * given, else all of it), one request. Ranges in `taken` are skipped, and the ones found are added
   * to it. Operator warnings and the notice are pushed to `warnings`. `fences`: fenced code is
   * protected (only in what the operator types; tool results and attached files are scanned inside
   * fences too).
   */
  async find(
    text: string,
    taken: SpanSet,
    scan: Hl7Scan | undefined,
    warnings: string[],
    fences = true,
  ): Promise<Candidate[]> {
    const all = scan ? freeRegions(text, scan) : [{ start: 0, end: text.length }];
    const regions = all.filter((r) => r.end > r.start && text.slice(r.start, r.end).trim() !== "");
    if (regions.length === 0) return [];
    const joined = new JoinedRegions(text, regions);
    const out: Candidate[] = [];
    let protect: SpanSet | undefined;
    const keep = (s0: number, e0: number, category: string, tier: "sidecar" | "names", context?: string) => {
      protect ??= protectedSpans(joined.text, fences);
      if (protect.overlaps(s0, e0)) return;
      const k = joined.regionOf(s0, e0);
      if (k === -1) return;
      // Trim white space the recognizer included.
      let s = joined.toSource(k, s0), en = joined.toSource(k, e0);
      while (s < en && /\s/.test(text[s])) s++;
      while (en > s && /\s/.test(text[en - 1])) en--;
      if (en <= s) return;
      const value = text.slice(s, en);
      const canonical = canonicalize(category, value);
      if (canonical === "" || !taken.add(s, en)) return;
      out.push(candidate(s, en, value, category, canonical, tier, context));
    };
    const entities = this.#sidecar ? await this.#sidecar.detect(joined.text) : undefined;
    if (this.#sidecar && entities === undefined && !this.#warned) {
      this.#warned = true;
      warnings.push(
        `phi> the PHI sidecar is not reachable on ${this.#sidecar.address} (${
          this.#sidecar.lastError ?? "no answer"
        }); its tier 5 is off until it is (see /phi-sidecar)${
          this.#names === "off"
            ? "; names in free text are NOT covered (ASSIST_PHI_NAMES=off)"
            : "; the built-in name recognizer covers names in free text"
        }`,
      );
    }
    for (const e of entities ?? []) keep(e.start, e.end, `presidio_${e.type}`, "sidecar");
    if (await this.#namesDue(entities !== undefined)) {
      const find = await this.#finder(warnings);
      for (const n of find?.(joined.text) ?? []) {
        keep(n.start, n.end, "NAME", "names", `names:${n.rule}`);
        // An id in parentheses right after a name (`Will Hamilton (E123456)`, `(HSP6287305)`,
        // `(00-123-456)`) is that person's record number.
        ID_IN_PARENS.lastIndex = n.end;
        const m = ID_IN_PARENS.exec(joined.text);
        if (m && !isDateShaped(m[1])) {
          const s = n.end + m[0].indexOf(m[1]);
          keep(s, s + m[1].length, "MRN", "names", "names:id beside a name");
        }
      }
    }
    if (out.length > 0) await this.#notice(warnings);
    return out;
  }

  /** Whether the built-in recognizer runs on this pass. */
  async #namesDue(sidecarAnswered: boolean): Promise<boolean> {
    if (this.#names === "off" || this.#namesFailed) return false;
    if (this.#names === "on" || !sidecarAnswered) return true;
    if (this.#sidecarPersons === undefined) {
      const h = await this.#sidecar?.health?.();
      this.#sidecarPersons = h === undefined ? true : sidecarFindsPersons(h);
    }
    return !this.#sidecarPersons;
  }

  #finderP?: Promise<((text: string) => { start: number; end: number; rule: string }[]) | undefined>;

  /** The recognizer, loaded once; undefined (with one warning) when its lexicon cannot be loaded. */
  #finder(
    warnings: string[],
  ): Promise<((text: string) => { start: number; end: number; rule: string }[]) | undefined> {
    this.#finderP ??= (async () => {
      try {
        const { nameFinder } = await lazy<typeof import("./names/mod.ts")>(import.meta.url, "./names/mod.ts");
        return await nameFinder();
      } catch (err) {
        this.#namesFailed = true;
        warnings.push(
          `phi> the built-in name recognizer could not load its lexicon (${
            (err as Error)?.name ?? "error"
          }); names in free text are not covered`,
        );
        return undefined;
      }
    })();
    return this.#finderP;
  }

  /** The tier-5 notice, once per session (and not again in a later process of the same session). */
  async #notice(warnings: string[]): Promise<void> {
    if (this.#noticeDone || !this.#config.phiNotice) return;
    this.#noticeDone = true;
    const flag = this.#noticeFlag;
    const id = this.#sessionId ?? "";
    try {
      if (id !== "" && (await Deno.readTextFile(flag)).trim() === id) return;
    } catch { /* not shown yet */ }
    warnings.push("phi> tier 5: free-text entities found by the sidecar are tokenized as presidio_<TYPE>");
    if (id !== "") await atomicWrite(flag, `${id}\n`, { mode: 0o600 }).catch(() => {});
  }
}

/** True when a sidecar's /health says it recognizes persons (Presidio does; the regex engine does not). */
export function sidecarFindsPersons(h: SidecarHealth): boolean {
  if (Array.isArray(h.entities)) return h.entities.includes("PERSON");
  return h.engine !== "regex";
}

/**
 * One line for the operator when person names in free text are not covered: the sidecar is not
 * reachable (or has no person recognizer) and the built-in recognizer is off. Undefined when names
 * are covered. `phi_scan`, `phi_sanitize`, headless `-p` and the REPL start print it.
 *
 * @example
 * ```ts
 * import { namesCoverage } from "./tier5.ts";
 * import { loadConfig } from "../core/config.ts";
 * const line = await namesCoverage(loadConfig());
 * if (line) console.error(line);
 * ```
 */
export async function namesCoverage(
  config: Pick<Config, "phiPort" | "phiNames"> & Partial<Pick<Config, "phiVenv">>,
  sidecar?: { health(): Promise<SidecarHealth | undefined>; readonly address: string },
): Promise<string | undefined> {
  if (config.phiNames !== "off") return undefined;
  const client = sidecar ?? new SidecarClient({
    port: config.phiPort,
    timeoutMs: 1500,
    retryAfterMs: 0,
    tokenFile: config.phiVenv ? sidecarFiles(config.phiVenv).tokenFile : undefined,
  });
  const h = await client.health();
  if (h === undefined) {
    return `phi> names in free text are NOT covered: the PHI sidecar is not reachable on ${client.address} ` +
      "and the built-in name recognizer is off (ASSIST_PHI_NAMES=off)";
  }
  if (!sidecarFindsPersons(h)) {
    return `phi> names in free text are NOT covered: the PHI sidecar's ${
      h.engine ?? "regex"
    } engine has no person recognizer and the built-in name recognizer is off (ASSIST_PHI_NAMES=off)`;
  }
  return undefined;
}
