/** The small parts of update/: origin resolution, shape checks, MANIFEST lines, signatures, progress. */
import { deepStrictEqual as assertEquals, ok as assert, throws } from "node:assert/strict";
import { DEFAULT_BASE_URL, rawUrl, readPin, resolveOrigin } from "../../update/origin.ts";
import { checkShape, compareSemver, hasBinaryMagic, kindOf, looksLikeHtml } from "../../update/validate.ts";
import { formatManifest, parseManifest, unsafePath } from "../../update/manifest.ts";
import { generateKeyPair, keyId, signManifest, verifyManifest } from "../../update/signature.ts";
import { progressPrinter } from "../../update/progress.ts";
import { perFileLimitMs } from "../../update/fetch.ts";
import { launchSync } from "../../update/launch.ts";
import { startOrigin } from "../support/origin.ts";
import { runAssist, tempDir } from "../support/run_assist.ts";

const enc = (s: string) => new TextEncoder().encode(s);

Deno.test("origin: ASSIST_BASE_URL, else the pin, else the default; github and garbage pins warn and fall back", () => {
  assertEquals(resolveOrigin("https://a.example/x/", "https://b.example/y"), {
    baseUrl: "https://a.example/x",
    source: "env",
  });
  assertEquals(resolveOrigin(undefined, "https://b.example/y\r\n"), {
    baseUrl: "https://b.example/y",
    source: "pin",
  });
  assertEquals(resolveOrigin(undefined, "gitea\n"), { baseUrl: DEFAULT_BASE_URL, source: "default" });
  assertEquals(resolveOrigin(undefined, "auto\n"), { baseUrl: DEFAULT_BASE_URL, source: "default" });
  assertEquals(resolveOrigin(undefined, undefined), { baseUrl: DEFAULT_BASE_URL, source: "default" });
  const gh = resolveOrigin(undefined, "github\n");
  assertEquals(gh.baseUrl, DEFAULT_BASE_URL);
  assert(gh.warning?.includes("github mirror is private"));
  assert(resolveOrigin(undefined, "http://plain.example/x").warning, "plain http is not an origin");
  assert(resolveOrigin(undefined, "https://user:pw@h.example/x").warning, "no credentials in a pin");
  assert(readPin("ftp://x").invalid);
  assert(resolveOrigin("https://h.example/x?q=1", undefined).warning);
});

Deno.test("origin: raw URLs encode each path segment", () => {
  assertEquals(
    rawUrl("https://g.example/o/r", "docs/a b#c.md"),
    "https://g.example/o/r/raw/branch/main/docs/a%20b%23c.md",
  );
});

Deno.test("validate: HTML by doctype, <html, or a sign-in title (BOM, whitespace, any case); LFS; kinds", () => {
  assert(looksLikeHtml(enc("\uFEFF\n  <!DOCTYPE HTML><p>")));
  assert(looksLikeHtml(enc("<html lang=en>")));
  assert(looksLikeHtml(enc("<head><title>Sign in · GitLab</title>")));
  assert(looksLikeHtml(enc("<head><title>Login</title>")));
  assert(!looksLikeHtml(enc("/** <html> in a comment is fine */\n")));
  // Other markup first, then the <html tag: still a page.
  assert(looksLikeHtml(enc('<?xml version="1.0"?>\n<html xmlns="http://www.w3.org/1999/xhtml">')));
  assert(looksLikeHtml(enc("<!-- proxy 4.2 -->\n<html><body>Access denied</body></html>")));
  assert(checkShape("prompts/system.md", enc("<!-- sso -->\n<HTML>\n<body>sign in</body>")));
  assertEquals(checkShape("VERSION", enc("0.10.1\n")), undefined);
  assert(checkShape("VERSION", enc("v0.10\n")));
  assertEquals(checkShape("main.ts", enc("/**\n * assist\n */\n")), undefined);
  assert(checkShape("main.ts", enc("hello")));
  assert(checkShape("install.sh", enc("echo no shebang\n")));
  assertEquals(checkShape("install.sh", enc("#!/bin/sh\n")), undefined);
  assert(checkShape("cli/x.ts", new Uint8Array([0xff, 0xfe, 0x00])), "not UTF-8");
  assert(
    checkShape("cli/x.ts", enc("version https://git-lfs.github.com/spec/v1\noid sha256:1\n"))?.includes(
      "LFS",
    ),
  );
  assertEquals(kindOf("dist/x86_64-windows/assist.exe"), "binary");
  assert(hasBinaryMagic(new Uint8Array([0x4d, 0x5a, 0x90, 0])));
  assert(hasBinaryMagic(new Uint8Array([0xcf, 0xfa, 0xed, 0xfe])));
  assert(hasBinaryMagic(new Uint8Array([0xca, 0xfe, 0xba, 0xbe])));
  assert(!hasBinaryMagic(enc("#!/b")));
});

