/**
 * The API-key rail (the default). The key comes from ASSIST_API_KEY, else from the key stored by
 * `/set-api-key` for this client ($ASSIST_HOME): in the OS keychain where one answers (Linux
 * `secret-tool`, macOS `security`), else in `$ASSIST_HOME/.api-key` at 0600 (a protected file the
 * model's file tools refuse). The key travels to a keychain tool on standard input only, never in
 * argv or the environment; it is never echoed, logged or written to history.
 */
import { atomicWrite } from "../../core/atomic_write.ts";
import { stripCr } from "../../core/clean.ts";
import { AssistError } from "../../core/errors.ts";
import { Secret } from "../../core/secret.ts";
import type { AuthProvider } from "../model/client.ts";
import { readEnv } from "../../core/env.ts";

export interface KeyStore {
  readonly name: string;
  get(): Promise<Secret | undefined>;
  set(key: Secret): Promise<void>;
  remove(): Promise<void>;
}

const SERVICE = "assist-api-key";

/** The 0600 file fallback. */
export class FileKeyStore implements KeyStore {
  readonly name = "file";
  constructor(readonly path: string) {}
  async get(): Promise<Secret | undefined> {
    try {
      const v = stripCr(await Deno.readTextFile(this.path)).trim();
      return v ? new Secret(v) : undefined;
    } catch {
      return undefined;
    }
  }
  async set(key: Secret): Promise<void> {
    await atomicWrite(this.path, key.reveal() + "\n", { mode: 0o600 });
  }
  async remove(): Promise<void> {
    await Deno.remove(this.path).catch(() => {});
  }
}

async function run(program: string, args: string[], stdin?: string): Promise<{ ok: boolean; out: string }> {
  try {
    const child = new Deno.Command(program, {
      args,
      stdin: stdin === undefined ? "null" : "piped",
      stdout: "piped",
      stderr: "null",
      clearEnv: true,
      env: minimalEnv(),
    }).spawn();
    if (stdin !== undefined) {
      const w = child.stdin.getWriter();
      await w.write(new TextEncoder().encode(stdin));
      await w.close();
    }
    const out = await child.output();
    return { ok: out.success, out: new TextDecoder().decode(out.stdout) };
  } catch {
    return { ok: false, out: "" };
  }
}

function minimalEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const n of ["PATH", "HOME", "USER", "DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR"]) {
    const v = readEnv(n);
    if (v !== undefined) env[n] = v;
  }
  return env;
}

/** Linux Secret Service through `secret-tool` (the secret goes on stdin). */
export class SecretToolKeyStore implements KeyStore {
  readonly name = "secret-tool";
  constructor(readonly account: string, readonly program = "secret-tool") {}
  async get(): Promise<Secret | undefined> {
    const r = await run(this.program, ["lookup", "service", SERVICE, "account", this.account]);
    const v = stripCr(r.out).trim();
    return r.ok && v ? new Secret(v) : undefined;
  }
  async set(key: Secret): Promise<void> {
    const r = await run(this.program, [
      "store",
      "--label=assist API key",
      "service",
      SERVICE,
      "account",
      this.account,
    ], key.reveal());
    if (!r.ok) throw new AssistError("the keychain (secret-tool) refused to store the key", { level: "io" });
  }
  async remove(): Promise<void> {
    await run(this.program, ["clear", "service", SERVICE, "account", this.account]);
  }
  /** Whether the Secret Service answers at all. */
  async available(): Promise<boolean> {
    const r = await run(this.program, ["search", "service", SERVICE]);
    return r.ok;
  }
}

/** macOS keychain through `security`; the store command is fed on stdin (`security -i`). */
export class MacKeychainStore implements KeyStore {
  readonly name = "macos-keychain";
  constructor(readonly account: string, readonly program = "security") {}
  async get(): Promise<Secret | undefined> {
    const r = await run(this.program, ["find-generic-password", "-s", SERVICE, "-a", this.account, "-w"]);
    const v = stripCr(r.out).trim();
    return r.ok && v ? new Secret(v) : undefined;
  }
  async set(key: Secret): Promise<void> {
    const quote = (s: string) => `"${s.replace(/["\\]/g, "\\$&")}"`;
    const line = `add-generic-password -U -s ${quote(SERVICE)} -a ${quote(this.account)} -w ${
      quote(key.reveal())
    }\n`;
    const r = await run(this.program, ["-i"], line);
    if (!r.ok) throw new AssistError("the macOS keychain refused to store the key", { level: "io" });
  }
  async remove(): Promise<void> {
    await run(this.program, ["delete-generic-password", "-s", SERVICE, "-a", this.account]);
  }
}

/** The store for this client: the OS keychain when one answers, else the 0600 file. */
export async function keyStoreFor(home: string, filePath: string, os = Deno.build.os): Promise<KeyStore> {
  if (os === "darwin") return new MacKeychainStore(home);
  if (os === "linux") {
    const st = new SecretToolKeyStore(home);
    if (await st.available()) return st;
  }
  return new FileKeyStore(filePath);
}

/** The API key in force: ASSIST_API_KEY first, then the stored one. */
export async function resolveApiKey(
  envKey: Secret | undefined,
  store: KeyStore,
): Promise<Secret | undefined> {
  return envKey ?? await store.get();
}

export function apiKeyProvider(key: Secret): AuthProvider {
  return { rail: "api-key", headers: () => Promise.resolve({ "x-api-key": key.reveal() }) };
}
