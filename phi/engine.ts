/**
 * The PHI engine: the one gate the agent loop passes every byte through before it reaches the model,
 * and the way back. Pure: no terminal code; questions go to an injected prompter, notices and
 * warnings come back as data.
 *
 * Its parts live beside it: tiers 1 to 4 in phi/detect.ts (one file per tier), tier 5 and its
 * notice in phi/tier5.ts, the review gate's prompt loop in phi/prompter.ts, the audit lines and
 * per-session audit bookkeeping in phi/audit.ts, and the join of HL7 free-text regions in
 * phi/_regions.ts.
 */
import type { AutoPhiMode, Config } from "../core/config.ts";
import { AssistError } from "../core/errors.ts";
import { homePaths } from "../core/home.ts";
import { isHl7Shaped } from "./_hl7.ts";
import { appendAuditText, AuditBook, AuditLines, noticeLine, type Surface } from "./audit.ts";
import { decodedRuns, encodeRunText, layoutLike, mapBase64Runs, MIN_KEYED } from "./base64.ts";
import { type Candidate, detectAuto, findDefinite, KnownIndex, type Tier } from "./detect.ts";
import { candidate } from "./candidate.ts";
import {
  createStreamDetokenizer as makeStream,
  type Detokenized,
  detokenizeJson,
  detokenizeText,
  fieldFlags,
  type StreamDetokenizer,
} from "./detokenize.ts";
import { hasDobContext, protectedRanges, protectedSpans } from "./exclusions.ts";
import { lineStart } from "./_chars.ts";
import { findCaretNames, findFieldListings } from "./hl7_listing.ts";
import { type Hl7Scan, scanHl7 } from "./hl7_sanitize.ts";
import { embeddedScan } from "./embedded_hl7.ts";
import { ioReason } from "../core/io_error.ts";
import { isName, type LookupRow, LookupTable, type TokenRequest } from "./lookup.ts";
import { findMarkers, stripNoPhi } from "./markers.ts";
import { NAME_WORD, nameWordsOf } from "./name_words.ts";
import { preferSsn } from "./prefer_ssn.ts";
import { keyedNameCandidates } from "./keyed_names.ts";
import { canonicalize, detectCategory } from "./normalize.ts";
import { reviewRefusal, strictRefusal } from "./review.ts";
import { type PhiPrompter, reviewGate } from "./prompter.ts";
import { SidecarClient, type SidecarDetector } from "./sidecar/client.ts";
import { sidecarFiles } from "./sidecar/files.ts";
import { SpanSet } from "./spans.ts";
import { sweepKnown } from "./sweep.ts";
import { Tier5 } from "./tier5.ts";
import { freeRegions, JoinedRegions } from "./_regions.ts";
import { scanRecords } from "./records.ts";
import { CATEGORY_RE, MINTED_TOKEN_RE } from "./token.ts";

/**
 * One value replaced by a token in a pass. The entries are the engine's own candidate objects (no
 * copy per value on large results): read these fields; they carry engine bookkeeping as well, so
 * never serialize one whole.
 */
export interface Tokenization {
  token: string;
  /** The category of the token's row. */
  category: string;
  /** The text that was replaced (for a marker: the marked value). */
  value: string;
  canonical: string;
  tier: Tier;
  /** The field path (HL7) when there is one. */
  context?: string;
}

export interface PhiTextResult {
  /** The text to send to the model. */
  text: string;
  /** Distinct values tokenized (manual ones included), in order of first appearance. */
  tokenized: Tokenization[];
  /** `phi> auto-tokenized ...` when the automatic tiers tokenized something (never holds a value). */
  notice?: string;
  /** One-line warnings for the operator (sidecar unreachable, table not saved, ...); no values. */
  warnings: string[];
}

export interface UserInputResult extends PhiTextResult {
  /** The prompt started with `!nophi `: automatic tiers were skipped for this turn. */
  nophi: boolean;
}

export interface ToolResultSanitized extends PhiTextResult {
  /** Why the result was replaced by a refusal: strict mode, or the operator at the review gate. */
  refused?: "strict" | "review";
  hl7Shaped: boolean;
  /** The review gate asked the operator. */
  reviewed: boolean;
}

/**
 * A finding of `scan` (phi_scan): what a pass would tokenize, without writing anything. `token` is
 * the token already in the lookup table for the value, if any.
 */
export type ScanFinding = Omit<Candidate, "row" | "exact">;

/** Strict mode stopped the turn; nothing was sent. Its message never holds a value. */
export class PhiRefusedError extends AssistError {
  constructor(reason: string) {
    super(`strict auto-PHI stopped this turn: ${reason}; nothing was sent to the model`, {
      level: "refused",
    });
    this.name = "PhiRefusedError";
  }
}

export interface PhiEngineOptions {
  config:
    & Pick<
      Config,
      "home" | "autoPhi" | "phiPort" | "toolResultReview" | "toolResultReviewThreshold" | "phiNotice"
    >
    & Partial<Pick<Config, "phiVenv" | "phiNames">>;
  /** The terminal; omit when there is none. */
  prompter?: PhiPrompter;
  /**
   * Tier 5's sidecar. @default a SidecarClient on 127.0.0.1:config.phiPort; `false`: no sidecar (the
   * built-in name recognizer still runs unless `config.phiNames` is `off`).
   */
  sidecar?: SidecarDetector | false;
  /** For the once-per-session tier-5 notice (`.phi-notice-shown`). */
  sessionId?: string;
  /** The HL7 sanitizer's scanner (tests inject a failing one). @default scanHl7 */
  hl7Scanner?: (text: string) => Hl7Scan;
  /** @default () => new Date() */
  now?: () => Date;
  /**
   * Every token must be stored in the lookup table, in every mode: a table that cannot be written
   * or read refuses the text (PhiRefusedError) instead of using tokens kept in memory. For output
   * that outlives the process (`phi_sanitize`'s copy, to be revealed later by `phi-reveal`).
   */
  storedTokensOnly?: boolean;
}