Deno.test("MANIFEST: both line forms, comments; every unsafe path refused with its line", () => {
  const h = "a".repeat(64);
  assertEquals(parseManifest(`# assist\nVERSION ${h} 7\nREADME.md\n`), [
    { path: "VERSION", sha256: h, size: 7 },
    { path: "README.md" },
  ]);
  for (
    const bad of ["../x", "/etc/passwd", "C:\\x", "c:/x", "a/../../x", "a//b", "./a", "a\tb", "a\\b", "x\0y"]
  ) {
    assert(unsafePath(bad), bad);
    throws(() => parseManifest(`ok.ts\n${bad}\n`), /MANIFEST line 2/);
  }
  throws(() => parseManifest(`a ${h} 1\na ${h} 1\n`), /listed twice/);
  throws(() => parseManifest(`a ${h}\n`), /not "<path> <sha256> <size>"/);
  throws(() => parseManifest(`a ${h.toUpperCase()} 1\n`), /MANIFEST line 1/);
  assertEquals(formatManifest([{ path: "b", sha256: h, size: 1 }, { path: "a" }]), `a\nb ${h} 1\n`);
});

Deno.test("signature: Ed25519 over the exact bytes; another key, another byte, a torn line all fail", async () => {
  const k = await generateKeyPair();
  const other = await generateKeyPair();
  const m = enc(`VERSION ${"b".repeat(64)} 7\n`);
  const { sigLine, publicKey } = await signManifest(m, k.privatePem);
  assertEquals(publicKey, k.publicKey);
  assert(sigLine.startsWith(`ed25519 ${keyId(k.publicKey)} `));
  assert(await verifyManifest(m, sigLine, [other.publicKey, k.publicKey]));
  assert(!(await verifyManifest(m, sigLine, [other.publicKey])), "an unknown key");
  const m2 = m.slice();
  m2[0] ^= 1;
  assert(!(await verifyManifest(m2, sigLine, [k.publicKey])), "one byte changed");
  assert(!(await verifyManifest(m, sigLine.slice(0, 40), [k.publicKey])), "a torn signature line");
  assert(!(await verifyManifest(m, "", [k.publicKey])));
});

Deno.test("progress: in place on a terminal; every 10th file and the last otherwise", () => {
  const tty: string[] = [];
  const p = progressPrinter((s) => tty.push(s), true);
  p.report({ phase: "checking", n: 1, total: 12, path: "a" });
  p.report({ phase: "downloading", n: 1, total: 12, path: "a" });
  p.done();
  assertEquals(tty, ["\r\x1b[Kchecking 1/12 a", "\r\x1b[Kdownloading 1/12 a", "\r\x1b[K"]);
  const plain: string[] = [];
  const q = progressPrinter((s) => plain.push(s), false);
  for (let n = 1; n <= 12; n++) q.report({ phase: "checking", n, total: 12, path: `f${n}` });
  q.done();
  assertEquals(plain, ["checking 10/12 f10\n", "checking 12/12 f12\n"]);
});

Deno.test("per-file limit: max(30 s, size / 200 KB/s)", () => {
  assertEquals(perFileLimitMs(undefined), 30_000);
  assertEquals(perFileLimitMs(1_000_000), 30_000);
  assertEquals(perFileLimitMs(100_000_000), 500_000);
});

