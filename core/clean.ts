/**
 * CR-safety helpers (spec, "Platform-specific robustness rules"): values read from command output,
 * files, prompts or JSON may carry a stray `\r` (Windows line ends, POSIX-emulation shells). They are
 * stripped before matching, and integers are coerced before arithmetic.
 */

/**
 * Removes every carriage return.
 *
 * @example
 * ```ts
 * stripCr("42\r\n"); // "42\n"
 * ```
 */
export function stripCr(text: string): string {
  return text.indexOf("\r") === -1 ? text : text.replace(/\r/g, "");
}

export interface CoerceIntOptions {
  min?: number;
  max?: number;
}

/**
 * Reads an integer from outside text: CRs and outer white space are dropped, an optional sign and
 * decimal digits only, within `min`..`max`. Anything else gives `undefined` so the caller can say
 * what it expected; it never returns NaN.
 *
 * @example
 * ```ts
 * coerceInt(" 8192\r"); // 8192
 * coerceInt("12abc"); // undefined
 * ```
 */
export function coerceInt(value: unknown, options: CoerceIntOptions = {}): number | undefined {
  let n: number;
  if (typeof value === "number") {
    if (!Number.isInteger(value)) return undefined;
    n = value;
  } else if (typeof value === "string") {
    const text = stripCr(value).trim();
    if (!/^[+-]?\d{1,15}$/.test(text)) return undefined;
    n = Number(text);
  } else {
    return undefined;
  }
  if (options.min !== undefined && n < options.min) return undefined;
  if (options.max !== undefined && n > options.max) return undefined;
  return n;
}