interface PassOptions {
  surface: Surface;
  /** Tool name, or "prompt". */
  source: string;
  markers: boolean;
  hl7: boolean;
  auto: boolean;
  base64: boolean;
  /** How many base64 layers the text was inside (one more is decoded: base64 of base64). */
  base64Depth?: number;
  dryRun?: boolean;
}

interface PassOut {
  text: string;
  chosen: Candidate[];
  hl7Shaped: boolean;
  /** Set when the text is HL7-shaped but the sanitizer failed or found no segment. */
  hl7Failure?: string;
  warnings: string[];
}

/** What one pass carries from stage to stage (phi/engine.ts `#stages`). */
interface PassState {
  /** The text the pass reads (never changed; `out` is what it becomes). */
  readonly text: string;
  readonly o: PassOptions;
  readonly mode: AutoPhiMode;
  readonly dryRun: boolean;
  /** The automatic tiers run (mode not `off`, no `!nophi`). */
  readonly autoOn: boolean;
  /** Fenced code is protected (what the operator types). */
  readonly fences: boolean;
  readonly warnings: string[];
  /** Every value that gets a token, in any order until the `forms` stage sorts them. */
  readonly chosen: Candidate[];
  /** What the automatic tiers found (before confirm mode), for the repeat sweep. */
  found: Candidate[];
  /** Ranges already claimed by markers, records and listings. */
  readonly taken: SpanSet;
  /** The records found (HL7 segments and the other formats), when any. */
  scan: Hl7Scan | undefined;
  hl7Shaped: boolean;
  hl7Failure: string | undefined;
  /** Tokens of our shape the text holds already: never minted again for a new value. */
  readonly avoid: ReadonlySet<string>;
  /** The text after substitution (and the base64 pass). */
  out: string;
}

/** A named stage of the pass. */
interface PassStage {
  readonly name: string;
  /** Runs only when the automatic tiers run. */
  readonly auto?: boolean;
  /** Writes tokens or text: skipped on a dry run. */
  readonly writes?: boolean;
  run(s: PassState): void | Promise<void>;
}

/** The one line a `!nophi` prompt gives the operator (no value in it). */
export const NOPHI_NOTICE =
  "phi> !nophi: sent without the automatic PHI tiers (markers, HL7 fields and values already tokenized still apply)";

/** The same under `/phi-auto off`, where no automatic tier runs at all. */
export const NOPHI_NOTICE_OFF =
  "phi> !nophi: sent without the automatic PHI tiers (they are off; markers and HL7 fields still apply)";

const KNOWN_ONLY: ReadonlySet<"known"> = new Set(["known"]);

const CONFIRM_TIERS = new Set<Tier>(["hl7", "known", "sidecar", "names"]);

/**
 * The engine. One per session (confirm decisions and one-time warnings live here).
 *
 * @example
 * ```ts
 * import { createPhiEngine } from "./engine.ts";
 * import { loadConfig } from "../core/config.ts";
 * declare const raw: string, chunk: string;
 * const phi = await createPhiEngine({ config: loadConfig() });
 * const { text, notice } = await phi.tokenizeUserInput("MRN 12345678 for @@John Smith@@");
 * // text: "MRN [[MRN_1]] for [[NAME_1]]"; notice: "phi> auto-tokenized 1 value(s) [user_input]: MRN×1"
 * const tool = await phi.sanitizeToolResult(raw, "bash_exec");
 * if (tool.refused) console.log("withheld"); // the model gets tool.text either way
 * const shown = phi.createStreamDetokenizer();
 * const visible = shown.push(chunk) + shown.flush();
 * const input = phi.detokenizeToolInput({ pattern: "[[MRN_1]]" }).value; // { pattern: "12345678" }
 * ```
 */
export class PhiEngine {
  readonly table: LookupTable;
  readonly #config: PhiEngineOptions["config"];
  readonly #prompter?: PhiPrompter;
  readonly #tier5?: Tier5;
  readonly #known: KnownIndex;
  readonly #now: () => Date;
  readonly #scanHl7: (text: string) => Hl7Scan;
  readonly #paths: ReturnType<typeof homePaths>;
  readonly #decisions = new Map<string, boolean>();
  /** Which rows a pass reported already, and where each row was audited this session. */
  readonly #audit = new AuditBook();
  #mode: AutoPhiMode;
  #turnAuto = true;
  #tableWarned = false;
  readonly #storedOnly: boolean;
  /**
   * Token-shaped texts the operator's text or a tool result held with no row in the table (a typed
   * `[[MRN_1]]`): never minted for a value in this session, on any surface or layer (base64).
   */
  readonly #typedTokens = new Set<string>();

