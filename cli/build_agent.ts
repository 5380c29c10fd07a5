/**
 * Everything a model session needs, built once from the configuration: the auth provider of the
 * rail in force, the stream decision, the headers log, the PHI gate and the agent. Shared by the
 * headless mode and (later) the REPL.
 */
import type { Config } from "../core/config.ts";
import { AssistError } from "../core/errors.ts";
import { homePaths } from "../core/home.ts";
import { apiKeyProvider, keyStoreFor, resolveApiKey } from "./auth/api_key.ts";
import { oauthProvider } from "./auth/oauth.ts";
import { type AuthProvider, MAX_RETRY_AFTER_SECONDS } from "./model/client.ts";
import { HeadersLog } from "./model/headers_log.ts";
import type { RateLimitReading } from "./model/ratelimit.ts";
import { Agent, type AgentIO, type ConversationState } from "./agent/loop.ts";
import { systemBlocks } from "./agent/request.ts";
import type { PhiGate } from "./agent/gate.ts";
import { TOOLS } from "../tools/registry.ts";
import { readEnv } from "../core/env.ts";
import { lazy } from "../core/lazy.ts";
import { posixEmulation } from "../core/tilde.ts";

/**
 * ASSIST_NO_STREAM: 1 disables streaming, 0 forces it on; unset, streaming is on except in a
 * POSIX-emulation environment on Windows (MSYS/Git Bash, Cygwin), where it is off.
 */
export function streamingWanted(
  noStream: boolean | undefined,
  os: string,
  env: (n: string) => string | undefined,
): boolean {
  if (noStream !== undefined) return !noStream;
  if (os !== "windows") return true;
  return !posixEmulation(env);
}

/** `front` says how to name the set-api-key command in an error: the REPL's or the command line's. */
export async function authFor(config: Config, front: "cli" | "repl" = "cli"): Promise<AuthProvider> {
  const paths = homePaths(config.home);
  if (config.authMode === "oauth") {
    return oauthProvider({
      tokenFile: paths.oauth,
      baseUrl: config.oauthUrl,
      clientId: config.oauthClientId,
      trace: config.oauthDebug ? (l) => console.error(l) : undefined,
    });
  }
  const key = await resolveApiKey(config.apiKey, await keyStoreFor(config.home, paths.apiKey));
  if (!key) {
    // Named in the caller's form by the command table's one hint function.
    const { hint } = await lazy<typeof import("./commands/table.ts")>(import.meta.url, "./commands/table.ts");
    const how = front === "repl" ? hint("repl", "set-api-key") : `\`${hint("cli", "set-api-key")}\``;
    throw new AssistError(`no API key: set ASSIST_API_KEY or store one with ${how}`, { level: "config" });
  }
  return apiKeyProvider(key);
}

export interface SessionOptions {
  config: Config;
  gate: PhiGate;
  io: AgentIO;
  cwd: string;
  model?: string;
  /** Which front builds the agent (how its errors name commands). @default "cli" */
  front?: "cli" | "repl";
  /** Rate-limit readings of every response (the REPL's status line). */
  onRateLimit?: (reading: RateLimitReading) => void;
  /** The conversation the agent borrows (cli/agent/conversation.ts). */
  state?: ConversationState;
}

export async function createAgent(o: SessionOptions): Promise<Agent> {
  const env = readEnv;
  const auth = await authFor(o.config, o.front);
  // The session context (working folder, engine root) is operator data like any other: it passes
  // the PHI gate once, like every other byte bound for the model. The static prompt is ours.
  const system = systemBlocks({
    cwd: o.cwd,
    os: Deno.build.os,
    date: new Date().toISOString().slice(0, 10),
    hciroot: env("HCIROOT"),
  });
  // Its warnings (the sidecar is unreachable, said once per session) reach the operator here: this
  // is the session's first pass, which would otherwise take the one-time warning and drop it.
  const context = await o.gate.userInput(system[1].text);
  for (const w of context.warnings ?? []) o.io.notice(w);
  system[1] = { ...system[1], text: context.text };
  return new Agent({
    model: o.model ?? o.config.model,
    tools: TOOLS,
    gate: o.gate,
    io: o.io,
    client: {
      url: o.config.modelApiUrl,
      auth,
      stream: streamingWanted(o.config.noStream, Deno.build.os, env),
      headersLog: new HeadersLog({
        path: homePaths(o.config.home).headersLog,
        oauth: auth.rail === "oauth",
        notice: o.io.notice,
      }),
      notice: o.io.notice,
      onRateLimit: o.onRateLimit,
      idleTimeoutSeconds: o.config.idleTimeoutSeconds,
      // -p: a wait the turn's bound would cut short is reported at once instead of begun.
      maxRetryAfterSeconds: o.front === "cli" && o.config.turnTimeoutSeconds > 0
        ? Math.min(MAX_RETRY_AFTER_SECONDS, o.config.turnTimeoutSeconds)
        : undefined,
    },
    system,
    toolContext: { config: o.config, cwd: o.cwd, caller: "model" },
    state: o.state,
  });
}
