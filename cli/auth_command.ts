/**
 * `assist auth <op>`: the command-line form of /set-api-key and /oauth-debug, for scripts and
 * jump boxes. `set-api-key` reads the key with a hidden prompt (or from standard input when not a
 * terminal); it is never echoed, never in argv, never in history.
 */
import { AssistError, EXIT } from "../core/errors.ts";
import { loadConfig } from "../core/config.ts";
import { ensureHome, homePaths } from "../core/home.ts";
import { readSecret } from "../core/secret_input.ts";
import { keyStoreFor } from "./auth/api_key.ts";
import { oauthDebugReport } from "./auth/oauth_debug.ts";

export const AUTH_USAGE = "usage: assist auth set-api-key | clear-api-key | status | oauth-debug";

export async function runAuth(args: string[]): Promise<number> {
  const [op, ...rest] = args;
  if (rest.length > 0) {
    throw new AssistError(`auth ${op}: unexpected argument "${rest[0]}" (${AUTH_USAGE})`, { level: "usage" });
  }
  const config = loadConfig();
  await ensureHome(config.home);
  const paths = homePaths(config.home);
  const print = (s: string) => console.log(s);
  switch (op) {
    case "set-api-key": {
      const key = await readSecret("API key (input hidden): ");
      if (!/^\S{8,}$/.test(key.reveal())) {
        throw new AssistError("that does not look like an API key (no spaces, 8+ characters)", {
          level: "input",
        });
      }
      const store = await keyStoreFor(config.home, paths.apiKey);
      await store.set(key);
      print(`API key stored (${store.name}; ${key.length} characters).`);
      return EXIT.ok;
    }
    case "clear-api-key": {
      const store = await keyStoreFor(config.home, paths.apiKey);
      await store.remove();
      print(`API key removed from ${store.name}.`);
      return EXIT.ok;
    }
    case "status": {
      const store = await keyStoreFor(config.home, paths.apiKey);
      const stored = await store.get();
      print(`rail: ${config.authMode}`);
      print(`ASSIST_API_KEY: ${config.apiKey ? `set (${config.apiKey.length} characters)` : "not set"}`);
      print(`stored key (${store.name}): ${stored ? `present (${stored.length} characters)` : "none"}`);
      print(`OAuth token file: ${await Deno.stat(paths.oauth).then(() => "present", () => "none")}`);
      return EXIT.ok;
    }
    case "oauth-debug": {
      const bytes = await Deno.readFile(paths.oauth).catch(() => undefined);
      const info = await Deno.stat(paths.oauth).catch(() => undefined);
      print(oauthDebugReport(paths.oauth, bytes, info, Math.floor(Date.now() / 1000)));
      return EXIT.ok;
    }
    default:
      throw new AssistError(op === undefined ? AUTH_USAGE : `unknown auth operation: ${op} (${AUTH_USAGE})`, {
        level: "usage",
      });
  }
}