Deno.test("launch, compiled binary: a newer release is announced, never installed before the prompt", async () => {
  await using tmp = await tempDir();
  await using origin = startOrigin(new Map([["VERSION", enc("0.99.0\n")]]));
  const lines: string[] = [];
  const r = await launchSync({
    home: tmp.path,
    baseUrl: origin.baseUrl,
    line: (s) => lines.push(s),
    compiled: true,
    current: "0.10.0",
  });
  assertEquals(r, undefined);
  assertEquals(lines, ["assist 0.99.0 is available (this is 0.10.0): run assist update"]);
  assertEquals(origin.requests.map((q) => q.path), ["/ops/assist/raw/branch/main/VERSION"]);
  lines.length = 0;
  await launchSync({
    home: tmp.path,
    baseUrl: origin.baseUrl,
    line: (s) => lines.push(s),
    compiled: true,
    current: "0.99.0",
  });
  assertEquals(lines, []);
});

Deno.test("compareSemver: numeric parts, pre-releases before their release, build ignored", () => {
  const order = [
    "0.9.0",
    "0.9.1",
    "0.10.0-alpha",
    "0.10.0-alpha.1",
    "0.10.0-alpha.beta",
    "0.10.0-beta.2",
    "0.10.0-beta.11",
    "0.10.0",
    "1.0.0",
  ];
  for (let i = 0; i < order.length; i++) {
    for (let j = 0; j < order.length; j++) {
      assertEquals(
        Math.sign(compareSemver(order[i], order[j])),
        Math.sign(i - j),
        `${order[i]} vs ${order[j]}`,
      );
    }
  }
  assertEquals(compareSemver("1.0.0+build.5", "1.0.0"), 0);
});

Deno.test("MANIFEST: Windows-hostile and .git paths refused; duplicates compared ignoring case", () => {
  const h = "a".repeat(64);
  const cases: Array<[string, RegExp]> = [
    ["cli/a:b.ts", /colon/],
    ["file.ts:Zone.Identifier", /colon/],
    ["CON", /Windows device/],
    ["cli/nul.txt", /Windows device/],
    ["Aux.tar.gz", /Windows device/],
    ["lpt9", /Windows device/],
    ["com1.ts", /Windows device/],
    ["cli/x.ts.", /dot or space/],
    ["cli /x.ts", /whitespace/],
    ["dir./x.ts", /dot or space/],
    [".git/hooks/pre-commit", /\.git/],
    ["cli/.GIT/config", /\.git/],
  ];
  for (const [bad, why] of cases) {
    assert(why.test(unsafePath(bad) ?? ""), `${bad}: ${unsafePath(bad)}`);
    throws(() => parseManifest(`ok.ts\n${bad}\n`), /MANIFEST line 2/);
  }
  // Names that only look close stay allowed.
  for (
    const ok of ["console.ts", "cli/com10.ts", "auxiliary.md", ".gitignore", "docs/nullable.ts", "a.b/c"]
  ) {
    assertEquals(unsafePath(ok), undefined, ok);
  }
  throws(
    () => parseManifest(`cli/X.ts ${h} 1\ncli/x.ts ${h} 1\n`),
    /MANIFEST line 2: cli\/x\.ts is listed twice/,
  );
  throws(() => parseManifest(`CLI/a.ts\ncli/a.ts\n`), /listed twice/);
});

Deno.test("assist update --help / -h: the help on stdout, exit 0; an unknown option is still a usage error", async () => {
  for (const flag of ["--help", "-h"]) {
    const r = await runAssist(["update", flag]);
    assertEquals(r.code, 0, r.stderr);
    assertEquals(r.stderr, "");
    assert(r.stdout.startsWith("usage: assist update [--force]\n"), r.stdout);
    assert(r.stdout.includes("--force"));
  }
  const bad = await runAssist(["update", "--bogus"]);
  assertEquals(bad.code, 2);
  assertEquals(bad.stdout, "");
  assert(bad.stderr.includes("usage: assist update [--force]"), bad.stderr);
});
