import { deepStrictEqual as assertEquals, match, ok as assert } from "node:assert/strict";
import { comparable, PathGuard, protectedPlace } from "../../../tools/files/protect.ts";
import { tempDir } from "../../support/run_assist.ts";
import { call, contextFor, errorOf } from "../support.ts";

const POSIX = { windows: false, caseInsensitive: false };
const POSIX_CI = { windows: false, caseInsensitive: true };
const WIN = { windows: true, caseInsensitive: true };

Deno.test("protectedPlace: pure corpus (POSIX, case-insensitive POSIX, Windows)", async (t) => {
  const H = "/home/op/.assist";
  const cases: Array<[string, string[], string[], typeof POSIX, string | undefined]> = [
    ["log folder itself", ["/home/op/.assist/log"], [H], POSIX, "log/"],
    ["file under log", ["/home/op/.assist/log/auto-phi.log"], [H], POSIX, "log/"],
    ["trailing slash", ["/home/op/.assist/log/"], [H], POSIX, "log/"],
    ["double slashes", ["/home/op//.assist///sanitize//lookup.tsv"], [H], POSIX, "sanitize/"],
    ["dot segments", ["/home/op/.assist/./sessions/./a.log.md"], [H], POSIX, "sessions/"],
    ["dot-dot chain into log", ["/home/op/.assist/tmp/../log/x"], [H], POSIX, "log/"],
    ["long dot-dot chain", ["/home/op/a/b/c/../../../.assist/sanitize/lookup.tsv"], [H], POSIX, "sanitize/"],
    [
      "nonexistent file under sessions",
      ["/home/op/.assist/sessions/nope/deeper.json"],
      [H],
      POSIX,
      "sessions/",
    ],
    [".oauth.json", ["/home/op/.assist/.oauth.json"], [H], POSIX, ".oauth.json"],
    [".oauth.json.new sidecar", ["/home/op/.assist/.oauth.json.new"], [H], POSIX, ".oauth.json"],
    [".env", ["/home/op/.assist/.env"], [H], POSIX, ".env"],
    ["ssh credentials", ["/home/op/.assist/.ssh-creds/prod"], [H], POSIX, ".ssh-creds/"],
    ["home given with trailing slash", ["/home/op/.assist/log/x"], ["/home/op/.assist/"], POSIX, "log/"],
    [
      "real form matches real home",
      ["/tmp/link/x", "/data/assist/log/x"],
      [H, "/data/assist"],
      POSIX,
      "log/",
    ],
    ["case variant, insensitive fs", ["/home/op/.assist/LOG/x"], [H], POSIX_CI, "log/"],
    [
      "case variant of home, insensitive fs",
      ["/HOME/OP/.Assist/Sanitize/lookup.tsv"],
      [H],
      POSIX_CI,
      "sanitize/",
    ],
    ["case variant of .ENV, insensitive fs", ["/home/op/.assist/.ENV"], [H], POSIX_CI, ".env"],
    ["windows backslashes", ["C:\\Users\\op\\.assist\\log\\x"], ["C:\\Users\\op\\.assist"], WIN, "log/"],
    [
      "windows mixed separators and case",
      ["c:/USERS/op/.ASSIST\\Sessions\\s.json"],
      ["C:\\Users\\op\\.assist"],
      WIN,
      "sessions/",
    ],
    ["windows trailing dot", ["C:\\Users\\op\\.assist\\log.\\x"], ["C:\\Users\\op\\.assist"], WIN, "log/"],
    ["windows trailing space", ["C:\\Users\\op\\.assist\\.env "], ["C:\\Users\\op\\.assist"], WIN, ".env"],
    [
      "windows alternate data stream",
      ["C:\\Users\\op\\.assist\\.oauth.json::$DATA"],
      ["C:\\Users\\op\\.assist"],
      WIN,
      ".oauth.json",
    ],
    [
      "windows extended-length prefix",
      ["\\\\?\\C:\\Users\\op\\.assist\\sanitize\\lookup.tsv"],
      ["C:\\Users\\op\\.assist"],
      WIN,
      "sanitize/",
    ],
    [
      "windows dot-dot",
      ["C:\\Users\\op\\Desktop\\..\\.assist\\log\\a"],
      ["C:\\Users\\op\\.assist"],
      WIN,
      "log/",
    ],
    // legitimate neighbours
    ["neighbour logbook", ["/home/op/.assist/logbook"], [H], POSIX, undefined],
    ["neighbour /tmp/log/x", ["/tmp/log/x"], [H], POSIX, undefined],
    ["home itself", ["/home/op/.assist"], [H], POSIX, undefined],
    ["history file", ["/home/op/.assist/.history"], [H], POSIX, undefined],
    ["nested .env elsewhere under home", ["/home/op/.assist/work/.env"], [H], POSIX, undefined],
    ["sibling of home", ["/home/op/.assist2/log/x"], [H], POSIX, undefined],
    ["case variant on case-sensitive fs", ["/home/op/.assist/LOG/x"], [H], POSIX, undefined],
    ["windows neighbour", ["C:\\Users\\op\\.assist\\logs\\x"], ["C:\\Users\\op\\.assist"], WIN, undefined],
  ];
  for (const [name, candidates, homes, flavor, want] of cases) {
    await t.step(name, () => assertEquals(protectedPlace(candidates, homes, flavor), want));
  }
});

