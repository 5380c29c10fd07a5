/**
 * `assist mcp`: the registry's tools for any agent that speaks the Model Context Protocol, on stdio,
 * behind the same PHI gate as the REPL. Built on the official SDK's low-level `Server`, so the tool
 * list is the model's own (cli/agent/request.ts `toolDefinitions`: the registry's descriptions and
 * JSON schemas, described nowhere else), and every `tools/call` runs through cli/agent/tool_call.ts
 * `callTool`, the agent loop's own step: tokens in the input are put back, the input is validated,
 * the tool runs, and its result passes the PHI gate (one engine per server process, on the lookup
 * table under `$ASSIST_HOME`, so a token means the same value here, in the REPL and in `-p`).
 *
 * - Tool errors are MCP tool errors (`isError`), with the text the model gets in the REPL.
 * - Cancellation (`notifications/cancelled`) aborts the tool's `ToolContext.signal`.
 * - With a progress token, the tool's progress lines (through the gate) and a heartbeat while it
 *   runs are sent as `notifications/progress`.
 * - The review gate asks through elicitation where the client supports it (cli/mcp/prompter.ts);
 *   otherwise there is no one to ask and the spec's no-terminal rule applies (skipped).
 * - The `phi-reveal` prompt tells the client's user how to read values back (cli/mcp/texts.ts).
 * Nothing but protocol goes to stdout; notices (`phi> ...`) go to stderr, the client's log.
 */
import process from "node:process";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import {
  type CallToolRequest,
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  type GetPromptRequest,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListToolsRequestSchema,
  McpError,
  type ServerNotification,
  type ServerRequest,
} from "@modelcontextprotocol/sdk/types.js";
import type { Config } from "../../core/config.ts";
import type { HintFn } from "../../core/hint.ts";
import { VERSION } from "../../core/version.ts";
import { writeText } from "../../core/term.ts";
import { lazy } from "../../core/lazy.ts";
import { TOOLS } from "../../tools/registry.ts";
import type { ToolContext, ToolDef, ToolInput, ToolResult } from "../../tools/types.ts";
import { toolDefinitions } from "../agent/request.ts";
import { callTool } from "../agent/tool_call.ts";
import type { PhiGate } from "../agent/gate.ts";
import { newSessionId } from "../sessions/artifacts.ts";
import { elicitationPrompter } from "./prompter.ts";
import { instructions, REVEAL_PROMPT } from "./texts.ts";

export interface McpServerOptions {
  config: Config;
  /** Where relative paths in tool inputs resolve (the folder the client started the server in). */
  cwd: string;
  /** @default the registry's tools */
  tools?: readonly ToolDef[];
  /** Runs a tool of `tools` (tests hand in tools of their own). @default tools/by_name.ts runTool */
  runTool?: (def: ToolDef, input: ToolInput, ctx: ToolContext) => Promise<ToolResult>;
  /** How a result names an operator command (`assist ssh add ...`). */
  hint?: HintFn;
  /** One-line notices for the operator (`phi> ...`). @default stderr */
  notice?: (line: string) => void;
  /** How often a running tool says it still runs, with a progress token. @default 10000 */
  heartbeatMs?: number;
}

/** The server, its handlers set (connect it to a transport), and a wait for its calls to end. */
export interface AssistMcpServer {
  server: Server;
  /** Resolves once no `tools/call` is in flight. */
  idle(): Promise<void>;
}

