/**
 * A secret value (API key, origin token, SSH password) that cannot leak by accident: it prints,
 * stringifies and JSON-encodes as "[redacted]"; only `reveal()` gives the value, at the one place
 * that sends it.
 */
export class Secret {
  readonly #value: string;
  constructor(value: string) {
    this.#value = value;
  }
  reveal(): string {
    return this.#value;
  }
  get length(): number {
    return this.#value.length;
  }
  toString(): string {
    return "[redacted]";
  }
  toJSON(): string {
    return "[redacted]";
  }
  [Symbol.for("Deno.customInspect")](): string {
    return "Secret([redacted])";
  }
}

/** Environment variables that hold secrets: never passed to a child, printed or logged. */
export const SECRET_ENV_NAMES = ["ASSIST_API_KEY", "ASSIST_ORIGIN_TOKEN", "ORIGIN_TOKEN"] as const;
