/**
 * Fault suite for the state files under $ASSIST_HOME (issue #29 items 4, 5 and 10): several real
 * processes of the program on one home at once, a tmpfs that fills up, and one remounted
 * read-only. Deterministic: writers start together on a barrier file, the disk is filled to the
 * byte by a filler file, and the one sweep (free pages x several writers) is a fixed list.
 *
 * Needs Linux and root for the tmpfs (tests/support/tmpfs.ts): it fails, never skips, without them.
 */
import { deepStrictEqual as assertEquals, match, ok as assert } from "node:assert/strict";
import { mountTmpfs } from "../support/tmpfs.ts";
import { CONFIG, runAssist, runCommand, tempDir } from "../support/run_assist.ts";
import { History, parseHistory } from "../../cli/repl/history.ts";
import { parseHosts } from "../../ssh/registry.ts";
import { updateDotenv } from "../../core/dotenv.ts";

const WRITER = new URL("./_writer.ts", import.meta.url).pathname;
const COMMENT = "# lab hosts: ask Ana before removing\n";

/** The files of a folder, sorted, leaving out what the test itself put there. */
function names(dir: string): string[] {
  return [...Deno.readDirSync(dir)].map((e) => e.name).filter((n) => n !== ".filler").sort();
}

/** Temporaries (`<file>.<pid>.<hex>.new`, `<file>.new`) left in a folder. */
function temporaries(dir: string): string[] {
  return names(dir).filter((n) => n.endsWith(".new"));
}

/** Starts `n` writer processes on `file`, releases them together, and returns their results. */
async function writers(kind: "history" | "dotenv", file: string, n: number, count: number) {
  const dir = file.slice(0, file.lastIndexOf("/"));
  const runs = Array.from(
    { length: n },
    (_, i) =>
      runCommand(Deno.execPath(), [
        "run",
        "-q",
        "-P=test",
        "--config",
        CONFIG,
        WRITER,
        kind,
        file,
        `W${i}`,
        String(count),
      ]),
  );
  // The barrier: every writer is loaded and waiting before any of them writes.
  for (;;) {
    if (names(dir).filter((x) => x.startsWith("ready.")).length === n) break;
    await new Promise((r) => setTimeout(r, 10));
  }
  await Deno.writeTextFile(`${dir}/go`, "");
  const results = await Promise.all(runs);
  for (const f of names(dir)) if (f.startsWith("ready.") || f === "go") await Deno.remove(`${dir}/${f}`);
  return results;
}

Deno.test("faults: several `assist ssh add` at once on one home: every add lands, comments stay", async () => {
  await using tmp = await tempDir();
  const home = `${tmp.path}/.assist`;
  const env = { HOME: tmp.path, ASSIST_HOME: home };
  await Deno.mkdir(home, { mode: 0o700 });
  await Deno.writeTextFile(`${home}/.ssh-hosts.tsv`, `${COMMENT}old\thci@old\t22\nnot a host line\n`);
  const results = await Promise.all(
    Array.from({ length: 10 }, (_, i) => runAssist(["ssh", "add", `h${i}`, `hci@10.0.0.${i}:22`], { env })),
  );
  for (const r of results) assertEquals([r.code, r.stderr], [0, ""]);
  const text = await Deno.readTextFile(`${home}/.ssh-hosts.tsv`);
  assert(text.startsWith(`${COMMENT}old\thci@old\t22\nnot a host line\n`), text);
  assertEquals(parseHosts(text).map((h) => h.alias).sort(), [
    "h0",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "h7",
    "h8",
    "h9",
    "old",
  ]);
  assertEquals(temporaries(home), []);
});

Deno.test("faults: history and .env writers in separate processes at once lose nothing", async () => {
  await using tmp = await tempDir();
  const history = `${tmp.path}/.history`;
  await Deno.writeTextFile(history, "typed before\n");
  for (const r of await writers("history", history, 4, 25)) assertEquals([r.code, r.stderr], [0, ""]);
  const entries = parseHistory(await Deno.readTextFile(history));
  assertEquals(entries.length, 1 + 4 * 25);
  for (let w = 0; w < 4; w++) {
    // Each writer's lines in its own order.
    const mine = entries.filter((e) => e.startsWith(`W${w} `));
    assertEquals(mine, Array.from({ length: 25 }, (_, i) => `W${w} line ${i}`));
  }

  const env = `${tmp.path}/.env`;
  await Deno.writeTextFile(env, "# settings by hand\nKEEP=me\n");
  for (const r of await writers("dotenv", env, 4, 15)) assertEquals([r.code, r.stderr], [0, ""]);
  const lines = (await Deno.readTextFile(env)).split("\n").filter((l) => l !== "");
  assertEquals(lines.slice(0, 2), ["# settings by hand", "KEEP=me"]);
  assertEquals(lines.length, 2 + 4 * 15);
  assertEquals(temporaries(tmp.path), []);
});