  /** Use `createPhiEngine`. */
  constructor(options: PhiEngineOptions, table: LookupTable) {
    this.table = table;
    this.#config = options.config;
    this.#prompter = options.prompter;
    const sidecar = options.sidecar === false ? undefined : options.sidecar ?? new SidecarClient({
      port: options.config.phiPort,
      tokenFile: options.config.phiVenv ? sidecarFiles(options.config.phiVenv).tokenFile : undefined,
    });
    this.#known = new KnownIndex(table);
    this.#now = options.now ?? (() => new Date());
    this.#scanHl7 = options.hl7Scanner ?? scanHl7;
    this.#paths = homePaths(options.config.home);
    // Tier 5: the sidecar, and the built-in name recognizer (phi/tier5.ts decides when it runs).
    const names = options.config.phiNames ?? "auto";
    if (sidecar || names !== "off") {
      this.#tier5 = new Tier5({
        sidecar,
        names,
        config: options.config,
        noticeFlag: this.#paths.phiNoticeShown,
        sessionId: options.sessionId,
      });
    }
    this.#mode = options.config.autoPhi;
    this.#storedOnly = options.storedTokensOnly === true;
  }

  /** The auto-PHI mode (`/phi-auto`). */
  get mode(): AutoPhiMode {
    return this.#mode;
  }

  set mode(m: AutoPhiMode) {
    this.#mode = m;
  }

  /** Reads rows other processes appended to the lookup table. */
  refresh(): Promise<void> {
    return this.table.refresh();
  }

  // ---- outbound -----------------------------------------------------------------------------------

  /**
   * A prompt (typed, `@file`-expanded, `/load`ed or templated) before it goes to the model: the
   * `!nophi ` prefix, manual markers, the HL7 sanitizer on HL7-shaped text, then the automatic tiers
   * (unless `off` or `!nophi`), then the base64 pass. Sets the turn's `!nophi` state for the tool results that follow.
   * Throws PhiRefusedError in strict mode when the text cannot be sanitized.
   */
  async tokenizeUserInput(text: string): Promise<UserInputResult> {
    const { text: body, nophi } = stripNoPhi(text);
    this.#turnAuto = !nophi;
    const out = await this.#pass(body, {
      surface: "user_input",
      source: "prompt",
      markers: true,
      hl7: true,
      auto: !nophi,
      base64: true,
    });
    if (out.hl7Failure && this.#mode === "strict") throw new PhiRefusedError(out.hl7Failure);
    const done = await this.#finish(out, "user_input", "prompt");
    if (nophi) done.warnings.unshift(this.#mode === "off" ? NOPHI_NOTICE_OFF : NOPHI_NOTICE);
    return { ...done, nophi };
  }

  /**
   * A tool result before it goes to the model: shape test → HL7 sanitizer → automatic tiers →
   * base64 pass → review gate. In strict mode a result that cannot be sanitized is replaced by the
   * refusal sentinel; a `n` at the review gate replaces it by the refusal JSON. `text` is what the
   * model gets in every case.
   */
  async sanitizeToolResult(
    text: string,
    toolName: string,
    options: { review?: boolean } = {},
  ): Promise<ToolResultSanitized> {
    const strict = this.#mode === "strict";
    let out: PassOut;
    try {
      out = await this.#pass(text, {
        surface: "tool_result",
        source: toolName,
        markers: false,
        hl7: true,
        auto: this.#turnAuto,
        base64: true,
      });
    } catch (err) {
      if (strict && err instanceof PhiRefusedError) {
        return this.#refused(toolName, "value tokenization failed", isHl7Shaped(text));
      }
      throw err;
    }
    if (out.hl7Failure && strict) return this.#refused(toolName, out.hl7Failure, out.hl7Shaped);
    const done = await this.#finish(out, "tool_result", toolName);
    const result: ToolResultSanitized = { ...done, hl7Shaped: out.hl7Shaped, reviewed: false };
    const gate = await reviewGate(this.#prompter, {
      mode: this.#mode,
      review: this.#config.toolResultReview,
      threshold: this.#config.toolResultReviewThreshold,
      toolName,
      reviewed: options.review === true,
      raw: text,
      text: done.text,
      hl7Shaped: out.hl7Shaped,
      tokenized: done.tokenized.length,
    });
    result.reviewed = gate.reviewed;
    if (gate.withhold) {
      result.text = reviewRefusal(toolName);
      result.refused = "review";
    }
    return result;
  }

  #refused(toolName: string, reason: string, hl7Shaped: boolean): ToolResultSanitized {
    return {
      text: strictRefusal(toolName, reason),
      tokenized: [],
      warnings: [`phi> strict: the ${toolName} result was withheld (${reason})`],
      refused: "strict",
      hl7Shaped,
      reviewed: false,
    };
  }

  /**
   * Tokenizes one value by hand (e.g. a future `/phi-add`), with a category or the auto-detected
   * one. Not audited (it is not automatic).
   *
   * @example
   * ```ts
   * import { createPhiEngine } from "./engine.ts";
   * import { loadConfig } from "../core/config.ts";
   * const phi = await createPhiEngine({ config: loadConfig() });
   * await phi.tokenizeValue("E1234", "EMP"); // "[[EMP_1]]"
   * ```
   */
  async tokenizeValue(value: string, category?: string): Promise<string> {
    const cat = category ?? detectCategory(value);
    if (!CATEGORY_RE.test(cat)) {
      throw new AssistError(`bad PHI category "${cat}": letters, digits and _ only`, { level: "usage" });
    }
    const canonical = canonicalize(cat, value);
    if (canonical === "") {
      throw new AssistError("nothing to tokenize: the value is empty", { level: "usage" });
    }
    const [token] = await this.table.assign([{ category: cat, canonical, original: value.trim() }]);
    return token;
  }

  /**
   * What a pass over `text` would tokenize (all tiers as in mode `on`, no prompts, nothing written).
   * For `phi_scan`.
   */
  async scan(text: string, surface: Surface = "tool_result"): Promise<ScanFinding[]> {
    const out = await this.#pass(text, {
      surface,
      source: "phi_scan",
      markers: surface === "user_input",
      hl7: true,
      auto: true,
      base64: false,
      dryRun: true,
    });
    return out.chosen.map((c) => ({
      start: c.start,
      end: c.end,
      value: c.value,
      category: c.category,
      canonical: c.canonical,
      tier: c.tier,
      context: c.context,
      token: this.table.get(c.canonical)?.token,
    }));
  }

  // ---- inbound ------------------------------------------------------------------------------------

  /** Restores known tokens in text shown to the operator (also inside base64-encoded HL7). */
  detokenize(text: string): Detokenized {
    const resolve = (t: string, field: boolean) => this.table.valueOf(t, field);
    const d = detokenizeText(text, resolve);
    if (text.length < MIN_KEYED) return d;
    const restored = [...d.restored];
    const unknown = [...d.unknown];
    // Tokens inside base64, and inside base64 of base64 (one layer deeper, as the pass decodes).
    const layer = (decoded: string, depth: number): string | undefined => {
      if (decoded.indexOf("[[") === -1) {
        if (depth > 0 || decoded.length < MIN_KEYED) return undefined;
        const deeper = mapBase64Runs(decoded, (d) => layer(d, depth + 1));
        return deeper === decoded ? undefined : deeper;
      }
      const inner = detokenizeText(decoded, resolve);
      for (const t of inner.restored) restored.push(t);
      for (const t of inner.unknown) unknown.push(t);
      return inner.text;
    };
    const out = mapBase64Runs(d.text, (decoded) => layer(decoded, 0));
    return { text: out, restored, unknown };
  }

  /** A stream detokenizer for model text shown as it arrives (tokens split across chunks restored). */
  createStreamDetokenizer(): StreamDetokenizer {
    return makeStream((t, field) => this.table.valueOf(t, field));
  }

  /** Restores tokens in every string of a tool input before the tool runs. */
  detokenizeToolInput<T>(input: T): { value: T; restored: string[] } {
    return detokenizeJson(input, (t, field) => this.table.valueOf(t, field));
  }

  // ---- the pass -----------------------------------------------------------------------------------

  /**
   * One pass over `text`: the stages of {@link PASS_STAGES}, in order, over one {@link PassState}.
   * A dry run (`phi_scan`) skips the stages that write (tokens, substitution, base64) and never asks.
   */
  async #pass(text: string, o: PassOptions): Promise<PassOut> {
    const mode = o.dryRun ? "on" : this.#mode;
    const s: PassState = {
      text,
      o,
      mode,
      dryRun: o.dryRun === true,
      autoOn: o.auto && mode !== "off",
      // Fenced code is protected only in what the operator types (never in tool results).
      fences: o.surface === "user_input",
      warnings: [],
      chosen: [],
      found: [],
      taken: new SpanSet(),
      scan: undefined,
      hl7Shaped: false,
      hl7Failure: undefined,
      avoid: this.#avoid(text),
      out: text,
    };
    for (const stage of this.#stages) {
      if (s.dryRun && stage.writes) continue;
      if (stage.auto && !s.autoOn) continue;
      await stage.run(s);
    }
    return {
      text: s.out,
      chosen: s.chosen,
      hl7Shaped: s.hl7Shaped,
      hl7Failure: s.hl7Failure,
      warnings: s.warnings,
    };
  }

  /**
   * The stages of a pass, in order. Each reads and extends the pass state; the contract of each is
   * the comment above it. `auto`: only when the automatic tiers run (mode not `off`, no `!nophi`);
   * `writes`: mints tokens or changes the text (skipped on a dry run).
   */
  readonly #stages: readonly PassStage[] = [
    // Reads rows other processes appended. A table that cannot be read: strict stops the turn,
    // other modes go on with what is in memory (one warning per session).
    { name: "table", run: (s) => this.#refreshStage(s) },
    // `@@VALUE`, `@@VALUE@@`, `{{phi:VALUE}}` in what the operator types: tokenized whatever the mode.
    { name: "markers", run: (s) => this.#markerStage(s) },
    // HL7 v2 by the field policy (phi/hl7_sanitize.ts), then segments inside carriers (XML, JSON,
    // Tcl lists, SQL and CSV strings, log prefixes, written-out controls: phi/embedded_hl7.ts).
    // A sanitizer that threw on HL7-shaped text is not asked again (strict mode refuses the text);
    // one that found no segment may find them in the decoded carrier.
    { name: "hl7", run: (s) => this.#hl7Stage(s) },
    // Records of the other formats the engine moves (X12, NCPDP, FHIR, CDA, extracts, Tcl and engine
    // output), by structure as the HL7 field policy is (phi/records.ts); their values join the scan.
    { name: "records", run: (s) => this.#recordStage(s) },
    // Field listings (values printed next to their field path by the HL7 tools) and caret names in
    // free-text fields: a structured pre-pass, so a name in OBX.5 is known the first time it is seen.
    { name: "listings", auto: true, run: (s) => this.#listingStage(s) },
    // Tokens for markers and fields first, so the automatic tiers see them as known values.
    // An SSN-shaped id that is also an SSN elsewhere takes the SSN's category (phi/prefer_ssn.ts).
    {
      name: "assign-structured",
      run: (s) => {
        preferSsn(s.text, s.chosen, this.#isKnown);
        return this.#assign(s.chosen, s);
      },
    },
    // Tiers 1-4 (phi/detect.ts): on the whole text, or on the scan's free regions with tier 1 alone
    // on the rest of its records.
    { name: "tiers", auto: true, run: (s) => this.#tierStage(s) },
    // Under `!nophi` (the automatic tiers skipped for a turn), values the table already holds stay
    // tokenized: otherwise the model could link their earlier tokens to the real values.
    { name: "known-under-nophi", run: (s) => this.#knownStage(s) },
    // Names given by their key (`"lastName": "Doe"`, `<lastName>`): the key is a cue, so before
    // tier 5 (which might take part of the value).
    { name: "keyed-names", auto: true, run: (s) => this.#keyedNameStage(s) },
    // Tier 5: the sidecar and the built-in name recognizer, on a copy with every span so far masked.
    { name: "tier5", auto: true, run: (s) => this.#tier5Stage(s) },
    // Confirm mode asks for tiers 3-5 (once per value per session); what is kept gets its tokens.
    { name: "confirm", auto: true, run: (s) => this.#confirmStage(s) },
    // A value the automatic tiers found once is PHI wherever else it stands in the same text
    // (`MRN 12345678 ... MR# 12345678`), and one word of a name found here standing alone.
    { name: "repeats", auto: true, run: (s) => this.#repeatStage(s) },
    // Every value tokenized here is PHI wherever else it stands in the text, in its written forms
    // (phi/sweep.ts): fields a broken sender shifted, unknown segments, AL1 text, lines that are no
    // segment. A known form covering a field policy's guess inside it replaces the guess.
    { name: "sweep", auto: true, run: (s) => this.#sweepStage(s) },
    // The form each name token stood for here, in an HL7 field or in prose (detokenize gives it back).
    { name: "forms", run: (s) => this.#formStage(s) },
    // The text with each chosen value replaced by its token.
    { name: "substitute", writes: true, run: (s) => void (s.out = substitute(s.text, s.chosen)) },
    // Base64 runs that decode to text go through the same pass (phi/base64.ts).
    { name: "base64", writes: true, run: (s) => this.#base64Stage(s) },
  ];

  async #refreshStage(s: PassState): Promise<void> {
    try {
      await this.table.refresh();
    } catch (err) {
      const why = ioReason(err);
      if (s.mode === "strict" || this.#storedOnly) {
        throw new PhiRefusedError(`the lookup table ${this.table.path} could not be read (${why})`);
      }
      if (!this.#tableWarned) {
        this.#tableWarned = true;
        s.warnings.push(
          `phi> the lookup table ${this.table.path} could not be read (${why}); using what is in memory`,
        );
      }
    }
  }

  #markerStage(s: PassState): void {
    if (!s.o.markers) return;
    for (const m of findMarkers(s.text)) {
      if (m.value.indexOf("[[") !== -1 && holdsToken(m.value)) {
        // A marker around a token and more (`@@[[NAME_1]] Vanderhoeven@@`): the token stays as it is
        // and what else the operator marked is tokenized, the marker's signs left in place.
        const at = s.text.indexOf(m.value, m.start);
        const whole = candidate(at, at + m.value.length, m.value, "MANUAL", m.value, "manual");
        for (const p of aroundTokens(whole)) {
          const category = detectCategory(p.value);
          const c = candidate(p.start, p.end, p.value, category, canonicalize(category, p.value), "manual");
          if (c.canonical !== "" && s.taken.add(c.start, c.end)) s.chosen.push(c);
        }
        continue;
      }
      // A marker around part of a token marks nothing: a token is never taken apart.
      if (m.value.includes("[[") || m.value.includes("]]")) continue;
      const category = detectCategory(m.value);
      const canonical = canonicalize(category, m.value);
      if (canonical === "") continue;
      const c = candidate(m.start, m.end, m.value, category, canonical, "manual");
      if (s.taken.add(c.start, c.end)) s.chosen.push(c);
    }
  }

  #hl7Stage(s: PassState): void {
    if (!s.o.hl7) return;
    const text = s.text;
    s.hl7Shaped = isHl7Shaped(text);
    if (s.hl7Shaped) {
      try {
        s.scan = this.#scanHl7(text);
        if (s.scan.segments.length === 0) {
          s.hl7Failure = "the HL7 sanitizer found no segment in HL7-shaped content";
        }
      } catch {
        s.hl7Failure = "the HL7 sanitizer failed on HL7-shaped content";
        s.scan = undefined;
      }
    }
    if (s.scan !== undefined || !s.hl7Shaped) {
      let wider: Hl7Scan | undefined;
      try {
        wider = embeddedScan(text, s.scan, this.#scanHl7);
      } catch {
        wider = undefined;
      }
      if (wider) {
        s.scan = wider;
        if (wider.segments.length > 0) s.hl7Failure = undefined;
      }
    }
  }

  #recordStage(s: PassState): void {
    if (s.o.hl7) s.scan = scanRecords(s.text, s.scan);
    for (const c of s.scan?.structured ?? []) {
      for (const p of aroundTokens(c)) if (s.taken.add(p.start, p.end)) s.chosen.push(p);
    }
  }

  async #listingStage(s: PassState): Promise<void> {
    const text = s.text;
    const listed: Candidate[] = [];
    const caret = (s.scan?.free ?? []).flatMap((f) => findCaretNames(text, f.start, f.end));
    for (const c0 of [...findFieldListings(text), ...caret]) {
      for (const c of aroundTokens(c0)) {
        // An ISO date is a birth date only with a DOB cue nearby, unless a field path decided (exact).
        if (
          !c.exact && c.category === "DOB" && /^\d{4}-\d{2}-\d{2}/.test(c.value) &&
          !hasDobContext(text, c.start)
        ) {
          continue;
        }
        if (s.taken.add(c.start, c.end)) listed.push(c);
      }
    }
    for (const c of await this.#confirmed(listed, s)) s.chosen.push(c);
  }

  #tierStage(s: PassState): void {
    const found = s.scan ? this.#autoHl7(s.text, s.scan, s.taken, s.fences) : detectAuto(s.text, {
      protect: protectedSpans(s.text, s.fences),
      known: this.#known,
      taken: s.taken,
    });
    for (const c of found) s.found.push(c);
  }

  async #knownStage(s: PassState): Promise<void> {
    if (s.autoOn || s.o.auto || s.mode === "off") return;
    const known = detectAuto(s.text, {
      protect: protectedSpans(s.text, s.fences),
      known: this.#known,
      taken: s.taken,
      tiers: KNOWN_ONLY,
    });
    await this.#assign(known, s);
    for (const c of known) s.chosen.push(c);
  }

  #keyedNameStage(s: PassState): void {
    for (const c of this.#keyedNames(s.text, s.chosen, s.found, s.fences)) s.found.push(c);
  }

  async #tier5Stage(s: PassState): Promise<void> {
    if (!this.#tier5) return;
    const all = SpanSet.union([...s.chosen, ...s.found].map((c) => ({ start: c.start, end: c.end })));
    for (const c of await this.#tier5.find(s.text, all, s.scan, s.warnings, s.fences)) s.found.push(c);
  }

  async #confirmStage(s: PassState): Promise<void> {
    const kept = (await this.#confirmed(s.found, s)).flatMap(aroundTokens);
    s.found = kept;
    for (const c of kept) s.chosen.push(c);
    preferSsn(s.text, s.chosen, this.#isKnown, false);
    await this.#assign(kept, s);
  }

  async #repeatStage(s: PassState): Promise<void> {
    if (s.found.length > 0) {
      const again = repeatsOf(s.text, s.found, s.chosen, s.fences);
      await this.#assign(again, s);
      for (const c of again) s.chosen.push(c);
    }
    // One word of a name tokenized in this text, standing alone (`Vanderhoeven called back`).
    const words = nameWordsOf(s.text, s.chosen, s.fences, s.scan ? freeRegions(s.text, s.scan) : undefined);
    if (words.length > 0) {
      await this.#assign(words, s);
      for (const c of words) s.chosen.push(c);
    }
  }

  async #sweepStage(s: PassState): Promise<void> {
    if (s.chosen.length === 0) return;
    const sweep = sweepKnown(s.text, s.chosen.filter(sweptValue), s.chosen, s.fences);
    if (sweep.add.length === 0) return;
    await this.#assign(sweep.add, s);
    if (sweep.drop.size > 0) {
      let w = 0;
      for (const c of s.chosen) if (!sweep.drop.has(c)) s.chosen[w++] = c;
      s.chosen.length = w;
    }
    for (const c of sweep.add) s.chosen.push(c);
  }

  #formStage(s: PassState): void {
    s.chosen.sort((a, b) => a.start - b.start);
    if (s.dryRun) return;
    // In an HL7 field or in prose, decided as the detokenizer decides (phi/detokenize.ts inHl7Field).
    const named = s.chosen.filter((c) => c.row && c.context !== NAME_WORD && isName(c.row.category));
    const fields = fieldFlags(s.text, named);
    for (let i = 0; i < named.length; i++) this.table.seen(named[i].row!, named[i].value, fields[i]);
  }

  async #base64Stage(s: PassState): Promise<void> {
    if (!s.o.base64) return;
    const nested = await this.#base64Pass(s.out, s.o, s.warnings);
    s.out = nested.text;
    for (const c of nested.chosen) s.chosen.push(c);
  }

  /** The session's typed tokens, with those of `text` that name no row added. */
  #avoid(text: string): ReadonlySet<string> {
    for (const t of tokensIn(text)) if (!this.table.byToken(t)) this.#typedTokens.add(t);
    return this.#typedTokens;
  }

  /** True when the table holds the canonical value (preferSsn's question). */
  readonly #isKnown = (canonical: string) => this.table.get(canonical) !== undefined;

  /** Confirm mode's answer for `found` (all of it in other modes and on a dry run). */
  #confirmed(found: Candidate[], s: PassState): Promise<Candidate[]> | Candidate[] {
    return s.dryRun || s.mode !== "confirm" ? found : this.#confirm(found, s.o);
  }

  /**
   * The keyed names of `text` outside `chosen` and the protected ranges (a JSON key's own range
   * aside: the value is what is read). A family and a given name of one record are two values, each
   * with its token, so both come back exactly.
   */
  #keyedNames(
    text: string,
    chosen: readonly Candidate[],
    found: readonly Candidate[],
    fences: boolean,
  ): Candidate[] {
    if (text.indexOf('"') === -1 && text.indexOf("<") === -1 && text.indexOf("=") === -1) return [];
    let taken: SpanSet | undefined; // built when the first keyed name is found
    let protect: SpanSet | undefined;
    return keyedNameCandidates(text, (s, e) => {
      taken ??= SpanSet.union([...chosen, ...found].map((c) => ({ start: c.start, end: c.end })));
      if (taken.overlaps(s, e)) return true;
      protect ??= SpanSet.union(protectedRanges(text, true, fences).filter((p) => p.kind !== "json_key"));
      return protect.overlaps(s, e);
    });
  }

  /**
   * The automatic tiers on HL7-shaped text: all of tiers 1–4 on the text outside segments and on
   * free-text fields; tier 1 alone on the rest of the segments (values the field policy does not
   * name, e.g. an e-mail in an unexpected field).
   */
  #autoHl7(text: string, scan: Hl7Scan, taken: SpanSet, fences: boolean): Candidate[] {
    const found: Candidate[] = [];
    // All regions in one text (joined by blank lines, so no line-based rule crosses them): one pass
    // of each rule instead of one per field. Candidates are mapped back to their region.
    const regions = freeRegions(text, scan);
    if (regions.length > 0) {
      const joined = new JoinedRegions(text, regions);
      // A fence opened in one region and closed in another is not a fence of the original text.
      const protect = SpanSet.union(
        protectedRanges(joined.text, true, fences).filter((p) =>
          p.kind !== "fence" || joined.regionOf(p.start, p.end) !== -1
        ),
      );
      const got = detectAuto(joined.text, { protect, known: this.#known, taken: joined.toJoined(taken) });
      for (const c of got) {
        const k = joined.regionOf(c.start, c.end);
        if (k === -1) continue; // would cross into the next region
        c.start = joined.toSource(k, c.start);
        c.end = joined.toSource(k, c.end);
        found.push(c);
      }
    }
    const segs = SpanSet.of(scan.segments);
    const free = SpanSet.of(scan.free);
    const local = new SpanSet();
    const skip = (s: number, e: number) => taken.overlaps(s, e) || !segs.overlaps(s, e) || free.covers(s, e);
    for (const c of findDefinite(text, skip, false)) {
      // The never-tokenize list, checked on the candidate's own line.
      const ls = lineStart(text, c.start);
      let le = c.end;
      while (le < text.length && text.charCodeAt(le) !== 10 && text.charCodeAt(le) !== 13) le++;
      if (protectedSpans(text.slice(ls, le), fences).overlaps(c.start - ls, c.end - ls)) continue;
      if (local.add(c.start, c.end)) found.push(c);
    }
    return found.sort((a, b) => a.start - b.start);
  }

  /**
   * Base64 runs that decode to text (either alphabet, any wrap, UTF-8 or Latin-1; spec "Limits",
   * issue #14 class 2) go through the same pass as any text: the HL7 sanitizer when the text is
   * HL7-shaped, and the automatic tiers either way (an OBX ED report, a note). A run whose text
   * changed is written back in its own alphabet, padding, character set and layout; others are
   * untouched.
   */
  async #base64Pass(
    text: string,
    o: PassOptions,
    warnings: string[],
  ): Promise<{ text: string; chosen: Candidate[] }> {
    const chosen: Candidate[] = [];
    if (text.length < MIN_KEYED) return { text, chosen };
    const runs = decodedRuns(text);
    if (runs.length === 0) return { text, chosen };
    // A run inside a fenced block the operator typed is theirs to show as it is.
    const typedFences = o.surface === "user_input"
      ? SpanSet.union(protectedRanges(text).filter((p) => p.kind === "fence"))
      : undefined;
    let out = "";
    let at = 0;
    for (const r of runs) {
      if (typedFences?.overlaps(r.run.start, r.run.end)) continue;
      const decoded = r.text;
      // Base64 inside the decoded text is decoded too, one layer deeper at most (base64 of base64).
      const depth = (o.base64Depth ?? 0) + 1;
      const inner = await this.#pass(decoded, {
        ...o,
        base64: depth < 2 && B64_TEXT.test(decoded.slice(0, 256)),
        base64Depth: depth,
        markers: false,
      });
      if (inner.hl7Failure && this.#mode === "strict") throw new PhiRefusedError(inner.hl7Failure);
      warnings.push(...inner.warnings);
      if (inner.text === decoded) continue;
      // Written back in the run's own set; a set assist cannot write (GB 18030, Big5) gets UTF-8,
      // with a warning, rather than the untokenized original.
      let encoded = encodeRunText(inner.text, r.encoding);
      if (encoded === undefined) {
        encoded = encodeRunText(inner.text, { ...r.encoding, latin1: false, charset: undefined })!;
        warnings.push(
          "a base64-encoded text was written back as UTF-8 (its own character set cannot be written)",
        );
      }
      for (const c of inner.chosen) {
        if (c.token !== undefined) {
          const nested = candidate(
            c.start,
            c.end,
            c.value,
            c.category,
            c.canonical,
            c.tier,
            `base64 ${c.context ?? ""}`.trim(),
            c.exact,
          );
          nested.token = c.token;
          nested.row = c.row;
          chosen.push(nested);
        }
      }
      out += text.slice(at, r.run.start) + layoutLike(encoded, r.run);
      at = r.run.end;
    }
    return { text: at === 0 ? text : out + text.slice(at), chosen };
  }

  /** Confirm mode: tiers 3, 4 and 5 ask (once per canonical value per session); 1 and 2 never ask. */
  async #confirm(found: Candidate[], o: PassOptions): Promise<Candidate[]> {
    const kept: Candidate[] = [];
    for (const c of found) {
      if (!CONFIRM_TIERS.has(c.tier)) {
        kept.push(c);
        continue;
      }
      let yes = this.#decisions.get(c.canonical);
      if (yes === undefined) {
        yes = this.#prompter
          ? await this.#prompter.confirmValue({
            value: c.value,
            category: c.category,
            tier: c.tier,
            surface: o.surface,
            context: c.context ? `${o.source} ${c.context}` : o.source,
          })
          : true;
        this.#decisions.set(c.canonical, yes);
      }
      if (yes) kept.push(c);
    }
    return kept;
  }

  /**
   * Sets `token` (and the token's category) on each candidate, minting new rows as needed (not on a
   * dry run). A candidate whose value holds a token of ours gets none: no row's value ever holds a
   * token, and no new token is one the text already holds.
   */
  async #assign(cands: Candidate[], s: PassState): Promise<void> {
    if (s.dryRun) return;
    const warnings = s.warnings;
    const todo: Candidate[] = [];
    for (const c of cands) {
      if (c.token !== undefined) continue;
      if (c.value.indexOf("[[") !== -1 && holdsToken(c.value)) continue;
      const row = this.table.get(c.canonical);
      if (row) {
        c.token = row.token;
        c.row = row;
        c.category = row.category; // the token's category, whatever this tier guessed
      } else todo.push(c);
    }
    if (todo.length === 0) return;
    const requests: TokenRequest[] = todo.map((c) => ({
      category: c.category,
      canonical: c.canonical,
      original: c.value,
    }));
    let got: LookupRow[];
    try {
      got = await this.table.assignRows(requests, s.avoid);
    } catch (err) {
      const why = ioReason(err);
      if (this.#mode === "strict" || this.#storedOnly) {
        throw new PhiRefusedError(
          `the lookup table ${this.table.path} could not be written (${why}); ` +
            "free space or fix its permissions, then run again",
        );
      }
      got = this.table.rememberRows(requests, s.avoid);
      if (!this.#tableWarned) {
        this.#tableWarned = true;
        warnings.push(
          `phi> the lookup table ${this.table.path} could not be written (${why}); ` +
            "new tokens are this session's own until it can be written again " +
            "(free space or fix its permissions)",
        );
      }
    }
    for (const w of this.table.takeWarnings()) warnings.push(w);
    for (let i = 0; i < todo.length; i++) {
      const c = todo[i], row = got[i];
      c.token = row.token;
      c.row = row;
      c.category = row.category;
    }
  }

  /**
   * Distinct tokenizations, notice, audit records. The audit log gets each value once per session,
   * surface and source (tool name or prompt), with the tier and field of its first sighting, so a
   * message seen again in a later turn does not grow the log; the notice always counts what this
   * pass tokenized.
   */
  async #finish(out: PassOut, surface: Surface, source: string): Promise<PhiTextResult> {
    const tokenized: Tokenization[] = [];
    const audit = new AuditLines(this.#now().toISOString(), surface, source);
    const categories: string[] = [];
    const placeKey = `${surface}\u0000${source}`;
    // Distinct values are told apart by their lookup row (rows of values kept in memory only too).
    const book = this.#audit;
    book.nextPass();
    for (const c of out.chosen) {
      const row = c.row;
      if (c.token === undefined || row === undefined) continue;
      if (!book.firstInPass(row)) continue;
      const token = c.token;
      const category = c.category;
      // The candidate itself (it has every field of a Tokenization): no copy per value.
      tokenized.push(c as Tokenization);
      if (c.tier === "manual") continue;
      categories.push(category);
      if (!book.firstAt(row, placeKey)) continue;
      audit.add(c.value, category, token, c.tier, c.context);
    }
    const warnings = [...out.warnings];
    try {
      await appendAuditText(this.#paths.autoPhiLog, audit.text);
    } catch (err) {
      warnings.push(`phi> the audit log ${this.#paths.autoPhiLog} could not be written (${ioReason(err)})`);
    }
    return {
      text: out.text,
      tokenized,
      notice: noticeLine(surface, categories),
      warnings,
    };
  }
}

