/**
 * Loading a module only when it is needed. Deno prefetches every `import("literal")` reachable from
 * the entry point at start-up (measured: an unused literal dynamic import of the headless front cost
 * +8 ms, 1.4× an empty script), so the forms that must start instantly (`--version`, `tools list`)
 * load their heavy parts through this function instead: the specifier is not a literal, so nothing
 * is fetched until the call. `deno compile` then needs the folders with `--include` (deno.json's
 * compile tasks), and the module's type comes from a type-only `typeof import(...)`.
 *
 * @example
 * ```ts
 * const { loadConfig } = await lazy<typeof import("./config.ts")>(import.meta.url, "./config.ts");
 * ```
 */
export function lazy<T>(base: string, specifier: string): Promise<T> {
  return import(new URL(specifier, base).href);
}
