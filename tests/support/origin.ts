/**
 * A local update origin on 127.0.0.1 (Deno.serve) that answers like a Gitea raw endpoint,
 * `/<owner>/<repo>/raw/branch/main/<path>`, and can misbehave on demand: an HTML sign-in page at
 * 200 (with or without text/html), a 302 to /user/login, 404s, a truncated body, a trickled body,
 * a token-only (private) repository. Releases are built with real hashes and real Ed25519
 * signatures (update/signature.ts).
 */
import { formatManifest } from "../../update/manifest.ts";
import { sha256Hex } from "../../update/hash.ts";
import { signManifest } from "../../update/signature.ts";

export type Files = Record<string, string | Uint8Array>;

const enc = (v: string | Uint8Array) => typeof v === "string" ? new TextEncoder().encode(v) : v;

/** A release: the files, VERSION, a hashed MANIFEST, and MANIFEST.sig when a key is given. */
export async function makeRelease(
  version: string,
  files: Files,
  options: { privateKey?: string; extraManifestLines?: string[] } = {},
): Promise<Map<string, Uint8Array>> {
  const out = new Map<string, Uint8Array>();
  out.set("VERSION", enc(`${version}\n`));
  for (const [p, v] of Object.entries(files)) out.set(p, enc(v));
  const entries = [...out].map(([path, b]) => ({ path, sha256: sha256Hex(b), size: b.length }));
  const manifest = formatManifest(entries) + (options.extraManifestLines ?? []).map((l) => `${l}\n`).join("");
  out.set("MANIFEST", enc(manifest));
  if (options.privateKey) {
    out.set("MANIFEST.sig", enc((await signManifest(enc(manifest), options.privateKey)).sigLine));
  }
  return out;
}

export type Behaviour =
  | { kind: "normal" }
  | { kind: "html200"; contentType: boolean; body?: string }
  | { kind: "login302" }
  | { kind: "notFound" }
  /** Announces the full length, sends half, closes. */
  | { kind: "truncated"; path: string }
  /** Sends `path` at `bytesPerSec`. */
  | { kind: "slow"; path: string; bytesPerSec: number }
  /** Serves `path` with these bytes instead (MANIFEST still lists the real hash). */
  | { kind: "swap"; path: string; body: Uint8Array }
  /** Answers 404 unless `Authorization: token <token>` is sent. */
  | { kind: "tokenOnly"; token: string }
  /** Redirects every request to another origin. */
  | { kind: "redirectTo"; base: string }
  /** Answers `body` (200, text/plain) for every path, as a catch-all page or a misrouted proxy does. */
  | { kind: "sameForEvery"; body: string }
  /** Never answers. */
  | { kind: "hang" }
  /** Never answers for these paths; serves the rest normally. */
  | { kind: "hangOn"; paths: string[] };

const SIGN_IN =
  `<!DOCTYPE html>\n<html lang="en"><head><title>Sign In - Gitea</title></head><body>login</body></html>\n`;

