/**
 * assist: argv dispatch only. `--version` needs nothing but the embedded version; every other form
 * loads its module on demand, so each form pays only for what it uses. `tools` is dispatched before
 * any bootstrap, self-update or network activity.
 */
import { VERSION } from "./core/version.ts";

async function main(args: string[]): Promise<number> {
  const first = args[0];
  if (first === "--version" || first === "-V") {
    console.log(`assist ${VERSION}`);
    return 0;
  }
  if (first === "--help" || first === "-h" || first === "help") {
    const { helpText } = await import("./cli/help.ts");
    console.log(helpText());
    return 0;
  }
  if (first === "tools") {
    const { runTools } = await import("./cli/manual.ts");
    return await runTools(args.slice(1));
  }
  const { usageFailure } = await import("./cli/manual.ts");
  return usageFailure(
    first === undefined
      ? "the interactive assistant is not in this build yet; run `assist tools list` for the helper tools"
      : `unknown command or option: ${first} (see \`assist --help\`)`,
  );
}

if (import.meta.main) {
  let code: number;
  try {
    code = await main(Deno.args);
  } catch (err) {
    const { reportFailure } = await import("./cli/manual.ts");
    code = reportFailure(err);
  }
  Deno.exit(code);
}
