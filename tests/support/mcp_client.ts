/**
 * `assist mcp` as an MCP client sees it: the official SDK's Client over its stdio transport, driving
 * the program as a real subprocess under the shipped permission set (tests/support/run_assist.ts's
 * command args), with a throwaway HOME and ASSIST_HOME.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import {
  type ElicitRequest,
  ElicitRequestSchema,
  type ElicitResult,
} from "@modelcontextprotocol/sdk/types.js";
import { assistCommandArgs, REPO_ROOT, testDenoDir } from "./run_assist.ts";

export interface McpSession {
  client: Client;
  /** What the server wrote on stderr so far (its notices). */
  stderr(): string;
  [Symbol.asyncDispose](): Promise<void>;
}

export interface ConnectOptions {
  /** ASSIST_HOME and HOME. */
  home: string;
  cwd?: string;
  env?: Record<string, string>;
  /** Declares form elicitation and answers each question with this. */
  elicit?: (message: string) => ElicitResult | Promise<ElicitResult>;
}

/** Starts `assist mcp` and connects the SDK's client to it (initialize done). */
export async function connectAssist(o: ConnectOptions): Promise<McpSession> {
  const dir = await testDenoDir();
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: assistCommandArgs(["mcp"]),
    cwd: o.cwd ?? REPO_ROOT,
    env: {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      HOME: o.home,
      ASSIST_HOME: `${o.home}/.assist`,
      NO_COLOR: "1",
      ...(dir ? { DENO_DIR: dir } : {}),
      ...o.env,
    },
    stderr: "pipe",
  });
  let err = "";
  const dec = new TextDecoder();
  transport.stderr?.on("data", (b: Uint8Array) => err += dec.decode(b));
  const client = new Client(
    { name: "assist-tests", version: "0" },
    { capabilities: o.elicit ? { elicitation: { form: {} } } : {} },
  );
  if (o.elicit) {
    const answer = o.elicit;
    client.setRequestHandler(ElicitRequestSchema, (req: ElicitRequest) => answer(req.params.message));
  }
  await client.connect(transport);
  return {
    client,
    stderr: () => err,
    async [Symbol.asyncDispose]() {
      await client.close();
    },
  };
}

/** The one text block of a tool result. */
export function textOf(result: unknown): string {
  const content = (result as { content?: Array<{ type: string; text?: string }> }).content ?? [];
  return content.filter((c) => c.type === "text").map((c) => c.text ?? "").join("");
}