/** Replaces each chosen candidate (sorted, disjoint) by its token. */
function substitute(text: string, chosen: Candidate[]): string {
  if (chosen.length === 0) return text;
  const parts: string[] = [];
  let at = 0;
  for (const c of chosen) {
    const t = c.token;
    if (t === undefined || c.start < at) continue;
    parts.push(text.slice(at, c.start), t);
    at = c.end;
  }
  parts.push(text.slice(at));
  return parts.join("");
}

/**
 * Opens the lookup table of `config.home` and builds the engine.
 *
 * @example
 * ```ts
 * import { createPhiEngine } from "./engine.ts";
 * import type { PhiPrompter } from "./prompter.ts";
 * import { loadConfig } from "../core/config.ts";
 * declare const prompter: PhiPrompter;
 * const phi = await createPhiEngine({ config: loadConfig(), prompter, sessionId: "20261124-ab12" });
 * ```
 */
export async function createPhiEngine(options: PhiEngineOptions): Promise<PhiEngine> {
  const table = await LookupTable.open(homePaths(options.config.home).lookup);
  return new PhiEngine(options, table);
}

/**
 * The values the sweep looks for again: the person's own (HL7: PID, PD1, MRG, and the relatives,
 * guarantor and insured of NK1, GT1, IN1, IN2), and every value a marker, another record format or
 * a tier found. A provider's name or NPI in OBX, ORC or PV1 is not swept (there are many of them in
 * a batch, they rarely stand outside their fields, and the sweep would cost more than the pass).
 */
