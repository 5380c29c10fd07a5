/**
 * core/path.ts against `node:path` (the oracle it replaces at start-up): every function, both
 * flavors, on generated paths built from the pieces that make paths hard (separators of both kinds,
 * doubled separators, `.`, `..`, drives, UNC shares, trailing separators, empty parts).
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import * as node from "node:path";
import { posix, posixCwd, win32 } from "../../core/path.ts";

/** A small deterministic generator (mulberry32), so a failure names a reproducible case. */
function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NAMES = ["a", "bc", ".", "..", "...", ".x", "x.y", "site1", "A b", ""];
const POSIX_HEADS = ["", "/", "//", "///", "./", "../"];
// Device-namespace prefixes (`\\?\C:\`, `\\.\pipe\`) are left out: node gives them rules of their
// own, and the path guard strips them before any path function sees one (tools/files/protect.ts).
const NAMESPACE = /^[\\/]{2}[.?](?:[\\/]|$)/;
const WIN_HEADS = [
  "",
  "C:",
  "c:\\",
  "C:/",
  "\\",
  "/",
  "\\\\",
  "\\\\srv",
  "\\\\srv\\",
  "\\\\srv\\share",
  "//srv/share/",
  "\\\\\\x\\",
];

function gen(next: () => number, heads: string[], seps: string[]): string {
  const pick = <T>(xs: T[]) => xs[Math.floor(next() * xs.length)];
  let p = pick(heads);
  const n = Math.floor(next() * 5);
  for (let i = 0; i < n; i++) {
    p += pick(NAMES);
    if (i < n - 1 || next() < 0.3) p += pick(seps).repeat(1 + Math.floor(next() * 2));
  }
  return p;
}

const CASES = 4000;

Deno.test("posix: every function equals node:path on generated paths", () => {
  const next = rng(17);
  for (let i = 0; i < CASES; i++) {
    const a = gen(next, POSIX_HEADS, ["/"]);
    const b = gen(next, POSIX_HEADS, ["/"]);
    for (const f of ["normalize", "dirname", "basename", "isAbsolute"] as const) {
      assertEquals([f, a, posix[f](a)], [f, a, node.posix[f](a)]);
    }
    assertEquals(["root", a, posix.root(a)], ["root", a, node.posix.parse(a).root]);
    assertEquals(["join", a, b, posix.join(a, b)], ["join", a, b, node.posix.join(a, b)]);
    assertEquals(["join3", a, b, posix.join(a, "", b, a)], ["join3", a, b, node.posix.join(a, "", b, a)]);
    assertEquals(["resolve", a, b, posix.resolve(`/r/${a}`, b)], [
      "resolve",
      a,
      b,
      node.posix.resolve(`/r/${a}`, b),
    ]);
  }
  // The process folder is the last resort, as in node.
  assertEquals(posix.resolve("x"), node.posix.resolve("x"));
  assertEquals(posix.join(), node.posix.join());
});

Deno.test("posix: a Windows process folder reads as a POSIX path, as node's path.posix takes it", () => {
  // What Deno.cwd() answers on Windows (and under Wine, where the Unix root is drive Z:).
  assertEquals(posixCwd("Z:\\tmp\\repo", true), "/tmp/repo");
  assertEquals(posixCwd("C:\\", true), "/");
  assertEquals(posixCwd("\\\\srv\\share\\d", true), "//srv/share/d");
  assertEquals(posixCwd("/srv/a\\b", false), "/srv/a\\b");
  // posix.resolve takes the folder this way (on Windows, where Deno.cwd() has a drive).
  assertEquals(posix.resolve("x"), `${posixCwd()}/x`.replace(/^\/\//, "/"));
  assertEquals(posix.resolve("x").includes("\\"), false);
});

Deno.test("win32: every function equals node:path on generated paths", () => {
  const next = rng(42);
  for (let i = 0; i < CASES; i++) {
    const a = gen(next, WIN_HEADS, ["\\", "/"]);
    const b = gen(next, WIN_HEADS, ["\\", "/"]);
    if (NAMESPACE.test(a) || NAMESPACE.test(b)) continue;
    for (const f of ["normalize", "dirname", "basename", "isAbsolute"] as const) {
      assertEquals([f, a, win32[f](a)], [f, a, node.win32[f](a)]);
    }
    assertEquals(["root", a, win32.root(a)], ["root", a, node.win32.parse(a).root]);
    assertEquals(["join", a, b, win32.join(a, b)], ["join", a, b, node.win32.join(a, b)]);
    assertEquals(["join3", a, b, win32.join(a, "", b, a)], ["join3", a, b, node.win32.join(a, "", b, a)]);
    // Against an absolute folder with a drive, as the tools call it. A drive-relative `C:x` on
    // another drive needs that drive's own folder, which node reads from the process: left out.
    if (/^[A-Za-z]:(?![\\/])/.test(b)) continue;
    for (const cwd of ["C:\\cl\\root", "D:/x/", "\\\\srv\\share\\d"]) {
      assertEquals(["resolve", cwd, b, win32.resolve(cwd, b)], [
        "resolve",
        cwd,
        b,
        node.win32.resolve(cwd, b),
      ]);
    }
  }
});