Deno.test("faults: a full disk: ssh add, ssh pass, history and .env fail in one line and keep the old file", async () => {
  await using disk = await mountTmpfs(512 * 1024);
  const home = `${disk.path}/.assist`;
  const env = { HOME: disk.path, ASSIST_HOME: home };
  assertEquals((await runAssist(["ssh", "add", "h1", "hci@10.0.0.1"], { env })).code, 0);
  const hosts = `${home}/.ssh-hosts.tsv`;
  await Deno.writeTextFile(hosts, COMMENT + (await Deno.readTextFile(hosts)));
  const before = await Deno.readTextFile(hosts);
  const history = await History.load(`${home}/.history`, () => false);
  history.add("saved before");
  await history.flush();
  await Deno.writeTextFile(`${home}/.env`, "KEEP=me\n");
  await disk.fill();

  const add = await runAssist(["ssh", "add", "h2", "hci@10.0.0.2:2222"], { env });
  assertEquals([add.code, add.stdout, add.stderr], [
    1,
    "",
    `assist: cannot write ${hosts}: the disk is full (free space on it, then run ` +
    `assist ssh add h2 hci@10.0.0.2:2222 again)\n`,
  ]);
  assertEquals(await Deno.readTextFile(hosts), before);

  const pass = await runAssist(["ssh", "pass", "h1"], { env, stdin: "a-password\n" });
  assertEquals([pass.code, pass.stderr], [
    1,
    `assist: cannot write ${home}/.ssh-creds/h1: the disk is full (free space on it, then run ` +
    `assist ssh pass h1 again)\n`,
  ]);
  assert(!pass.stderr.includes("a-password"));

  history.add("typed while full");
  const err = await history.flush().then(() => undefined, (e) => e);
  assertEquals(
    String(err?.message),
    `cannot write ${home}/.history: the disk is full (free space on it, then try again)`,
  );
  assertEquals(await Deno.readTextFile(`${home}/.history`), "saved before\n");

  const dotenv = await updateDotenv(`${home}/.env`, { HEADERS_SYNC: "on" }).then(() => undefined, (e) => e);
  match(String(dotenv?.message), new RegExp(`^cannot write ${home}/\\.env: the disk is full `));
  assertEquals(await Deno.readTextFile(`${home}/.env`), "KEEP=me\n");
  assertEquals(temporaries(home), []);
  assertEquals(names(`${home}/.ssh-creds`), []);

  // Space back: the same commands work, and the line typed while full is saved with the next one.
  await disk.unfill();
  assertEquals((await runAssist(["ssh", "add", "h2", "hci@10.0.0.2:2222"], { env })).code, 0);
  assertEquals(await Deno.readTextFile(hosts), `${before}h2\thci@10.0.0.2\t2222\n`);
  assertEquals((await runAssist(["ssh", "pass", "h1"], { env, stdin: "a-password\n" })).code, 0);
  history.add("typed after");
  await history.flush();
  assertEquals(parseHistory(await Deno.readTextFile(`${home}/.history`)), [
    "saved before",
    "typed while full",
    "typed after",
  ]);
});

Deno.test("faults: a disk that fills up under several writers: each add lands whole or says why", async () => {
  await using disk = await mountTmpfs(512 * 1024);
  const home = `${disk.path}/.assist`;
  const env = { HOME: disk.path, ASSIST_HOME: home };
  assertEquals((await runAssist(["ssh", "add", "base", "hci@10.9.9.9"], { env })).code, 0);
  const hosts = `${home}/.ssh-hosts.tsv`;
  // A registry of a few pages, so that free space decides how many of the writers fit.
  const filler = Array.from({ length: 300 }, (_, i) => `# note ${i} ${"-".repeat(40)}`).join("\n");
  await Deno.writeTextFile(hosts, `${COMMENT}${filler}\n${await Deno.readTextFile(hosts)}`);
  // Free pages 0..4 with six writers at once: 0 pages fails all, more pages let some through.
  for (let pages = 0; pages <= 4; pages++) {
    await disk.unfill();
    await disk.fill();
    await disk.free(pages * 4096);
    const before = await Deno.readTextFile(hosts);
    const aliases = Array.from({ length: 6 }, (_, i) => `p${pages}w${i}`);
    const results = await Promise.all(aliases.map((a) => runAssist(["ssh", "add", a, `hci@${a}`], { env })));
    const text = await Deno.readTextFile(hosts);
    assert(text.startsWith(before), `pages ${pages}: the old registry is whole`);
    const registered = new Set(parseHosts(text).map((h) => h.alias));
    results.forEach((r, i) => {
      if (r.code === 0) {
        assert(registered.has(aliases[i]), `pages ${pages}: ${aliases[i]} exited 0 but is not registered`);
      } else {
        assertEquals([r.code, r.stderr], [
          1,
          `assist: cannot write ${hosts}: the disk is full (free space on it, then run ` +
          `assist ssh add ${aliases[i]} hci@${aliases[i]} again)\n`,
        ]);
        assert(!registered.has(aliases[i]), `pages ${pages}: ${aliases[i]} failed but is registered`);
      }
    });
    if (pages === 0) assert(results.every((r) => r.code === 1), "no space: no add lands");
    assertEquals(temporaries(home), [], `pages ${pages}`);
  }
});