function sweptValue(c: Candidate): boolean {
  if (c.tier !== "hl7_pipeline") return true;
  const id = c.context?.slice(0, 3);
  return id === "PID" || id === "PD1" || id === "MRG" || id === "NK1" || id === "GT1" || id === "IN1" ||
    id === "IN2";
}

/** The tokens of our shape in `text` (empty for most texts: no `[[`). */
function tokensIn(text: string): ReadonlySet<string> {
  if (text.indexOf("[[") === -1) return NO_TOKENS;
  return new Set(text.match(MINTED_TOKEN_RE) ?? []);
}

const NO_TOKENS: ReadonlySet<string> = new Set();

/**
 * A candidate whose value holds tokens of ours and other text (`[[NAME_1]]^Marisol^Q`: a field of a
 * text sanitized once, then edited) as the candidates of the text around its tokens, each trimmed of
 * delimiters and spaces, in the same category: the tokens stay, the rest is tokenized (never a token
 * of a token). Any other candidate as it is.
 */
function aroundTokens(c: Candidate): Candidate[] {
  if (c.value.indexOf("[[") === -1 || !holdsToken(c.value)) return [c];
  const out: Candidate[] = [];
  const piece = (a: number, b: number) => {
    const v = c.value;
    while (a < b && EDGE.includes(v[a])) a++;
    while (b > a && EDGE.includes(v[b - 1])) b--;
    if (b <= a || !/[\p{L}\p{N}]/u.test(v.slice(a, b))) return;
    const value = v.slice(a, b);
    // A token shifts the components after it (`[[NAME_2]]^^^DR` from `HOUSE^GREGORY^^^DR`): a
    // prefix, suffix or degree left beside a name token is that name's, not another person's.
    if (c.category === "NAME" && value.split(/[\s^~&]+/).every((w) => NAME_AFFIX.test(w))) return;
    const canonical = canonicalize(c.category, value);
    if (canonical !== "") {
      out.push(candidate(c.start + a, c.start + b, value, c.category, canonical, c.tier, c.context, c.exact));
    }
  };
  let at = 0;
  for (const m of c.value.matchAll(new RegExp(MINTED_TOKEN_RE.source, "g"))) {
    piece(at, m.index);
    at = m.index + m[0].length;
  }
  piece(at, c.value.length);
  return out;
}

