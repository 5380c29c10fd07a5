/**
 * Showing configuration values: an indented `KEY value` tree for people, Tcl text for the engine's
 * own form.
 *
 * @module
 */
import { KeyedList, type KlValue, structuredScalar } from "./keyed_list.ts";
import { joinList } from "./tcl_list.ts";

/**
 * An indented tree: `KEY value` lines, nested keyed lists indented by `indent`, list elements as
 * `[n]`. An empty scalar is shown as `{}`.
 *
 * @example
 * ```ts
 * import type { KeyedList } from "./keyed_list.ts";
 * declare const thread: { config: KeyedList };
 * renderTree(thread.config.kl("PROTOCOL")!); // "HOST {}\nISSERVER 1\nPORT 5001\n..."
 * ```
 */
export function renderTree(value: KlValue, indent = "    "): string {
  const out: string[] = [];
  const walk = (v: KlValue, pad: string) => {
    if (typeof v === "string") {
      out.push(pad + shown(v));
    } else if (Array.isArray(v)) {
      v.forEach((item, i) => {
        out.push(`${pad}[${i + 1}]`);
        walk(item, pad + indent);
      });
    } else {
      for (const f of v.fields) {
        const nested = typeof f.value === "string" ? structuredScalar(f.value) : undefined;
        if (nested) {
          out.push(`${pad}${f.key}`);
          walk(nested, pad + indent);
        } else if (typeof f.value === "string") out.push(`${pad}${f.key} ${shown(f.value)}`);
        else if (Array.isArray(f.value) && f.value.length === 0) out.push(`${pad}${f.key} {}`);
        else if (f.value instanceof KeyedList && f.value.fields.length === 0) out.push(`${pad}${f.key} {}`);
        else {
          out.push(`${pad}${f.key}`);
          walk(f.value, pad + indent);
        }
      }
    }
  };
  walk(value, "");
  return out.join("\n");
}

function shown(s: string): string {
  const t = s.replace(/\r/g, "");
  return t.trim() === "" ? "{}" : t;
}

/** The value as Tcl text (a keyed list as `{KEY value} ...`). */
export function toTcl(value: KlValue): string {
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return joinList(value.map(toTcl));
  return joinList(value.fields.map((f) => joinList([f.key, toTcl(f.value)])));
}