Deno.test("comparable: normalizes without changing meaning", () => {
  assertEquals(comparable("/a/b/../c/", POSIX), "/a/c");
  assertEquals(comparable("/", POSIX), "/");
  assertEquals(comparable("C:\\", WIN), "c:/");
  assertEquals(comparable("C:\\A\\b.txt:stream", WIN), "c:/a/b.txt");
});

async function guardIn(dir: string, home: string) {
  return await PathGuard.create(home, dir);
}

Deno.test("PathGuard on the real file system: symlinks, traversal, nonexistent paths", async (t) => {
  await using tmp = await tempDir();
  const root = tmp.path;
  const home = `${root}/home/.assist`;
  await Deno.mkdir(`${home}/log`, { recursive: true });
  await Deno.mkdir(`${home}/sanitize`, { recursive: true });
  await Deno.mkdir(`${home}/logbook`, { recursive: true });
  await Deno.mkdir(`${root}/tmp/log`, { recursive: true });
  await Deno.writeTextFile(`${home}/log/auto-phi.log`, "secret");
  await Deno.writeTextFile(`${home}/sanitize/lookup.tsv`, "t\tNAME\tx\ty\n");
  await Deno.writeTextFile(`${home}/.oauth.json`, "{}");
  await Deno.writeTextFile(`${root}/tmp/log/x`, "fine");
  await Deno.symlink(`${home}/log`, `${root}/innocent`);
  await Deno.symlink(`${home}/sanitize/lookup.tsv`, `${root}/table.txt`);
  await Deno.symlink(`${home}/.oauth.json`, `${root}/tokens`);
  await Deno.mkdir(`${root}/deep/a/b`, { recursive: true });
  await Deno.symlink(`${home}/log`, `${root}/deep/a/b/l`);
  // A symlinked home: the operator's ASSIST_HOME points at the link, files are named by the target.
  await Deno.symlink(home, `${root}/linkhome`);

  const g = await guardIn(root, home);
  const gl = await guardIn(root, `${root}/linkhome`);
  const refused = async (guard: PathGuard, p: string) => (await guard.check(p, root)).place !== undefined;

  await t.step("symlink to log folder", async () => assert(await refused(g, "innocent/auto-phi.log")));
  await t.step("symlink to the folder itself", async () => assert(await refused(g, "innocent")));
  await t.step("symlink to lookup.tsv", async () => assert(await refused(g, "table.txt")));
  await t.step("symlink to .oauth.json", async () => assert(await refused(g, `${root}/tokens`)));
  await t.step(
    "nonexistent file through symlinked folder",
    async () => assert(await refused(g, "innocent/new/file")),
  );
  await t.step("dot-dot through a symlink resolves physically", async () => {
    // deep/a/b/l -> home/log, so l/../sanitize is home/sanitize physically (lexically deep/a/b/sanitize).
    assert(await refused(g, "deep/a/b/l/../sanitize/lookup.tsv"));
  });
  await t.step(
    "symlinked home: literal path via the link",
    async () => assert(await refused(gl, "linkhome/log/auto-phi.log")),
  );
  await t.step(
    "symlinked home: real path of the target",
    async () => assert(await refused(gl, `${home}/sanitize/lookup.tsv`)),
  );
  await t.step(
    "symlinked home: link to log found via real home",
    async () => assert(await refused(gl, "innocent/x")),
  );
  await t.step("relative dot-dot chain from a subfolder", async () => {
    const c = await g.check("../../home/.assist/log/auto-phi.log", `${root}/deep/a`);
    assert(c.place);
  });
  await t.step("hard link to the lookup table", async () => {
    await Deno.link(`${home}/sanitize/lookup.tsv`, `${root}/copy.tsv`);
    assert(await refused(g, "copy.tsv"));
  });
  await t.step("legitimate: logbook", async () => assert(!(await refused(g, `${home}/logbook`))));
  await t.step("legitimate: /tmp/log/x", async () => assert(!(await refused(g, "tmp/log/x"))));
  await t.step("legitimate: home itself", async () => assert(!(await refused(g, home))));
});

