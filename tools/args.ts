/**
 * From a tool's parameter list: its JSON input schema (for the model), its manual-mode argument
 * parser (for `assist tools <name> ...`), its usage text, and one validator that both paths go
 * through, so a value is checked the same way whoever sends it.
 */
import { AssistError } from "../core/errors.ts";
import { coerceInt, stripCr } from "../core/clean.ts";
import type { Caller, InputOf, ParamSpec, ToolDef, ToolInput } from "./types.ts";

/** JSON schema of the tool's input, as the model's tool definition carries it. */
export function inputSchema(def: ToolDef): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const p of def.params) {
    const prop: Record<string, unknown> = { description: p.description };
    if (p.type === "string[]") prop.type = "array", prop.items = { type: "string" };
    else prop.type = p.type;
    if (p.enum) prop.enum = [...p.enum];
    if (p.default !== undefined) prop.default = p.default;
    if (p.min !== undefined) prop.minimum = p.min;
    if (p.max !== undefined) prop.maximum = p.max;
    properties[p.name] = prop;
  }
  const required = def.params.filter((p) => p.required).map((p) => p.name);
  return {
    type: "object",
    properties,
    ...(required.length ? { required } : {}),
    additionalProperties: false,
  };
}

function usageError(def: ToolDef, message: string): AssistError {
  return new AssistError(`${def.name}: ${message} (see \`assist tools ${def.name} --help\`)`, {
    level: "usage",
  });
}

/**
 * An input error in the reader's terms. An operator (manual mode, the REPL) is pointed at
 * `assist tools <name> --help`; the model, which cannot run that, is told what the tool takes
 * (with `listArgs`: the argument names, required ones marked) and shown the definition's example
 * input in its own JSON form.
 *
 * @example
 * ```ts
 * import { readFileTool } from "./files/read_file_tool.ts";
 * inputError(readFileTool, "model", 'unknown argument "file"', true).message;
 * // 'unknown argument "file"; read_file takes path (required), start_line, end_line; e.g. {"path":...}'
 * ```
 */
export function inputError(def: ToolDef, caller: Caller, message: string, listArgs = false): AssistError {
  if (caller !== "model") return usageError(def, message);
  const parts = [message];
  if (listArgs) {
    const names = def.params.map((p) => p.required ? `${p.name} (required)` : p.name);
    parts.push(names.length ? `${def.name} takes ${names.join(", ")}` : `${def.name} takes no arguments`);
  }
  if (def.exampleInput) parts.push(`e.g. ${JSON.stringify(def.exampleInput)}`);
  return new AssistError(parts.join("; "), { level: "usage" });
}

/**
 * Checks and normalizes an input object (from the model, from `--json`, or from parsed flags):
 * unknown keys, types, enumerations and bounds; integers are CR-stripped and coerced; defaults are
 * filled in. This is the one check of an input against the declared parameters; bodies trust its
 * result, typed {@link InputOf} their definition. Throws an AssistError of level "usage", worded
 * for `caller` ({@link inputError}; @default "model").
 */
export function validateInput<D extends ToolDef>(def: D, raw: unknown, caller: Caller = "model"): InputOf<D> {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    throw inputError(def, caller, "input must be a JSON object", true);
  }
  const obj = raw as Record<string, unknown>;
  const known = new Map(def.params.map((p) => [p.name, p]));
  for (const key of Object.keys(obj)) {
    if (!known.has(key)) throw inputError(def, caller, `unknown argument "${key.slice(0, 40)}"`, true);
  }
  const out: ToolInput = {};
  for (const p of def.params) {
    const v = obj[p.name];
    if (v === undefined || v === null) {
      if (p.required) throw inputError(def, caller, `missing ${p.name}`, true);
      if (p.default !== undefined) out[p.name] = p.default;
      continue;
    }
    out[p.name] = coerceValue(def, caller, p, v);
  }
  return out as InputOf<D>;
}

function coerceValue(
  def: ToolDef,
  caller: Caller,
  p: ParamSpec,
  v: unknown,
): string | number | boolean | string[] {
  const bad = (message: string) => inputError(def, caller, message);
  switch (p.type) {
    case "string": {
      if (typeof v !== "string") throw bad(`${p.name} must be a string`);
      if (p.enum && !p.enum.includes(v)) {
        throw bad(`${p.name} must be one of ${p.enum.join(", ")}`);
      }
      return v;
    }
    case "integer": {
      const n = coerceInt(v, { min: p.min, max: p.max });
      if (n === undefined) {
        const range = p.min !== undefined || p.max !== undefined
          ? ` from ${p.min ?? "-∞"} to ${p.max ?? "∞"}`
          : "";
        throw bad(`${p.name} must be an integer${range} (got ${JSON.stringify(v)})`);
      }
      return n;
    }
    case "boolean": {
      if (typeof v === "boolean") return v;
      if (typeof v === "string") {
        const s = stripCr(v).trim().toLowerCase();
        if (["true", "1", "yes", "on"].includes(s)) return true;
        if (["false", "0", "no", "off"].includes(s)) return false;
      }
      throw bad(`${p.name} must be true or false`);
    }
    case "string[]": {
      const list = typeof v === "string" ? [v] : v;
      if (!Array.isArray(list) || list.some((x) => typeof x !== "string")) {
        throw bad(`${p.name} must be a list of strings`);
      }
      return list as string[];
    }
  }
}

