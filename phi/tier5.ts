/**
 * Tier 5 of the spec's "Auto-PHI detection model": free-text entities found by the PHI sidecar
 * (phi/sidecar/client.ts), tokenized as `presidio_<TYPE>`. The engine (phi/engine.ts) asks once per
 * pass, over the free text only (the text outside HL7 segments, and free-text fields). This module
 * also owns what tier 5 tells the operator: one warning per session while the sidecar cannot be
 * reached, and the once-per-session notice (remembered across processes in `.phi-notice-shown`).
 */
import type { Config } from "../core/config.ts";
import { atomicWrite } from "../core/atomic_write.ts";
import { type Candidate, candidate } from "./candidate.ts";
import { protectedSpans } from "./exclusions.ts";
import type { Hl7Scan } from "./hl7_sanitize.ts";
import { canonicalize } from "./normalize.ts";
import type { SidecarDetector } from "./sidecar/client.ts";
import type { SpanSet } from "./spans.ts";
import { freeRegions, JoinedRegions } from "./_regions.ts";

export interface Tier5Options {
  sidecar: SidecarDetector;
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
 * import type { SidecarDetector } from "./sidecar/client.ts";
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
  readonly #sidecar: SidecarDetector;
  readonly #config: Pick<Config, "phiNotice">;
  readonly #noticeFlag: string;
  readonly #sessionId?: string;
  #warned = false;
  #noticeDone = false;

  constructor(options: Tier5Options) {
    this.#sidecar = options.sidecar;
    this.#config = options.config;
    this.#noticeFlag = options.noticeFlag;
    this.#sessionId = options.sessionId;
  }

  /**
   * Tier 5 over the free text of `text` (non-segment text and free-text fields when `scan` is
   * given, else all of it), one request. Ranges in `taken` are skipped, and the ones found are added
   * to it. Operator warnings and the notice are pushed to `warnings`.
   */
  async find(
    text: string,
    taken: SpanSet,
    scan: Hl7Scan | undefined,
    warnings: string[],
  ): Promise<Candidate[]> {
    const all = scan ? freeRegions(text, scan) : [{ start: 0, end: text.length }];
    const regions = all.filter((r) => r.end > r.start && text.slice(r.start, r.end).trim() !== "");
    if (regions.length === 0) return [];
    const joined = new JoinedRegions(text, regions);
    const entities = await this.#sidecar.detect(joined.text);
    if (entities === undefined) {
      if (!this.#warned) {
        this.#warned = true;
        warnings.push(
          `phi> the PHI sidecar is not reachable on ${this.#sidecar.address} (${
            this.#sidecar.lastError ?? "no answer"
          }); tier 5 is off until it is (see /phi-sidecar)`,
        );
      }
      return [];
    }
    const out: Candidate[] = [];
    const protect = protectedSpans(joined.text);
    for (const e of entities) {
      if (protect.overlaps(e.start, e.end)) continue;
      const k = joined.regionOf(e.start, e.end);
      if (k === -1) continue;
      const start = joined.toSource(k, e.start);
      const end = joined.toSource(k, e.end);
      // Trim white space the recognizer included.
      let s = start, en = end;
      while (s < en && /\s/.test(text[s])) s++;
      while (en > s && /\s/.test(text[en - 1])) en--;
      if (en <= s) continue;
      const category = `presidio_${e.type}`;
      const value = text.slice(s, en);
      const canonical = canonicalize(category, value);
      if (canonical === "" || !taken.add(s, en)) continue;
      out.push(candidate(s, en, value, category, canonical, "sidecar"));
    }
    if (out.length > 0) await this.#notice(warnings);
    return out;
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