/** Name prefixes, suffixes and degrees (XPN/XCN components 4–6). */
const NAME_AFFIX =
  /^(?:dr|mr|mrs|ms|miss|mx|prof|rev|sr|jr|ii|iii|iv|v|md|do|phd|rn|np|pa|dds|dmd|esq|mba|msn|bsn|lpn|crna)\.?$/i;

/** Characters trimmed off the text around a token: delimiters and spaces. */
const EDGE = "^~&|\\ \t,;/";

/** True when `value` holds a token of our shape. */
function holdsToken(value: string): boolean {
  MINTED_TOKEN_RE.lastIndex = 0;
  const yes = MINTED_TOKEN_RE.test(value);
  MINTED_TOKEN_RE.lastIndex = 0; // a global regex shared across the module graph: leave it as found
  return yes;
}

/** A decoded text that starts as base64 itself (base64 of base64): the only kind decoded again. */
const B64_TEXT = /^[\s"'=:,{[\w]{0,32}[A-Za-z0-9+/_-]{16}/;

/** Shortest value the repeat sweep looks for (shorter ones are too often parts of other words). */
const MIN_REPEAT = 4;

/**
 * Other occurrences in `text` of the values of `found`, as whole values (no letter or digit on
 * either side), outside every chosen span and, for what the operator types, outside fenced code:
 * candidates with the same category and canonical value, so they get the same token.
 */
function repeatsOf(
  text: string,
  found: readonly Candidate[],
  chosen: readonly Candidate[],
  fences: boolean,
): Candidate[] {
  const byValue = new Map<string, Candidate>();
  for (const c of found) {
    if (c.value.length >= MIN_REPEAT && !c.value.includes("[[") && !byValue.has(c.value)) {
      byValue.set(c.value, c);
    }
  }
  if (byValue.size === 0) return [];
  const taken = SpanSet.union(chosen.map((c) => ({ start: c.start, end: c.end })));
  const fenced = fences ? SpanSet.union(protectedRanges(text).filter((p) => p.kind === "fence")) : undefined;
  const values = [...byValue.keys()].sort((a, b) => b.length - a.length);
  const re = new RegExp(
    `(?<![\\p{L}\\p{N}])(?:${
      values.map((v) => v.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")
    })(?![\\p{L}\\p{N}])`,
    "gu",
  );
  const out: Candidate[] = [];
  for (const m of text.matchAll(re)) {
    const start = m.index, end = start + m[0].length;
    if (fenced?.overlaps(start, end) || !taken.add(start, end)) continue;
    const c = byValue.get(m[0])!;
    out.push(candidate(start, end, m[0], c.category, c.canonical, c.tier));
  }
  return out;
}
