/**
 * The lookup table under faults (issue: nothing lost, nothing mixed up). A token is minted once,
 * ever; a torn row is not a row; several processes share one table. Crash points are made
 * deterministic where the code has them (a SIGKILL mid-append leaves a prefix of the bytes it meant
 * to write: every prefix is tried), and swept with real SIGKILLs of real processes where it does
 * not. The disk-full cases run on a real tmpfs that is filled up (root only; CI runs as root, and a
 * machine that cannot mount fails here rather than skipping).
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { LookupTable } from "../../phi/lookup.ts";
import { adt, reveal, valuesByToken } from "./_lookup.ts";
import { FakeModelApi } from "../support/fake_model_api.ts";
import { mulberry32 } from "../support/prng.ts";
import { replEnv } from "../support/repl_env.ts";
import { assistCommandArgs, REPO_ROOT, runAssist, tempDir, testDenoDir } from "../support/run_assist.ts";
import { mountTmpfs } from "../support/tmpfs.ts";

const TOKEN_RE = /\[\[[A-Za-z][A-Za-z0-9_]*_\d+\]\]/g;

Deno.test("faults: a crash at any byte of an append never makes a token mean two values", async () => {
  await using tmp = await tempDir();
  const path = `${tmp.path}/lookup.tsv`;
  // The table before the crash, and the bytes the crashed writer meant to append.
  const base = await LookupTable.open(path);
  await base.assign([
    { category: "MRN", canonical: "4711001", original: "4711001" },
    { category: "NAME", canonical: "jane roe", original: "ROE^JANE" },
  ]);
  const before = await Deno.readFile(path);
  const batch = [
    { category: "MRN", canonical: "4711002", original: "4711002" },
    { category: "SSN", canonical: "512449087", original: "512-44-9087" },
    { category: "NAME", canonical: "quigley rosalind", original: "QUIGLEY^ROSALIND" },
    { category: "MANUAL", canonical: "a\tb\\c", original: "a\tb\\c" },
  ];
  const meant = new Map<string, string>();
  const tokens = await base.assign(batch);
  tokens.forEach((t, i) => meant.set(t, batch[i].canonical));
  const full = await Deno.readFile(path);
  const append = full.subarray(before.length);
  assert(append.length > 60);
  // The next writer's values: some the crashed writer meant too, some new.
  const next = [
    { category: "MRN", canonical: "4711002", original: "4711002" },
    { category: "MRN", canonical: "9900001", original: "9900001" },
    { category: "SSN", canonical: "600112222", original: "600-11-2222" },
    { category: "NAME", canonical: "brandt ingrid", original: "BRANDT^INGRID" },
  ];
  for (let k = 0; k <= append.length; k++) {
    await Deno.writeFile(path, new Uint8Array([...before, ...append.subarray(0, k)]));
    const t = await LookupTable.open(path);
    const got = await t.assign(next);
    const rows = await valuesByToken(path);
    // A token whose text reached the disk may have been meant for its value (its writer died after
    // that): it is never minted again for another. One that never reached it was never handed out.
    const written = new TextDecoder().decode(append.subarray(0, k));
    for (const [token, values] of rows) {
      assertEquals(values.size, 1, `k=${k}: ${token} stands for ${[...values].join(" | ")}`);
      const was = meant.get(token);
      if (was !== undefined && written.includes(`${token}\t`)) {
        assertEquals([...values][0].split("\u0000")[1], was, `k=${k}: ${token} was meant for another value`);
      }
    }
    // The rows before the crash are all there, whole.
    assertEquals(rows.get("[[MRN_1]]")?.has("MRN\u00004711001"), true, `k=${k}`);
    // Each new value's token is its own.
    for (let i = 0; i < next.length; i++) {
      assertEquals(rows.get(got[i])?.has(`${next[i].category}\u0000${next[i].canonical}`), true, `k=${k}`);
    }
    // Torn bytes warn once, whole rows never.
    const torn = k > 0 && k < append.length && append[k - 1] !== 0x0a;
    assertEquals(t.takeWarnings().length, torn ? 1 : 0, `k=${k}`);
  }
});

Deno.test("faults: a full disk: phi_sanitize refuses, a session's tokens are its own, none reused", async () => {
  await using tmp = await tempDir();
  await using fs = await mountTmpfs(4 << 20);
  await using fake = new FakeModelApi();
  const home = fs.path;
  const work = `${tmp.path}/work`;
  await Deno.mkdir(work);
  const a = adt(1), b = adt(2);
  await Deno.writeTextFile(`${work}/a.hl7`, a.text);
  await Deno.writeTextFile(`${work}/b.hl7`, b.text);
  const env = { HOME: home, ASSIST_HOME: `${home}/.assist`, ASSIST_PHI_NAMES: "off" };
  // The home exists (as after a first run) and then the disk fills up.
  await Deno.mkdir(`${home}/.assist/sanitize`, { recursive: true });
  await fs.fill();

  const r = await runAssist(["tools", "phi_sanitize", "a.hl7", "--output", "a.deid.hl7"], { env, cwd: work });
  assert(r.code !== 0, "a copy whose tokens cannot be stored is refused");
  assert(
    /lookup table .*lookup\.tsv could not be written \(the disk is full\)/.test(r.stderr),
    r.stderr,
  );
  assert(/nothing written/.test(r.stderr), r.stderr);
  assert(!r.stderr.includes("(Error)") && !r.stderr.includes("unexpected error"), r.stderr);
  await Deno.stat(`${work}/a.deid.hl7`).then(() => assert(false, "no copy"), () => {});

  // A -p turn on the full disk still keeps the values from the model, under tokens of its own.
  fake.replies.push({ text: "noted" });
  const p = await runAssist(["-p", `patient MRN ${a.values[0]}, SSN ${a.values[3]} failed`], {
    env: replEnv(home, fake, { ASSIST_PHI_NAMES: "off" }),
    cwd: work,
  });
  assertEquals(p.code, 0, p.stderr);
  assert(/could not be written \(the disk is full\)/.test(p.stderr), p.stderr);
  const sent = fake.messageRequests.map((q) => q.body).join("\n");
  assert(!sent.includes(a.values[0]) && !sent.includes(a.values[3]), "no raw value reached the model");
  const asked = fake.messageRequests.map((q) =>
    JSON.stringify((q.json?.messages as Array<{ role: string }>).filter((m) => m.role === "user"))
  ).join("\n");
  const memTokens = [...new Set(asked.match(TOKEN_RE) ?? [])];
  assert(memTokens.length >= 2, sent);
  for (const t of memTokens) {
    assert(/_m[a-z2-7]{6}_\d+\]\]$/.test(t), `${t} is a name no other process mints`);
  }

  // Space is back: another patient gets stored tokens, none of which the session handed out.
  await fs.unfill();
  const s = await runAssist(["tools", "phi_sanitize", "b.hl7", "--output", "b.deid.hl7"], { env, cwd: work });
  assertEquals(s.code, 0, s.stderr);
  const copy = await Deno.readTextFile(`${work}/b.deid.hl7`);
  for (const t of copy.match(TOKEN_RE) ?? []) assert(!memTokens.includes(t), `${t} handed out twice`);
  assertEquals(await reveal(`${home}/.assist`, copy), b.text);
});

Deno.test("faults: tokens kept in memory on a full disk are stored once it can be written", async () => {
  await using fs = await mountTmpfs(1 << 20);
  const path = `${fs.path}/lookup.tsv`;
  await Deno.writeTextFile(path, "");
  const t = await LookupTable.open(path);
  await fs.fill();
  let failed = false;
  try {
    await t.assign([{ category: "MRN", canonical: "7001234", original: "7001234" }]);
  } catch {
    failed = true;
  }
  assert(failed, "the disk is full");
  const [mem] = t.remember([{ category: "MRN", canonical: "7001234", original: "7001234" }]);
  assertEquals((await Deno.readFile(path)).length, 0, "a failed append leaves no byte behind");
  await fs.unfill();
  const [next] = await t.assign([{ category: "MRN", canonical: "7005678", original: "7005678" }]);
  assert(/^\[\[MRN_\d+\]\]$/.test(next), next);
  assertEquals(t.unsavedCount, 0);
  const other = await LookupTable.open(path);
  assertEquals(other.valueOf(mem), "7001234", "the session's own token is reversible everywhere now");
});

Deno.test("faults: SIGKILL of phi_sanitize at random moments never reveals another patient", async () => {
  await using tmp = await tempDir();
  const home = `${tmp.path}/.assist`;
  const env = { HOME: tmp.path, ASSIST_HOME: home, ASSIST_PHI_NAMES: "off" };
  const dir = await testDenoDir();
  const rand = mulberry32(29);
  const inputs: Array<{ text: string; file: string; out: string }> = [];
  for (let i = 0; i < 16; i++) {
    const m = adt(10 + i);
    const file = `${tmp.path}/m${i}.hl7`;
    // Several messages per file, so the process spends a while minting and appending.
    const text = Array.from({ length: 40 }, (_, j) => adt(100 + i * 40 + j).text).join("\n") + "\n" + m.text;
    await Deno.writeTextFile(file, text);
    inputs.push({ text, file, out: `${tmp.path}/m${i}.deid.hl7` });
  }
  // Two at a time, each killed after a delay drawn from the run's own start-up range.
  for (let i = 0; i < inputs.length; i += 2) {
    await Promise.all(
      inputs.slice(i, i + 2).map(async (x) => {
        const child = new Deno.Command(Deno.execPath(), {
          args: assistCommandArgs(["tools", "phi_sanitize", x.file, "--output", x.out]),
          cwd: REPO_ROOT,
          clearEnv: true,
          env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", ...(dir ? { DENO_DIR: dir } : {}), ...env },
          stdout: "null",
          stderr: "null",
        }).spawn();
        const delay = 150 + Math.floor(rand() * 1400);
        const timer = setTimeout(() => {
          try {
            child.kill("SIGKILL");
          } catch { /* it ended first */ }
        }, delay);
        await child.status;
        clearTimeout(timer);
      }),
    );
  }
  // After the crashes, every copy that exists reveals to its own input, and every token one value.
  let copies = 0;
  for (const x of inputs) {
    let copy: string;
    try {
      copy = await Deno.readTextFile(x.out);
    } catch {
      continue;
    }
    copies++;
    assertEquals(await reveal(home, copy), x.text, `${x.out} reveals to its own input`);
  }
  // The survivors and a last writer: a token is never minted again for another value.
  const last = adt(999);
  await Deno.writeTextFile(`${tmp.path}/last.hl7`, last.text);
  const r = await runAssist(["tools", "phi_sanitize", "last.hl7", "--output", "last.deid.hl7"], {
    env,
    cwd: tmp.path,
  });
  assertEquals(r.code, 0, r.stderr);
  assertEquals(await reveal(home, await Deno.readTextFile(`${tmp.path}/last.deid.hl7`)), last.text);
  for (const [token, values] of await valuesByToken(`${home}/sanitize/lookup.tsv`)) {
    const cats = new Set([...values].map((v) => v.split("\u0000")[0]));
    assertEquals(cats.size, 1, `${token}: ${[...values].join(" | ")}`);
    if (!cats.has("NAME")) assertEquals(values.size, 1, `${token}: ${[...values].join(" | ")}`);
  }
  console.log(`faults: ${copies} of ${inputs.length} copies finished before their kill`);
});
