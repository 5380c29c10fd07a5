/**
 * assist: argv dispatch only. `--version` needs nothing but the embedded version; every other form
 * loads its module on demand, so each form pays only for what it uses. `tools` is dispatched before
 * any bootstrap, self-update or network activity.
 */
import { lazy } from "./core/lazy.ts";
import { VERSION } from "./core/version.ts";

async function main(args: string[]): Promise<number> {
  const first = args[0];
  if (first === "--version" || first === "-V") {
    console.log(`assist ${VERSION}`);
    return 0;
  }
  if (first === "--help" || first === "-h" || first === "help") {
    const { helpText } = await lazy<typeof import("./cli/help.ts")>(import.meta.url, "./cli/help.ts");
    console.log(helpText());
    return 0;
  }
  if (first === "tools") {
    const { runTools } = await lazy<typeof import("./cli/manual.ts")>(import.meta.url, "./cli/manual.ts");
    return await runTools(args.slice(1));
  }
  if (first === "-p" || first === "--print") {
    const { runHeadless } = await lazy<typeof import("./cli/headless.ts")>(
      import.meta.url,
      "./cli/headless.ts",
    );
    return await runHeadless(args);
  }
  if (first === "ssh" || first === "auth" || first === "phi-sidecar") {
    // The command-line side of the one command table (cli/commands/table.ts).
    const { runCli } = await lazy<typeof import("./cli/commands/table.ts")>(
      import.meta.url,
      "./cli/commands/table.ts",
    );
    const { cliIO } = await lazy<typeof import("./cli/commands/cli_io.ts")>(
      import.meta.url,
      "./cli/commands/cli_io.ts",
    );
    return await runCli(args, cliIO());
  }
  if (first === "internal" && args[1] === "ssh-master" && args.length === 3) {
    // Hidden: the background SSH master that `assist ssh setup` / `/ssh-setup` starts (ssh/spawn.ts).
    const { runMaster } = await lazy<typeof import("./ssh/master.ts")>(import.meta.url, "./ssh/master.ts");
    return await runMaster(args[2]);
  }
  const { usageFailure } = await lazy<typeof import("./cli/manual.ts")>(import.meta.url, "./cli/manual.ts");
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
    const { reportFailure } = await lazy<typeof import("./cli/manual.ts")>(
      import.meta.url,
      "./cli/manual.ts",
    );
    code = reportFailure(err);
  }
  Deno.exit(code);
}
