/** HL7 schema help: `/hl7 <SEG>` (a segment's fields) and `/hl7-fields <SEG.N>` (a field's components). */
import { lazy } from "../../core/lazy.ts";
import { AssistError } from "../../core/errors.ts";
import type { Command } from "./types.ts";

const load = async () => ({
  path: await lazy<typeof import("../../hl7/path.ts")>(import.meta.url, "../../hl7/path.ts"),
  f: await lazy<typeof import("../../hl7/format.ts")>(import.meta.url, "../../hl7/format.ts"),
  s: await lazy<typeof import("../../hl7/schema.ts")>(import.meta.url, "../../hl7/schema.ts"),
});

export const HL7_COMMANDS: readonly Command[] = [
  {
    name: "hl7",
    args: "<SEG>",
    summary: "a segment's fields from the built-in schema (Z-segments are site-specific)",
    group: "hl7",
    minArgs: 1,
    maxArgs: 1,
    async run(a, ctx) {
      const { f, s } = await load();
      const id = a[0].trim().toUpperCase();
      const text = f.formatSegmentHelp(id);
      // A segment the schema does not know is an error; a Z-segment is an answer (site-specific).
      if (!s.isSiteSpecific(id) && !s.segmentDef(id)) throw new AssistError(text, { level: "usage" });
      ctx.io.out(text);
    },
  },
  {
    name: "hl7-fields",
    args: "<SEG.N>",
    summary: "a field's components (e.g. /hl7-fields PID.5)",
    group: "hl7",
    minArgs: 1,
    maxArgs: 1,
    async run(a, ctx) {
      const { f, s, path } = await load();
      const text = f.formatFieldHelp(a[0]);
      let known = false;
      try {
        const p = path.parsePath(a[0]);
        const d = p.subcomponent === undefined ? s.describePath(p) : undefined;
        known = s.isSiteSpecific(p.segment) ||
          (d?.field !== undefined && (p.component === undefined || d.component !== undefined));
      } catch { /* not a path: formatFieldHelp said why */ }
      // An answer goes to the output; an unknown segment, field or component is a one-line error.
      if (!known) throw new AssistError(text, { level: "usage" });
      ctx.io.out(text);
    },
  },
];
