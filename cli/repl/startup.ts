/**
 * What the REPL prints before the first prompt, as pure functions of facts gathered from local files
 * only (nothing on the network is awaited before the prompt): the prompt's model name, the `MODE=`
 * line and what decided it, the auth rail, and the tier-5 line.
 */

/**
 * `<model_short>` of the prompt `you[<model_short>]> `: the vendor prefix removed (`claude-`, or an
 * `anthropic/` style path) and the trailing `-N-M` rewritten as `.N.M`. A dated snapshot suffix
 * (`-20250929`) is dropped first, so `claude-sonnet-4-5-20250929` reads `sonnet.4.5` like its alias.
 *
 * @example
 * ```ts
 * import { modelShort } from "./startup.ts";
 * modelShort("claude-sonnet-4-6"); // "sonnet.4.6"
 * modelShort("claude-opus-4-1"); // "opus.4.1"
 * ```
 */
export function modelShort(model: string): string {
  let s = model.trim().replace(/^.*\//, "");
  s = s.replace(/^claude-/i, "");
  s = s.replace(/-\d{8}$/, "");
  s = s.replace(/-(\d+)-(\d+)$/, ".$1.$2");
  return s || model;
}

/** The prompt string for a model. */
export function promptFor(model: string): string {
  return `you[${modelShort(model)}]> `;
}

export type EngineMode = "LOCAL" | "REMOTE" | "UNKNOWN";

export interface ModeFacts {
  /** $HCIROOT, when set. */
  hciroot?: string;
  /** Whether $HCIROOT holds an engine root (its `server` folder, where server.ini lives). */
  hcirootIsEngine: boolean;
  /** Registered SSH aliases. */
  sshAliases: string[];
}

/**
 * `MODE=LOCAL` when this machine has an engine root ($HCIROOT with a `server` folder), `REMOTE`
 * when it has none but SSH hosts are registered, `UNKNOWN` otherwise; the reason follows in
 * parentheses, with the next step when there is one.
 */
export function modeLine(f: ModeFacts): { mode: EngineMode; line: string } {
  if (f.hciroot && f.hcirootIsEngine) {
    const also = f.sshAliases.length ? `; ssh hosts: ${f.sshAliases.join(", ")}` : "";
    return { mode: "LOCAL", line: `MODE=LOCAL (HCIROOT=${f.hciroot} is an engine root${also})` };
  }
  const why = f.hciroot ? `HCIROOT=${f.hciroot} is not an engine root` : "no HCIROOT here";
  if (f.sshAliases.length) {
    return { mode: "REMOTE", line: `MODE=REMOTE (${why}; ssh hosts: ${f.sshAliases.join(", ")})` };
  }
  return {
    mode: "UNKNOWN",
    line: `MODE=UNKNOWN (${why} and no ssh hosts; /ssh-add <alias> <user@host> registers one)`,
  };
}

export interface AuthFacts {
  rail: "api-key" | "oauth";
  /** ASSIST_API_KEY is set. */
  envKey: boolean;
  /** A key file exists under $ASSIST_HOME (the keychain is only asked at the first prompt). */
  keyFile: boolean;
  /** .oauth.json exists. */
  oauthFile: boolean;
}

export function authLine(f: AuthFacts): string {
  if (f.rail === "oauth") {
    return f.oauthFile
      ? "auth: OAuth rail (.oauth.json; /oauth-debug shows its state)"
      : "auth: OAuth rail, no token yet (/login)";
  }
  if (f.envKey) return "auth: API-key rail (ASSIST_API_KEY)";
  if (f.keyFile) return "auth: API-key rail (stored key)";
  return "auth: API-key rail (the stored key is read at the first prompt; /set-api-key stores one)";
}

/** The tier-5 line, shown when the sidecar is not running. */
export function tier5Line(running: boolean, names: "auto" | "on" | "off" = "auto"): string | undefined {
  if (running) return undefined;
  if (names === "off") {
    return "phi> names in free text are NOT covered: the PHI sidecar is not running and the built-in " +
      "name recognizer is off (ASSIST_PHI_NAMES=off); known names (HL7 fields, @@markers) are still protected";
  }
  return "phi: free-text names are protected once known (from HL7 fields or @@markers) and by the " +
    "built-in name recognizer; /phi-sidecar start adds Presidio";
}