export interface LocalOrigin {
  baseUrl: string;
  files: Map<string, Uint8Array>;
  behaviour: Behaviour;
  /** Every request: path and the Authorization header as received. */
  requests: Array<{ path: string; authorization: string | null }>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** Starts an origin serving `files` under `/ops/assist`. */
export function startOrigin(
  files: Map<string, Uint8Array>,
  behaviour: Behaviour = { kind: "normal" },
): LocalOrigin {
  const prefix = "/ops/assist/raw/branch/main/";
  const hanging = new Set<(v: Response) => void>();
  const state: LocalOrigin = {
    baseUrl: "",
    files,
    behaviour,
    requests: [],
    async [Symbol.asyncDispose]() {
      for (const r of hanging) r(new Response("bye", { status: 503 }));
      await server.shutdown();
    },
  };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const url = new URL(req.url);
    const b = state.behaviour;
    state.requests.push({ path: url.pathname, authorization: req.headers.get("authorization") });
    if (url.pathname === "/user/login") {
      return new Response(SIGN_IN, { headers: { "content-type": "text/html; charset=utf-8" } });
    }
    if (b.kind === "hang") return new Promise<Response>((r) => hanging.add(r));
    if (b.kind === "login302") {
      return new Response(null, {
        status: 302,
        headers: { location: `/user/login?redirect_to=${url.pathname}` },
      });
    }
    if (b.kind === "redirectTo") return Response.redirect(`${b.base}${url.pathname}`, 302);
    if (b.kind === "html200") {
      return new Response(b.body ?? SIGN_IN, {
        headers: b.contentType ? { "content-type": "text/html; charset=utf-8" } : {},
      });
    }
    if (b.kind === "notFound") return new Response("Not found.\n", { status: 404 });
    if (b.kind === "sameForEvery") {
      return new Response(b.body, { headers: { "content-type": "text/plain; charset=utf-8" } });
    }
    if (b.kind === "tokenOnly" && req.headers.get("authorization") !== `token ${b.token}`) {
      return new Response("Not found.\n", { status: 404 });
    }
    if (!url.pathname.startsWith(prefix)) return new Response("Not found.\n", { status: 404 });
    const path = decodeURIComponent(url.pathname.slice(prefix.length));
    if (b.kind === "hangOn" && b.paths.includes(path)) return new Promise<Response>((r) => hanging.add(r));
    let body = state.files.get(path);
    if (!body) return new Response("Not found.\n", { status: 404 });
    const headers = { "content-type": "text/plain; charset=utf-8" };
    if (b.kind === "swap" && b.path === path) body = b.body;
    if (b.kind === "truncated" && b.path === path) {
      const half = body.subarray(0, Math.floor(body.length / 2));
      const stream = new ReadableStream<Uint8Array>({
        start(c) {
          c.enqueue(half);
          setTimeout(() => c.error(new Error("cut")), 20);
        },
      });
      return new Response(stream, { headers: { ...headers, "content-length": String(body.length) } });
    }
    if (b.kind === "slow" && b.path === path) {
      const all = body;
      let off = 0;
      let timer: ReturnType<typeof setInterval> | undefined;
      const stream = new ReadableStream<Uint8Array>({
        start(c) {
          const chunk = Math.max(1, Math.floor(b.bytesPerSec / 10));
          timer = setInterval(() => {
            if (off >= all.length) {
              clearInterval(timer);
              c.close();
              return;
            }
            try {
              c.enqueue(all.subarray(off, off + chunk));
            } catch {
              clearInterval(timer);
            }
            off += chunk;
          }, 100);
        },
        cancel() {
          clearInterval(timer);
        },
      });
      return new Response(stream, { headers });
    }
    return new Response(body as Uint8Array<ArrayBuffer>, { headers });
  });
  state.baseUrl = `http://127.0.0.1:${server.addr.port}/ops/assist`;
  return state;
}

/**
 * Every file under `root` (relative path → bytes), for byte-identical comparisons. The update lock
 * of the root (`.assist-update.lock`, empty when nobody holds it) is the updater's own file and is
 * left out.
 */
export async function snapshot(root: string, rel = ""): Promise<Map<string, Uint8Array>> {
  const out = new Map<string, Uint8Array>();
  for await (const e of Deno.readDir(rel ? `${root}/${rel}` : root)) {
    const p = rel ? `${rel}/${e.name}` : e.name;
    if (p === ".assist-update.lock") continue;
    if (e.isDirectory) { for (const [k, v] of await snapshot(root, p)) out.set(k, v); }
    else if (e.isFile) out.set(p, await Deno.readFile(`${root}/${p}`));
  }
  return out;
}

/** Writes files into a folder (creating subfolders). */
export async function writeTree(root: string, files: Map<string, Uint8Array> | Files): Promise<void> {
  const entries = files instanceof Map
    ? [...files]
    : Object.entries(files).map(([k, v]) => [k, enc(v)] as const);
  for (const [p, b] of entries) {
    const full = `${root}/${p}`;
    await Deno.mkdir(full.slice(0, full.lastIndexOf("/")), { recursive: true });
    await Deno.writeFile(full, b);
  }
}