Deno.test("a protected entry that is a link: its target's real path is refused by every file tool", async (t) => {
  // Issue #29 item 5: $ASSIST_HOME/sanitize kept on another disk (a link to a folder outside the
  // home), and a lookup table inside log/ linked from elsewhere. The target is named by its own path.
  await using tmp = await tempDir();
  const root = tmp.path;
  const home = `${root}/home/.assist`;
  await Deno.mkdir(home, { recursive: true });
  await Deno.mkdir(`${root}/disk2/tables`, { recursive: true });
  await Deno.writeTextFile(`${root}/disk2/tables/lookup.tsv`, "[[NAME_1]]\tNAME\tjohn smith\tSMITH^JOHN\n");
  await Deno.symlink(`${root}/disk2/tables`, `${home}/sanitize`);
  await Deno.mkdir(`${home}/log`);
  await Deno.mkdir(`${root}/disk3`);
  await Deno.writeTextFile(`${root}/disk3/audit.log`, '{"value":"SMITH^JOHN"}\n');
  await Deno.symlink(`${root}/disk3/audit.log`, `${home}/log/auto-phi.log`);
  await Deno.writeTextFile(`${root}/disk3/settings`, "X=SMITH^JOHN\n");
  await Deno.symlink(`${root}/disk3/settings`, `${home}/.env`);
  await Deno.writeTextFile(`${root}/disk3/fine.txt`, "nothing here\n");
  const ctx = contextFor(home, root);
  const { readFileTool } = await import("../../../tools/files/read_file_tool.ts");
  const { grepFilesTool } = await import("../../../tools/files/grep_files_tool.ts");
  const { globFilesTool } = await import("../../../tools/files/glob_files_tool.ts");
  const { listDirTool } = await import("../../../tools/files/list_dir_tool.ts");

  await t.step("read_file of the linked folder's file, by its real path", async () => {
    const e = errorOf(await call(readFileTool, { path: `${root}/disk2/tables/lookup.tsv` }, ctx));
    assertEquals([e.error, /protected sanitize\//.test(e.message)], ["protected_path", true]);
  });
  await t.step("read_file of a linked file inside a protected folder, and of a linked .env", async () => {
    assertEquals(errorOf(await call(readFileTool, { path: "disk3/audit.log" }, ctx)).error, "protected_path");
    assertEquals(errorOf(await call(readFileTool, { path: "disk3/settings" }, ctx)).error, "protected_path");
  });
  await t.step("grep_files and glob_files inside the linked folder are refused", async () => {
    // disk2 holds the protected folder: grep searches it, but never enters the folder.
    const g = await call(grepFilesTool, { pattern: "SMITH", path: `${root}/disk2` }, ctx);
    match(g.text, /^no matches for \/SMITH\/\n\[grep_files: 1 protected path\(s\) not searched\]$/);
    const inside = errorOf(
      await call(grepFilesTool, { pattern: "SMITH", path: `${root}/disk2/tables` }, ctx),
    );
    assertEquals(inside.error, "protected_path");
    const glob = await call(globFilesTool, { pattern: "**/*", path: root }, ctx);
    assert(!glob.text.includes("lookup.tsv") && !glob.text.includes("audit.log"), glob.text);
    assert(glob.text.includes("disk3/fine.txt"), glob.text);
  });
  await t.step("list_dir marks the linked folder protected", async () => {
    const l = await call(listDirTool, { path: `${root}/disk2` }, ctx);
    match(l.text, /tables\/\s+\[protected\]/);
  });
  await t.step("a link made after the guard was built counts at once", async () => {
    await Deno.mkdir(`${root}/disk4`);
    await Deno.writeTextFile(`${root}/disk4/s1.log.md`, "SMITH^JOHN\n");
    await Deno.symlink(`${root}/disk4`, `${home}/sessions`);
    assertEquals(errorOf(await call(readFileTool, { path: "disk4/s1.log.md" }, ctx)).error, "protected_path");
  });
  await t.step("the temporaries of a protected file are protected too", () => {
    const H = "/home/op/.assist";
    assertEquals(protectedPlace([`${H}/.env.4242.0a1b2c3d.new`], [H], POSIX), ".env");
    assertEquals(protectedPlace([`${H}/.env.example`], [H], POSIX), undefined);
  });
});
