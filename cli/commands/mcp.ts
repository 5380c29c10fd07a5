/**
 * `assist mcp`: the tools, behind the PHI gate, for an MCP client on stdio (cli/mcp/server.ts). An
 * MCP client starts it (`claude mcp add assist -- assist mcp`); `/mcp` in the REPL prints the set-up
 * lines instead, since a REPL has no MCP client on its standard input.
 *
 * @module
 */
import { lazy } from "../../core/lazy.ts";
import type { Command } from "./types.ts";
import { home } from "./_util.ts";

/** One line per client, with ASSIST_HOME and HCIROOT passed through (README has the full forms). */
export const MCP_SETUP = [
  "add assist's tools to an MCP client (each starts `assist mcp` on stdio; values stay tokenized):",
  "  Claude Code:  claude mcp add assist -e ASSIST_HOME=$ASSIST_HOME -e HCIROOT=$HCIROOT -- assist mcp",
  '  Codex:        ~/.codex/config.toml: [mcp_servers.assist] command = "assist", args = ["mcp"],',
  '                env_vars = ["ASSIST_HOME", "HCIROOT"]',
  '  VS Code:      .vscode/mcp.json: {"servers": {"assist": {"type": "stdio", "command": "assist",',
  '                "args": ["mcp"], "env": {"ASSIST_HOME": "${env:ASSIST_HOME}", "HCIROOT": "${env:HCIROOT}"}}}}',
  "their own shell and file tools still read files raw: README says how to keep them off $HCIROOT",
  "and $ASSIST_HOME (the client's settings, not assist's)",
].join("\n");

export const MCP_COMMANDS: readonly Command[] = [
  {
    name: "mcp",
    cli: ["mcp"],
    args: "",
    summary: "serve the tools behind the PHI gate to an MCP client on stdio (/mcp: how to set one up)",
    group: "general",
    minArgs: 0,
    maxArgs: 0,
    async run(_a, ctx) {
      if (ctx.io.front === "repl") {
        ctx.io.out(MCP_SETUP);
        return;
      }
      await home(ctx);
      if (Deno.stdin.isTerminal()) {
        ctx.io.warn("mcp: serving the Model Context Protocol on stdio for an MCP client; Ctrl-D ends");
      }
      const { serveStdio } = await lazy<typeof import("../mcp/server.ts")>(
        import.meta.url,
        "../mcp/server.ts",
      );
      await serveStdio({ config: ctx.config, cwd: Deno.cwd(), hint: ctx.io.hint });
    },
  },
];