/**
 * Parses manual-mode arguments: `--name value`, `--name=value`, `--flag`/`--no-flag` for booleans,
 * kebab or snake case, repeated flags for lists, positionals in declaration order, `--` to end
 * options, and `--json '<object>'` for the whole input as the model would send it.
 *
 * @example
 * ```ts
 * import { readFileTool as readFileDef } from "./files/read_file_tool.ts";
 * parseManualArgs(readFileDef, ["notes.txt", "--start-line", "10"]);
 * ```
 *
 * With `stdinPiped` (standard input is not a terminal), a param marked `stdin` that is not given
 * (nor `text` in its place) is `-`: `cat x.hl7 | assist tools hl7_show` reads the pipe.
 */
export function parseManualArgs<D extends ToolDef>(def: D, argv: string[], stdinPiped = false): InputOf<D> {
  const byName = new Map(def.params.map((p) => [p.name, p]));
  const positionals = def.params.filter((p) => p.positional);
  const obj: Record<string, unknown> = {};
  const rest: string[] = [];
  let json: unknown;
  let optionsDone = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!optionsDone && arg === "--") {
      optionsDone = true;
      continue;
    }
    if (!optionsDone && arg.startsWith("--") && arg.length > 2) {
      const eq = arg.indexOf("=");
      const flag = (eq === -1 ? arg.slice(2) : arg.slice(2, eq)).replace(/-/g, "_");
      let inline = eq === -1 ? undefined : arg.slice(eq + 1);
      if (flag === "json") {
        const text = inline ?? argv[++i];
        if (text === undefined) throw usageError(def, "--json needs a JSON object");
        try {
          json = JSON.parse(text);
        } catch {
          throw usageError(def, "--json value is not valid JSON");
        }
        continue;
      }
      let p = byName.get(flag);
      if (!p && flag.startsWith("no_") && byName.get(flag.slice(3))?.type === "boolean") {
        p = byName.get(flag.slice(3))!;
        if (inline !== undefined) throw usageError(def, `--no-${kebab(p.name)} takes no value`);
        obj[p.name] = false;
        continue;
      }
      if (!p) throw usageError(def, `unknown option --${kebab(flag)}`);
      if (p.type === "boolean") {
        obj[p.name] = inline ?? true;
        continue;
      }
      if (inline === undefined) {
        inline = argv[++i];
        if (inline === undefined) throw usageError(def, `--${kebab(p.name)} needs a value`);
      }
      if (p.type === "string[]") {
        (obj[p.name] as string[] | undefined)?.push(inline) ?? (obj[p.name] = [inline]);
      } else {
        if (obj[p.name] !== undefined) throw usageError(def, `--${kebab(p.name)} given twice`);
        obj[p.name] = inline;
      }
      continue;
    }
    rest.push(arg);
  }
  for (const p of positionals) {
    if (rest.length === 0) break;
    if (obj[p.name] !== undefined) continue;
    if (p.type === "string[]") {
      obj[p.name] = rest.splice(0);
    } else {
      obj[p.name] = rest.shift();
    }
  }
  if (rest.length > 0) throw usageError(def, `unexpected argument "${rest[0]}"`);
  if (stdinPiped && json === undefined && obj.text === undefined) {
    for (const p of def.params) if (p.stdin && obj[p.name] === undefined) obj[p.name] = "-";
  }
  if (json !== undefined) {
    if (Object.keys(obj).length > 0) throw usageError(def, "--json cannot be combined with other arguments");
    return validateInput(def, json, "manual");
  }
  return validateInput(def, obj, "manual");
}

function kebab(name: string): string {
  return name.replace(/_/g, "-");
}

/** The text of `assist tools <name> --help`. */
export function toolHelp(def: ToolDef): string {
  const parts = [`usage: assist tools ${def.name}`];
  for (const p of def.params.filter((p) => p.positional)) {
    const meta = p.metavar ?? p.name.toUpperCase();
    const shown = p.type === "string[]" ? `${meta}...` : meta;
    parts.push(p.required ? `<${shown}>` : `[${shown}]`);
  }
  if (def.params.some((p) => !p.positional)) parts.push("[options]");
  const lines = [parts.join(" "), "", def.description, ""];
  if (def.params.length > 0) {
    lines.push("arguments:");
    const rows = def.params.map((p) => {
      const meta = p.type === "boolean"
        ? ""
        : ` ${p.metavar ?? (p.type === "integer" ? "N" : p.name.toUpperCase())}`;
      const left = `  --${kebab(p.name)}${meta}`;
      const notes: string[] = [];
      if (p.required) notes.push("required");
      if (p.positional) notes.push("or positional");
      if (p.enum) notes.push(`one of ${p.enum.join("|")}`);
      if (p.default !== undefined) notes.push(`default ${p.default}`);
      if (p.type === "string[]") notes.push("repeatable");
      return [left, p.description + (notes.length ? ` (${notes.join("; ")})` : "")] as const;
    });
    rows.push(["  --json OBJECT", "the whole input as one JSON object, as the model sends it"]);
    const width = Math.min(34, Math.max(...rows.map(([l]) => l.length)) + 2);
    for (const [l, r] of rows) {
      lines.push(l.length >= width ? `${l}\n${" ".repeat(width)}${r}` : l.padEnd(width) + r);
    }
  }
  if (def.examples?.length) {
    lines.push("", "examples:");
    for (const ex of def.examples) lines.push(`  assist tools ${def.name} ${ex}`.trimEnd());
  }
  return lines.join("\n");
}
