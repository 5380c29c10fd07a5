/**
 * Authentication: `/login` (the menu), `/set-api-key`, `/oauth-debug` in the REPL, and
 * `assist auth set-api-key | clear-api-key | status | oauth-debug` on the command line. A key is read
 * with a hidden prompt (standard input when not a terminal); it is never echoed, never in argv,
 * never in history.
 *
 * @module
 */
import { lazy } from "../../core/lazy.ts";
import { AssistError } from "../../core/errors.ts";
import type { Command, CommandContext } from "./types.ts";
import { hinter, home } from "./_util.ts";

async function paths(ctx: CommandContext) {
  const { homePaths } = await lazy<typeof import("../../core/home.ts")>(
    import.meta.url,
    "../../core/home.ts",
  );
  return homePaths(await home(ctx));
}

async function store(ctx: CommandContext) {
  const { keyStoreFor } = await lazy<typeof import("../auth/api_key.ts")>(
    import.meta.url,
    "../auth/api_key.ts",
  );
  const p = await paths(ctx);
  return await keyStoreFor(ctx.config.home, p.apiKey);
}

/** The set-api-key flow: hidden prompt, a plausibility check, the per-client store. */
async function setApiKey(ctx: CommandContext): Promise<void> {
  const key = await ctx.io.readSecret("API key (input hidden): ");
  if (!/^\S{8,}$/.test(key.reveal())) {
    throw new AssistError("that does not look like an API key (no spaces, 8+ characters)", {
      level: "input",
    });
  }
  const s = await store(ctx);
  await s.set(key);
  ctx.repl?.credentialsChanged?.();
  ctx.io.out(`API key stored (${s.name}; ${key.length} characters).`);
  if (ctx.config.apiKey) {
    ctx.io.warn("ASSIST_API_KEY is set in the environment and still wins over the stored key.");
  }
}

async function statusLines(ctx: CommandContext): Promise<string[]> {
  const p = await paths(ctx);
  const s = await store(ctx);
  const stored = await s.get();
  const key = ctx.config.apiKey;
  return [
    `rail: ${ctx.config.authMode}`,
    `ASSIST_API_KEY: ${key ? `set (${key.length} characters)` : "not set"}`,
    `stored key (${s.name}): ${stored ? `present (${stored.length} characters)` : "none"}`,
    `OAuth token file: ${await Deno.stat(p.oauth).then(() => "present", () => "none")}`,
  ];
}

/** What the OAuth rail needs, and where this client stands (menu entry 2 of /login). */
async function oauthLines(ctx: CommandContext): Promise<string[]> {
  const hint = await hinter(ctx);
  const p = await paths(ctx);
  const { readTokens, refreshDecision } = await lazy<typeof import("../auth/oauth_store.ts")>(
    import.meta.url,
    "../auth/oauth_store.ts",
  );
  let state: string;
  try {
    const t = await readTokens(p.oauth);
    state = t
      ? `token file ${p.oauth}: ${refreshDecision(t, Math.floor(Date.now() / 1000))}`
      : `no token file (${p.oauth})`;
  } catch (err) {
    state = `token file ${p.oauth}: ${(err as Error).message}`;
  }
  return [
    `OAuth (Console login): rail ${ctx.config.authMode === "oauth" ? "selected" : "not selected"}; ${state}`,
    "  The OAuth rail is off by default. To use it: set ASSIST_AUTH_MODE=oauth and ASSIST_OAUTH_CLIENT_ID",
    `  (your Console OAuth application), then restart; ${
      hint("oauth-debug")
    } shows the token file in detail.`,
    "  The browser sign-in step is not in this build: use the API key rail (menu entry 1) until it is.",
  ];
}

export const AUTH_COMMANDS: readonly Command[] = [
  {
    name: "login",
    args: "",
    summary: "authentication menu: API key, OAuth status, auth status",
    group: "auth",
    minArgs: 0,
    maxArgs: 0,
    noHistory: true,
    async run(_a, ctx) {
      const menu = [
        "login:",
        "  1  API key: store a per-client key (hidden prompt)",
        "  2  OAuth (Console login): status and how to enable it",
        "  3  status: which rail, which key, which token file",
      ];
      if (!ctx.io.readKey) {
        ctx.io.out(
          [...menu, "(no key reader here: run /set-api-key, /oauth-debug or /auth-status)"].join("\n"),
        );
        return;
      }
      ctx.io.out(menu.join("\n"));
      const choice = await ctx.io.readKey("choose 1, 2 or 3 [3]: ", ["1", "2", "3"], "3");
      if (choice === "1") await setApiKey(ctx);
      else if (choice === "2") ctx.io.out((await oauthLines(ctx)).join("\n"));
      else ctx.io.out((await statusLines(ctx)).join("\n"));
    },
  },
  {
    name: "set-api-key",
    cli: ["auth", "set-api-key"],
    args: "",
    summary: "store the API key for this client (hidden prompt, or stdin when not a terminal)",
    group: "auth",
    minArgs: 0,
    maxArgs: 0,
    noHistory: true,
    run: (_a, ctx) => setApiKey(ctx),
  },
  {
    name: "clear-api-key",
    cli: ["auth", "clear-api-key"],
    args: "",
    summary: "remove the stored API key",
    group: "auth",
    minArgs: 0,
    maxArgs: 0,
    async run(_a, ctx) {
      const s = await store(ctx);
      if (!(await s.get())) {
        const env = ctx.config.apiKey ? "; the key in use comes from ASSIST_API_KEY, unset it there" : "";
        ctx.io.out(`no API key stored in ${s.name}: nothing to remove${env}`);
        return;
      }
      await s.remove();
      ctx.repl?.credentialsChanged?.();
      ctx.io.out(`API key removed from ${s.name}.`);
    },
  },
  {
    name: "auth-status",
    cli: ["auth", "status"],
    args: "",
    summary: "the auth rail, the API key and the OAuth token file",
    group: "auth",
    minArgs: 0,
    maxArgs: 0,
    async run(_a, ctx) {
      ctx.io.out((await statusLines(ctx)).join("\n"));
    },
  },
  {
    name: "oauth-debug",
    cli: ["auth", "oauth-debug"],
    args: "",
    summary: "OAuth diagnostics (file mode, size, JSON, refresh decision; token prefixes only)",
    group: "auth",
    minArgs: 0,
    maxArgs: 0,
    async run(_a, ctx) {
      const p = await paths(ctx);
      const { oauthDebugReport } = await lazy<typeof import("../auth/oauth_debug.ts")>(
        import.meta.url,
        "../auth/oauth_debug.ts",
      );
      const bytes = await Deno.readFile(p.oauth).catch(() => undefined);
      const info = await Deno.stat(p.oauth).catch(() => undefined);
      ctx.io.out(oauthDebugReport(p.oauth, bytes, info, Math.floor(Date.now() / 1000)));
    },
  },
];
