/**
 * The templated prompts behind /nc-diff-env and /nc-regression-env (prompts/*.md, embedded in the
 * binary). `{{name}}` placeholders are filled from the operator's answers; a missing one is an
 * error, never sent as literal braces. The rendered prompt goes through the PHI gate like any other.
 */
import { AssistError } from "../../core/errors.ts";
import ncDiffEnv from "../../prompts/nc_diff_env.md" with { type: "text" };
import ncRegressionEnv from "../../prompts/nc_regression_env.md" with { type: "text" };

export const TEMPLATES = { "nc-diff-env": ncDiffEnv, "nc-regression-env": ncRegressionEnv } as const;
export type TemplateName = keyof typeof TEMPLATES;

/** The placeholders a template needs, in order of first use. */
export function placeholders(name: TemplateName): string[] {
  return [...new Set([...TEMPLATES[name].matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]))];
}

export function renderTemplate(name: TemplateName, values: Record<string, string>): string {
  const missing = placeholders(name).filter((p) => !values[p]?.trim());
  if (missing.length) throw new AssistError(`/${name} needs ${missing.join(", ")}`, { level: "usage" });
  return TEMPLATES[name].replace(/\{\{(\w+)\}\}/g, (_, p: string) => values[p].trim());
}