Deno.test("faults: a read-only home: one line naming the file and ASSIST_HOME, nothing changed", async () => {
  await using disk = await mountTmpfs(256 * 1024);
  const home = `${disk.path}/.assist`;
  const env = { HOME: disk.path, ASSIST_HOME: home };
  assertEquals((await runAssist(["ssh", "add", "h1", "hci@10.0.0.1"], { env })).code, 0);
  const hosts = `${home}/.ssh-hosts.tsv`;
  const before = await Deno.readTextFile(hosts);
  await disk.readOnly(true);
  try {
    const add = await runAssist(["ssh", "add", "h2", "hci@10.0.0.2"], { env });
    assertEquals([add.code, add.stderr], [
      1,
      `assist: cannot write ${hosts}: the file system is read-only (make it writable or set ASSIST_HOME ` +
      `to a writable folder, then run assist ssh add h2 hci@10.0.0.2 again)\n`,
    ]);
    const direct = await runAssist(["ssh", "set-direct", "h1"], { env });
    assertEquals([direct.code, direct.stderr], [
      1,
      `assist: cannot write ${home}/.ssh-host-options.json: the file system is read-only (make it ` +
      `writable or set ASSIST_HOME to a writable folder, then run assist ssh set-direct h1 again)\n`,
    ]);
    const rm = await runAssist(["ssh", "remove", "h1"], { env });
    assertEquals(rm.code, 1);
    match(
      rm.stderr,
      /^assist: cannot write .*: the file system is read-only \(.* assist ssh remove h1 again\)\n$/,
    );
    assertEquals(await Deno.readTextFile(hosts), before);
  } finally {
    await disk.readOnly(false);
  }
});

Deno.test("faults: sanitize/ kept on another file system: the model's file tools refuse its real path", async () => {
  await using tmp = await tempDir();
  await using disk = await mountTmpfs(256 * 1024);
  const home = `${tmp.path}/.assist`;
  const env = { HOME: tmp.path, ASSIST_HOME: home };
  await Deno.mkdir(home, { mode: 0o700 });
  await Deno.mkdir(`${disk.path}/tables`, { mode: 0o700 });
  await Deno.symlink(`${disk.path}/tables`, `${home}/sanitize`);
  // The program itself writes the table through the link.
  const marked = await runAssist(["tools", "phi_sanitize", "-"], {
    env,
    stdin: "MSH|^~\\&|A|B|C|D|20240101||ADT^A01|1|P|2.5\rPID|1||12345678^^^H^MR||SMITH^JOHN\r",
  });
  assertEquals(marked.code, 0, marked.stderr);
  const table = `${disk.path}/tables/lookup.tsv`;
  assert((await Deno.readTextFile(table)).includes("SMITH^JOHN"), "the table is on the other disk");
  for (
    const args of [
      ["read_file", table],
      ["grep_files", "SMITH", "--path", `${disk.path}/tables`],
      ["list_dir", `${disk.path}/tables`],
      ["hl7_show", table],
    ]
  ) {
    const r = await runAssist(["tools", ...args], { env, cwd: tmp.path });
    assertEquals(r.code, 1, `${args[0]}: ${r.stdout}`);
    match(r.stderr, /refused: .* is inside the protected sanitize\/ of \$ASSIST_HOME/, args[0]);
    assert(!r.stdout.includes("SMITH"), args[0]);
  }
  const glob = await runAssist(["tools", "glob_files", "**/*", "--path", disk.path], { env, cwd: tmp.path });
  assert(!glob.stdout.includes("lookup.tsv"), glob.stdout);
});

Deno.test("faults: any write that fails on a full disk reaches the operator with its file named", async () => {
  await using disk = await mountTmpfs(256 * 1024);
  await disk.fill();
  const { atomicWrite } = await import("../../core/atomic_write.ts");
  const { describeError } = await import("../../core/errors.ts");
  const target = `${disk.path}/settings.json`;
  const err = await atomicWrite(target, "x".repeat(64 * 1024)).then(() => undefined, (e) => e);
  // Unwrapped, as a caller that does not catch it lets it reach a front.
  assertEquals(
    describeError(err),
    `cannot write ${target}: the disk is full (free space on it, then try again)`,
  );
  assertEquals(names(disk.path), [], "no temporary left behind");
});