/** Builds the server and its handlers. */
export function createMcpServer(o: McpServerOptions): AssistMcpServer {
  const tools = o.tools ?? TOOLS;
  const notice = o.notice ?? ((line: string) => writeText("stderr", `assist mcp: ${line}\n`));
  const server = new Server(
    { name: "assist", title: "assist (Cloverleaf engine tools behind a PHI gate)", version: VERSION },
    {
      capabilities: { tools: {}, prompts: {} },
      instructions: instructions(tools.filter((t) => t.review).map((t) => t.name)),
    },
  );
  // One gate per server process, made at the first call: by then the client has said whether it
  // can ask its user (elicitation), which decides whether the review gate has anyone to ask.
  let gate: Promise<PhiGate> | undefined;
  const gateNow = () =>
    gate ??= (async () => {
      // The PHI engine loads at the first call, not before `initialize` is answered.
      const { createPhiGate } = await lazy<typeof import("../agent/phi_adapter.ts")>(
        import.meta.url,
        "../agent/phi_adapter.ts",
      );
      const g = await createPhiGate(o.config, {
        prompter: server.getClientCapabilities()?.elicitation?.form
          ? elicitationPrompter({ elicitInput: (params, options) => server.elicitInput(params, options) })
          : undefined,
        sessionId: newSessionId(),
      });
      // A client may run calls side by side; the gate passes one result at a time, as in the REPL
      // (one lookup-table write and one review question at once). The tools themselves run freely.
      let queue: Promise<unknown> = Promise.resolve();
      const serial = <T>(f: () => Promise<T>): Promise<T> => {
        const next = queue.then(f);
        queue = next.catch(() => {});
        return next;
      };
      return { ...g, toolResult: (text, tool, review) => serial(() => g.toolResult(text, tool, review)) };
    })();
  // Calls in flight: cancelled when the transport closes under them; `idle` waits for them.
  const running = new Set<AbortController>();
  let waiters: Array<() => void> = [];
  const settle = () => {
    if (running.size > 0) return;
    for (const w of waiters) w();
    waiters = [];
  };
  server.onclose = () => {
    for (const c of running) c.abort();
  };

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: toolDefinitions(tools).map((t) => ({
      name: t.name,
      description: t.description,
      inputSchema: t.input_schema as { type: "object"; [key: string]: unknown },
    })),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (
    req: CallToolRequest,
    extra: RequestHandlerExtra<ServerRequest, ServerNotification>,
  ): Promise<CallToolResult> => {
    const { name } = req.params;
    const args = req.params.arguments ?? {};
    const abort = new AbortController();
    running.add(abort);
    const onAbort = () => abort.abort();
    extra.signal.addEventListener("abort", onAbort, { once: true });
    const g = await gateNow().catch((err) => {
      running.delete(abort);
      settle();
      throw err;
    });
    const progress = progressReporter({
      token: req.params._meta?.progressToken,
      send: (params) => extra.sendNotification({ method: "notifications/progress", params }),
      gate: g,
      tool: name,
      // With every result reviewed, a progress line would stop at the review gate: send none.
      lines: o.config.toolResultReview !== "always",
      signal: abort.signal,
      heartbeatMs: o.heartbeatMs ?? 10_000,
    });
    try {
      const r = await callTool(name, args, {
        tools,
        gate: g,
        runTool: o.runTool,
        context: {
          config: o.config,
          cwd: o.cwd,
          caller: "model",
          signal: abort.signal,
          progress: progress.line,
          ...(o.hint ? { hint: o.hint } : {}),
        },
      });
      await progress.done();
      for (const line of r.notices) notice(line);
      if (r.abort) {
        // Strict mode withheld the result: the reason (which never quotes a value) as the error.
        return {
          content: [{ type: "text", text: JSON.stringify({ error: "refused", message: r.abort }) }],
          isError: true,
        };
      }
      return { content: [{ type: "text", text: r.text }], ...(r.isError ? { isError: true } : {}) };
    } finally {
      await progress.done();
      running.delete(abort);
      extra.signal.removeEventListener("abort", onAbort);
      settle();
    }
  });

  server.setRequestHandler(ListPromptsRequestSchema, () => ({
    prompts: [{
      name: REVEAL_PROMPT.name,
      title: REVEAL_PROMPT.title,
      description: REVEAL_PROMPT.description,
    }],
  }));

  server.setRequestHandler(GetPromptRequestSchema, (req: GetPromptRequest) => {
    if (req.params.name !== REVEAL_PROMPT.name) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `no prompt named ${req.params.name.slice(0, 40)} (phi-reveal is the one)`,
      );
    }
    return {
      description: REVEAL_PROMPT.description,
      messages: [{ role: "user", content: { type: "text", text: REVEAL_PROMPT.text } }],
    };
  });
  return {
    server,
    idle: () => running.size === 0 ? Promise.resolve() : new Promise<void>((r) => waiters.push(r)),
  };
}

interface ProgressParams {
  progressToken: string | number;
  progress: number;
  message?: string;
  [key: string]: unknown;
}

/**
 * A tool call's progress: nothing without a progress token; with one, each progress line of the
 * tool (after the PHI gate, like any text bound for the client) and, while the tool runs, a
 * heartbeat every `heartbeatMs` (so a client that resets its time-out on progress waits for a long
 * regression). Numbers only rise; nothing is sent after the call ends or is cancelled.
 */
function progressReporter(o: {
  token: string | number | undefined;
  send: (params: ProgressParams) => Promise<void>;
  gate: PhiGate;
  tool: string;
  lines: boolean;
  signal: AbortSignal;
  heartbeatMs: number;
}): { line?: (line: string) => void; done(): Promise<void> } {
  const token = o.token;
  if (token === undefined) return { done: () => Promise.resolve() };
  let n = 0;
  let over = false;
  let chain = Promise.resolve();
  // Awaited in the chain, which the call awaits before it answers: a client drops progress that
  // comes after the result.
  const emit = async (message?: string) => {
    if (over || o.signal.aborted) return;
    await o.send({ progressToken: token, progress: ++n, ...(message ? { message } : {}) }).catch(() => {});
  };
  const started = Date.now();
  const timer = setInterval(() => {
    const s = Math.round((Date.now() - started) / 1000);
    chain = chain.then(() => emit(`${o.tool}: running, ${s} s`));
  }, o.heartbeatMs);
  return {
    line: (line: string) => {
      if (line === "") return; // the terminal's "clear the line"
      chain = chain.then(async () => {
        if (!o.lines) return emit();
        const gated = await o.gate.toolResult(line, o.tool, false);
        await emit(gated.text.split("\n")[0]);
      }).catch(() => {});
    },
    async done() {
      clearInterval(timer);
      await chain;
      over = true;
    },
  };
}

/**
 * Serves one MCP client on this process's stdin and stdout until the client closes stdin (the calls
 * in flight then finish and answer first) or the transport fails (they are cancelled).
 */
export async function serveStdio(o: McpServerOptions): Promise<void> {
  const { server, idle } = createMcpServer(o);
  const closed = new Promise<void>((resolve) => {
    const prev = server.onclose;
    server.onclose = () => {
      prev?.();
      resolve();
    };
  });
  await server.connect(new StdioServerTransport(process.stdin, process.stdout));
  process.stdin.once("end", () => {
    // The last requests were read with the end: let their handlers start, wait for them, and let
    // their answers go out (the SDK sends one a step after its handler returns).
    const tick = () => new Promise((r) => setTimeout(r, 0));
    void tick().then(idle).then(tick).then(() => server.close());
  });
  await closed;
  // Everything written reaches the client before the process exits.
  await new Promise<void>((resolve) => process.stdout.write("", () => resolve()));
}
