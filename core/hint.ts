/**
 * How a message tells the operator to run a command. The modules below the front (ssh/, phi/) build
 * messages such as "next: /ssh-setup eng1"; the front that shows them decides the language: the
 * command line says `assist ssh setup eng1`, the REPL and the model say `/ssh-setup eng1`. Those
 * modules take a `HintFn` (default {@link slashHint}); the command table (cli/commands/table.ts)
 * supplies the caller's.
 *
 * @example
 * ```ts
 * import { slashHint } from "./hint.ts";
 * slashHint("ssh-setup", ["eng1"]); // "/ssh-setup eng1"
 * ```
 */
export type HintFn = (name: string, args?: readonly string[]) => string;

/** The REPL's form, which is also what the model is told (tool results). */
export const slashHint: HintFn = (name, args = []) => [`/${name}`, ...args].join(" ");
