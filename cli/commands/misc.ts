/**
 * `/origin` (the update origin pin) and `/headers-sync` (the header-log push, cli/headers_sync/).
 * `/origin` manages the `.origin` pin file the self-update reads (update/origin.ts), with the spec's
 * rules: `gitea` pins the default origin, `auto` clears the pin, an
 * https URL pins that URL, `github` is refused (the mirror is private), and a legacy `github` pin
 * is shown as invalid.
 *
 * @module
 */
import { lazy } from "../../core/lazy.ts";
import { AssistError, EXIT } from "../../core/errors.ts";
import type { Command, CommandContext } from "./types.ts";
import { hinter, home } from "./_util.ts";

async function updateModules() {
  return await Promise.all([
    lazy<typeof import("../../update/origin.ts")>(import.meta.url, "../../update/origin.ts"),
    lazy<typeof import("../../update/launch.ts")>(import.meta.url, "../../update/launch.ts"),
  ]);
}

async function pinPath(ctx: CommandContext): Promise<string> {
  const [, launch] = await updateModules();
  return launch.originFiles(await home(ctx)).pin;
}

/** `/origin` with no argument: the effective origin, where it came from, the pin file, the trust. */
async function showOrigin(ctx: CommandContext): Promise<void> {
  const [origin, launch] = await updateModules();
  const h = await home(ctx);
  const path = launch.originFiles(h).pin;
  const hint = await hinter(ctx);
  const content = await origin.readPinFile(path);
  const pin = content === undefined ? undefined : origin.readPin(content);
  const eff = await launch.effectiveOrigin(h, ctx.config.baseUrl);
  const lines: string[] = [];
  if (eff.source === "env") lines.push(`origin: ${eff.baseUrl} (ASSIST_BASE_URL; it overrides any pin)`);
  else if (eff.source === "pin") lines.push(`origin: ${eff.baseUrl} (pinned)`);
  else lines.push("origin: default (gitea)");
  lines.push(`pin file: ${path}: ${pin ? pin.note : "absent"}`);
  lines.push(`fetches: ${eff.baseUrl}/raw/branch/${origin.RELEASE_BRANCH}/<VERSION|MANIFEST|path>`);
  if (pin?.invalid) lines.push(`fix it with ${hint("origin", ["gitea"])} or ${hint("origin", ["auto"])}`);
  const keys = await launch.trustedKeys(h, eff);
  lines.push(
    keys.length
      ? `signature: MANIFEST must be signed by a trusted key (${keys.length} trusted)`
      : `signature: unsigned origin (no trusted key; pin one in ${
        launch.originFiles(h).key
      }); files are checked by hash only`,
  );
  lines.push(
    `token: ${ctx.config.originToken ? "set (ASSIST_ORIGIN_TOKEN or ORIGIN_TOKEN)" : "none (anonymous)"}`,
  );
  ctx.io.out(lines.join("\n"));
}

async function setOrigin(arg: string, ctx: CommandContext): Promise<void> {
  const v = arg.trim();
  const path = await pinPath(ctx);
  if (v.toLowerCase() === "github") {
    throw new AssistError("the github mirror is private; use gitea or an https:// URL", { level: "usage" });
  }
  if (v.toLowerCase() === "auto") {
    await Deno.remove(path).catch((err) => {
      if (!(err instanceof Deno.errors.NotFound)) throw err;
    });
    ctx.io.out(`origin pin cleared (${path}); the default origin (gitea) is used`);
    return;
  }
  let value: string;
  if (v.toLowerCase() === "gitea") value = "gitea";
  else {
    const [origin] = await updateModules();
    const url = /^https:/i.test(v) ? origin.httpsOrigin(v) : undefined;
    if (!url) {
      throw new AssistError(
        `usage: ${(await hinter(ctx))("origin", ["[gitea|auto|https://<host>/...]"])} (got "${
          v.slice(0, 60)
        }"; an origin is an https:// URL without credentials)`,
        { level: "usage" },
      );
    }
    value = url;
  }
  const { atomicWrite } = await lazy<typeof import("../../core/atomic_write.ts")>(
    import.meta.url,
    "../../core/atomic_write.ts",
  );
  await atomicWrite(path, `${value}\n`, { mode: 0o600 });
  const shown = value === "gitea" ? "the default origin (gitea)" : value;
  const over = ctx.config.baseUrl ? `; ASSIST_BASE_URL (${ctx.config.baseUrl}) still overrides it` : "";
  ctx.io.out(`origin pinned to ${shown} in ${path}${over}`);
}

