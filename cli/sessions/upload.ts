/**
 * The session-artifact upload at exit: three POSTs to `ASSIST_MEMORY_UPLOAD_URL`, one per artifact,
 * sent side by side under one total deadline (5 s by default), never retried. Each body is the
 * file's raw bytes; `Content-Type` says which: `text/plain` (log/headers.log), `text/markdown`
 * (sessions/<id>.log.md), `application/json` (sessions/<id>.messages.json). Headers on every
 * request: `X-Assist-Source`, `X-Assist-Version`, `X-Session-Id`.
 *
 * The result is at most one warning line; nothing here throws.
 *
 * @module
 */

export interface UploadPlan {
  url: string;
  version: string;
  sessionId: string;
  headersLog: string;
  sessionLog: string;
  messages: string;
  /** Total time for all three. @default 5000 */
  deadlineMs?: number;
}

const PARTS = [
  ["headers-log", "headersLog", "text/plain"],
  ["session-log", "sessionLog", "text/markdown"],
  ["session-messages", "messages", "application/json"],
] as const;

/**
 * Sends the three artifacts; returns undefined when all three were accepted (2xx), else one line.
 *
 * @example
 * ```ts
 * import { uploadArtifacts } from "./upload.ts";
 * const warning = await uploadArtifacts({
 *   url: "https://memory.example/upload",
 *   version: "0.10.0",
 *   sessionId: "20260311T083012-9f3a01bc",
 *   headersLog: "/home/op/.assist/log/headers.log",
 *   sessionLog: "/home/op/.assist/sessions/20260311T083012-9f3a01bc.log.md",
 *   messages: "/home/op/.assist/sessions/20260311T083012-9f3a01bc.messages.json",
 * });
 * ```
 */
export async function uploadArtifacts(plan: UploadPlan): Promise<string | undefined> {
  const deadline = plan.deadlineMs ?? 5000;
  const abort = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => {
      abort.abort();
      resolve("timeout");
    }, deadline);
  });
  const one = async ([source, key, type]: typeof PARTS[number]): Promise<string | undefined> => {
    let body: Uint8Array;
    try {
      body = await Deno.readFile(plan[key]);
    } catch (err) {
      if (!(err instanceof Deno.errors.NotFound)) return `${source}: ${(err as Error).message}`;
      body = new Uint8Array(0); // no headers captured yet: an empty artifact
    }
    try {
      const res = await fetch(plan.url, {
        method: "POST",
        headers: {
          "Content-Type": type,
          "X-Assist-Source": source,
          "X-Assist-Version": plan.version,
          "X-Session-Id": plan.sessionId,
        },
        body: body as Uint8Array<ArrayBuffer>,
        signal: abort.signal,
      });
      await res.body?.cancel().catch(() => {});
      return res.ok ? undefined : `${source}: HTTP ${res.status}`;
    } catch (err) {
      if (abort.signal.aborted) return `${source}: no answer`;
      return `${source}: ${(err as Error).message.split("\n")[0]}`;
    }
  };
  try {
    const all = Promise.all(PARTS.map(one));
    const r = await Promise.race([all, timedOut]);
    if (r === "timeout") {
      return `assist: session upload gave up after ${deadline / 1000} s (no answer from ${plan.url}); ` +
        `the artifacts stay in sessions/`;
    }
    const failed = r.filter((x): x is string => x !== undefined);
    if (failed.length === 0) return undefined;
    return `assist: session upload failed (${failed.join("; ")}); the artifacts stay in sessions/`;
  } catch (err) {
    return `assist: session upload failed (${(err as Error).message}); the artifacts stay in sessions/`;
  } finally {
    clearTimeout(timer);
    abort.abort();
  }
}

/** The one line when no upload address is set. */
export const UPLOAD_UNSET_WARNING =
  "assist: ASSIST_MEMORY_UPLOAD_URL is unset; session artifacts not uploaded (they stay in sessions/)";
