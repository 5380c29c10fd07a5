/**
 * assist: argv dispatch only. `--version` needs nothing but the embedded version; every other form
 * loads its module on demand, so each form pays only for what it uses. `tools` is dispatched before
 * any bootstrap, self-update or network activity.
 */
import { lazy } from "./core/lazy.ts";
import { VERSION } from "./core/version.ts";
import { readEnv } from "./core/env.ts";

async function main(args: string[]): Promise<number> {
  const first = args[0];
  if (first === "--version" || first === "-V") {
    console.log(`assist ${VERSION}`);
    return 0;
  }
  const asksHelp = args.some((a) => a === "--help" || a === "-h");
  if (first === "--help" || first === "-h" || first === "help" || (first === "--resume" && asksHelp)) {
    const { helpText } = await lazy<typeof import("./cli/help.ts")>(import.meta.url, "./cli/help.ts");
    console.log(helpText());
    return 0;
  }
  if (first === "tools") {
    const { runTools } = await lazy<typeof import("./cli/manual.ts")>(import.meta.url, "./cli/manual.ts");
    return await runTools(args.slice(1));
  }
  // Headless: `-p` anywhere among its own options (`assist --json -p x` as `assist -p x --json`).
  const headless = first === "-p" || first === "--print" ||
    ((first === "--json" || first === "--model") && args.some((a) => a === "-p" || a === "--print"));
  if (headless && asksHelp) {
    // `assist -p --help` is a question about -p, never a prompt sent (and billed) to the model.
    const { headlessHelpText } = await lazy<typeof import("./cli/help.ts")>(import.meta.url, "./cli/help.ts");
    console.log(headlessHelpText());
    return 0;
  }
  if (headless) {
    const { runHeadless } = await lazy<typeof import("./cli/headless.ts")>(
      import.meta.url,
      "./cli/headless.ts",
    );
    return await runHeadless(args);
  }
  if (first === "update" || first === "--check") {
    const { runUpdate, runCheck } = await lazy<typeof import("./cli/update.ts")>(
      import.meta.url,
      "./cli/update.ts",
    );
    return first === "--check" ? await runCheck() : await runUpdate(args.slice(1));
  }
  if (
    first === "ssh" || first === "auth" || first === "phi-sidecar" || first === "origin" ||
    first === "phi-reveal" || first === "mcp"
  ) {
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
  if (first === undefined || (first === "--resume" && args.length <= 2)) {
    // The launch update check runs before the REPL's modules load (update/launch.ts says why). It
    // never stops the start: even an updater that cannot load (a damaged install) only warns.
    try {
      const { launchCheck } = await lazy<typeof import("./cli/update.ts")>(
        import.meta.url,
        "./cli/update.ts",
      );
      await launchCheck();
    } catch (err) {
      console.error(`auto-update skipped this launch: ${(err as Error).message.split("\n")[0]}`);
    }
    const { runRepl } = await lazy<typeof import("./cli/repl/repl.ts")>(
      import.meta.url,
      "./cli/repl/repl.ts",
    );
    return await runRepl(first === "--resume" ? args[1] ?? "" : undefined);
  }
  const { usageFailure } = await lazy<typeof import("./cli/manual.ts")>(import.meta.url, "./cli/manual.ts");
  return usageFailure(`unknown command or option: ${first} (see \`assist --help\`)`);
}

/**
 * `deno task assist` runs in the checkout's folder; the operator's folder is in INIT_CWD, which
 * deno task sets. Relative paths (tools, `@file`, `/load`, ASSIST_HOME) must resolve against the
 * operator's folder, so a development run moves back there first. A compiled binary runs where it
 * is started and ignores the variable.
 */
function returnToOperatorFolder(): void {
  if ((Deno.build as { standalone?: boolean }).standalone === true) return;
  const initCwd = readEnv("INIT_CWD");
  if (!initCwd) return;
  try {
    Deno.chdir(initCwd);
  } catch { /* a folder that vanished: stay where we are */ }
}

if (import.meta.main) {
  returnToOperatorFolder();
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