const HEADERS_SYNC_USAGE = "usage: /headers-sync on|off|status|target <alias>|now";

async function syncModules() {
  return await Promise.all([
    lazy<typeof import("../headers_sync/sync.ts")>(import.meta.url, "../headers_sync/sync.ts"),
    lazy<typeof import("../headers_sync/settings.ts")>(import.meta.url, "../headers_sync/settings.ts"),
  ]);
}

/** `/headers-sync on|off|status|target <alias>|now`: settings in `.env`, the push over the master. */
async function headersSync(args: string[], ctx: CommandContext): Promise<number | void> {
  const [sub, alias] = args;
  const valid = sub === "target"
    ? alias !== undefined
    : ["on", "off", "status", "now"].includes(sub) && !alias;
  if (!valid) throw new AssistError(HEADERS_SYNC_USAGE, { level: "usage" });
  const h = await home(ctx);
  const hint = await hinter(ctx);
  const [sync, settings] = await syncModules();
  const s = await settings.readSettings(h);
  const where = (target: string | undefined) =>
    target
      ? `${target}:${sync.remoteFileOf(s.remoteDir)}`
      : `no target (set one with ${hint("headers-sync", ["target", "<alias>"])})`;
  switch (sub) {
    case "status": {
      const { homePaths } = await lazy<typeof import("../../core/home.ts")>(
        import.meta.url,
        "../../core/home.ts",
      );
      const size = await Deno.stat(homePaths(h).headersLog).then((i) => i.size, () => 0);
      ctx.io.out([
        `headers-sync: ${s.enabled ? "on (pushes at exit)" : "off"}`,
        `target: ${where(s.target)}`,
        `pushed: ${s.mark ? `${s.mark.offset} bytes` : "nothing yet"}; log/headers.log holds ${size} bytes`,
      ].join("\n"));
      return;
    }
    case "on":
    case "off":
      await settings.writeSettings(h, { enabled: sub === "on" });
      ctx.io.out(
        sub === "on"
          ? `headers-sync on: new header blocks go to ${where(s.target)} at exit (and on ${
            hint("headers-sync", ["now"])
          })`
          : "headers-sync off: nothing is pushed at exit",
      );
      return;
    case "target": {
      const ssh = await lazy<typeof import("../../ssh/mod.ts")>(import.meta.url, "../../ssh/mod.ts");
      await ssh.getHost(h, alias, hint); // an unknown alias is refused with the way to add it
      // A new target has none of the log: the next push starts from the beginning.
      const fresh = alias !== s.target;
      await settings.writeSettings(h, { target: alias, ...(fresh ? { mark: null } : {}) });
      ctx.io.out(
        `headers-sync target: ${alias}:${sync.remoteFileOf(s.remoteDir)}` +
          (fresh && s.target ? " (the whole local log goes there at the next push)" : "") +
          (s.enabled ? "" : ` (the sync is off: ${hint("headers-sync", ["on"])} to push at exit)`),
      );
      return;
    }
    default: {
      const r = await sync.pushHeaders(h);
      if (r.ok) {
        ctx.io.out(r.line);
        return;
      }
      ctx.io.warn(r.line);
      return EXIT.failure;
    }
  }
}

export const MISC_COMMANDS: readonly Command[] = [
  {
    name: "origin",
    cli: ["origin"],
    args: "[gitea|auto|<https-url>]",
    summary: "show the update origin and its pin file, or pin one (gitea, an https URL) or clear it (auto)",
    group: "general",
    minArgs: 0,
    maxArgs: 1,
    run: (a, ctx) => a.length === 0 ? showOrigin(ctx) : setOrigin(a[0], ctx),
  },
  {
    name: "headers-sync",
    args: "on|off|status|target <alias>|now",
    summary: "push new log/headers.log blocks over an alias's master (at exit when on, or now)",
    group: "general",
    minArgs: 1,
    maxArgs: 2,
    run: headersSync,
  },
];
