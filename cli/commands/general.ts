/**
 * The general commands of the REPL (group "general": the REPL itself, its conversation and its
 * sessions) and the model commands: /help, /quit, /reset, /clear, /sessions, /resume, /load, /copy,
 * /show-last-tool, /mouse, /model, /cost, /status. They act on the REPL through its ReplHost and
 * have no command-line form.
 *
 * @module
 */
import { lazy } from "../../core/lazy.ts";
import { AssistError } from "../../core/errors.ts";
import type { Command } from "./types.ts";
import { needRepl } from "./_util.ts";

/** A REPL-only command with no arguments whose body is one ReplHost call. */
function simple(name: string, summary: string, group: Command["group"], body: Command["run"]): Command {
  return { name, args: "", summary, group, minArgs: 0, maxArgs: 0, run: body };
}

export const GENERAL_COMMANDS: readonly Command[] = [
  simple("help", "this help: commands by group, then keys", "general", (_a, ctx) => {
    if (!ctx.helpText) throw new AssistError("/help ran without the command table", { level: "internal" });
    ctx.io.out(ctx.helpText());
    return Promise.resolve();
  }),
  simple("quit", "leave (Ctrl-D on an empty line does the same)", "general", (_a, ctx) => {
    needRepl(ctx, "quit").quit();
    return Promise.resolve();
  }),
  simple("reset", "clear the conversation", "general", (_a, ctx) => {
    needRepl(ctx, "reset").reset();
    ctx.io.out("conversation cleared");
    return Promise.resolve();
  }),
  simple("clear", "clear the terminal screen only", "general", (_a, ctx) => {
    needRepl(ctx, "clear").clearScreen();
    return Promise.resolve();
  }),
  simple("sessions", "recent sessions: id, start, turns, cost, first prompt", "general", async (_a, ctx) => {
    ctx.io.out(await needRepl(ctx, "sessions").sessions());
  }),
  {
    name: "resume",
    args: "[<id>]",
    summary: "continue an earlier session (no id: the latest); /sessions lists them",
    group: "general",
    minArgs: 0,
    maxArgs: 1,
    async run(a, ctx) {
      ctx.io.out(await needRepl(ctx, "resume").resume(a[0]));
    },
  },
  {
    name: "load",
    args: "<file>",
    summary: "load a file into your next prompt (HL7 goes through the HL7 sanitizer first)",
    group: "general",
    minArgs: 1,
    maxArgs: 1,
    rawTail: true,
    completeArgs: "path",
    async run(a, ctx) {
      const repl = needRepl(ctx, "load");
      const { loadFile } = await lazy<typeof import("./_load.ts")>(import.meta.url, "./_load.ts");
      const r = await loadFile(a[0], repl);
      if (r.notice) ctx.io.out(r.notice);
      ctx.io.out(
        `loaded ${r.label} (${r.bytes} bytes${
          r.hl7 ? ", HL7 sanitized" : ""
        }); it goes with your next prompt`,
      );
    },
  },
  simple(
    "copy",
    "copy the last answer to the clipboard (printed with a warning if no tool works)",
    "general",
    async (_a, ctx) => {
      const text = needRepl(ctx, "copy").lastAnswer();
      if (text === undefined || text === "") {
        throw new AssistError("no answer to copy yet", {
          level: "input",
        });
      }
      const { copyToClipboard } = await lazy<typeof import("./_clipboard.ts")>(
        import.meta.url,
        "./_clipboard.ts",
      );
      const r = await copyToClipboard(text);
      if (r.tool) {
        ctx.io.out(`copied the last answer (${new TextEncoder().encode(text).length} bytes) with ${r.tool}`);
        return;
      }
      ctx.io.warn(
        r.tried.length
          ? `no clipboard tool worked (${r.tried.join("; ")}); here is the answer to copy by hand:`
          : "no clipboard tool found (pbcopy, wl-copy, xclip, xsel, clip.exe); here is the answer to copy by hand:",
      );
      ctx.io.out(text);
    },
  ),
  simple("show-last-tool", "the full last tool call and its full result", "general", (_a, ctx) => {
    const t = needRepl(ctx, "show-last-tool").lastTool();
    if (!t) {
      ctx.io.out("no tool has run yet");
      return Promise.resolve();
    }
    ctx.io.out([
      `tool: ${t.name}`,
      `input: ${JSON.stringify(t.input, null, 2)}`,
      ...(t.withheld === undefined ? [`result${t.isError ? " (error)" : ""}:`, t.result] : [
        "result (withheld at the review gate: for your eyes only, it never went to the model):",
        t.withheld,
        "the model got instead:",
        t.result,
      ]),
    ].join("\n"));
    return Promise.resolve();
  }),
  {
    name: "mouse",
    args: "on|off",
    summary: "mouse reporting on or off (ASSIST_NO_MOUSE refuses it)",
    group: "general",
    minArgs: 1,
    maxArgs: 1,
    run(a, ctx) {
      const repl = needRepl(ctx, "mouse");
      const v = a[0].toLowerCase();
      if (v !== "on" && v !== "off") throw new AssistError("usage: /mouse on|off", { level: "usage" });
      if (v === "on" && ctx.config.noMouse) {
        throw new AssistError("mouse mode is switched off here (ASSIST_NO_MOUSE is set)", {
          level: "refused",
        });
      }
      repl.setMouse(v === "on");
      ctx.io.out(`mouse reporting ${v}`);
      return Promise.resolve();
    },
  },
  {
    name: "model",
    args: "<id>",
    summary: "change the model (the prompt shows it at once)",
    group: "model",
    minArgs: 0,
    maxArgs: 1,
    async run(a, ctx) {
      const repl = needRepl(ctx, "model");
      if (a.length === 0) {
        ctx.io.out(`model: ${repl.model}\nusage: /model <id>`);
        return;
      }
      const id = a[0];
      if (!/^[A-Za-z0-9][A-Za-z0-9._:@\/-]*$/.test(id)) {
        throw new AssistError(`"${id}" is not a model id (letters, digits and . _ : @ / - only)`, {
          level: "usage",
        });
      }
      repl.setModel(id);
      ctx.io.out(`model: ${id}`);
      // `/model opus` is taken as typed; say at once that it is not an id this version knows, before
      // a turn is spent on the API's refusal (and /cost's figures would be estimates).
      const { priceOf } = await lazy<typeof import("../model/pricing.ts")>(
        import.meta.url,
        "../model/pricing.ts",
      );
      if (!priceOf(id).known) {
        ctx.io.warn(
          `"${id}" is not a model id this version knows (full ids look like claude-sonnet-4-6); ` +
            "the API refuses an id it does not serve, and /cost estimates its prices",
        );
      }
    },
  },
  simple("cost", "tokens and dollar cost: per stream and for the session", "model", (_a, ctx) => {
    ctx.io.out(needRepl(ctx, "cost").costText());
    return Promise.resolve();
  }),
  simple("status", "render the status line now", "model", (_a, ctx) => {
    ctx.io.out(needRepl(ctx, "status").statusLine());
    return Promise.resolve();
  }),
];
