import { deepStrictEqual as assertEquals, ok as assert, rejects } from "node:assert/strict";
import { LookupTable } from "../../phi/lookup.ts";
import { parseToken } from "../../phi/token.ts";
import { tempDir } from "../support/run_assist.ts";

const posix = Deno.build.os !== "windows";

Deno.test("lookup table: same canonical value, same token; 0600 file in a 0700 folder; four columns", async () => {
  await using tmp = await tempDir();
  const path = `${tmp.path}/sanitize/lookup.tsv`;
  const t = await LookupTable.open(path);
  const [a, b, c] = await t.assign([
    { category: "MRN", canonical: "12345678", original: "12345678" },
    { category: "NAME", canonical: "john smith", original: "SMITH^JOHN" },
    { category: "MRN", canonical: "12345678", original: " 12345678" },
  ]);
  assertEquals([a, b, c], ["[[MRN_1]]", "[[NAME_1]]", "[[MRN_1]]"]);
  assertEquals(await t.assign([{ category: "NAME", canonical: "john smith", original: "John Smith" }]), [b]);
  assertEquals(await t.assign([{ category: "MRN", canonical: "999", original: "999" }]), ["[[MRN_2]]"]);
  const text = await Deno.readTextFile(path);
  assertEquals(
    text,
    "[[MRN_1]]\tMRN\t12345678\t12345678\n[[NAME_1]]\tNAME\tjohn smith\tSMITH^JOHN\n[[MRN_2]]\tMRN\t999\t999\n",
  );
  if (posix) {
    assertEquals((await Deno.stat(path)).mode! & 0o777, 0o600);
    assertEquals((await Deno.stat(`${tmp.path}/sanitize`)).mode! & 0o777, 0o700);
  }
  const again = await LookupTable.open(path);
  assertEquals(again.valueOf("[[NAME_1]]"), "SMITH^JOHN", "column 4 preferred");
  assertEquals(again.valueOf("[[name_1]]"), "SMITH^JOHN", "token case ignored as a fallback");
  assertEquals(again.get("john smith")?.token, "[[NAME_1]]");
});

Deno.test("lookup table: legacy three-column rows are read, keyed on column 3, reversed to column 3", async () => {
  await using tmp = await tempDir();
  const path = `${tmp.path}/lookup.tsv`;
  await Deno.writeTextFile(
    path,
    "[[MRN_7]]\tMRN\t55555555\n[[NAME_3]]\tNAME\tSmith, John\n# note\n\nbroken-row\n",
  );
  const t = await LookupTable.open(path);
  assertEquals(t.size, 2);
  assertEquals(t.valueOf("[[MRN_7]]"), "55555555");
  assertEquals(t.get("55555555")?.token, "[[MRN_7]]");
  assertEquals(t.get("john smith")?.token, "[[NAME_3]]", "legacy value keyed on its canonical form too");
  assertEquals(await t.assign([{ category: "MRN", canonical: "1", original: "1" }]), ["[[MRN_8]]"]);
  assertEquals(await t.assign([{ category: "NAME", canonical: "john smith", original: "x" }]), [
    "[[NAME_3]]",
  ]);
});

Deno.test("lookup table: tabs, newlines and backslashes in values survive; a torn last row is dropped, its number kept", async () => {
  await using tmp = await tempDir();
  const path = `${tmp.path}/lookup.tsv`;
  const t = await LookupTable.open(path);
  const odd = "a\tb\nc\\d\re";
  const [tok] = await t.assign([{ category: "MANUAL", canonical: odd, original: odd }]);
  assertEquals((await LookupTable.open(path)).valueOf(tok), odd);
  assertEquals((await Deno.readTextFile(path)).split("\n").length, 2, "one line");
  // A crashed writer left half a row.
  await Deno.writeTextFile(path, "[[MRN_9]]\tMR", { append: true });
  const u = await LookupTable.open(path);
  const [n] = await u.assign([{ category: "MRN", canonical: "42", original: "42" }]);
  // The torn row's token may have been meant for a value: its number is never minted again.
  assertEquals(n, "[[MRN_10]]");
  const lines = (await Deno.readTextFile(path)).split("\n");
  assertEquals(lines.slice(-3), ["[[MRN_9]]\tMR\t\\#torn", "[[MRN_10]]\tMRN\t42\t42", ""]);
  const w = u.takeWarnings();
  assertEquals(w.length, 1);
  assert(w[0].includes("cut short by a crash") && w[0].includes("[[MRN_9]]"), w[0]);
  assertEquals(u.takeWarnings(), [], "one warning");
  const v = await LookupTable.open(path);
  assertEquals(v.valueOf("[[MRN_10]]"), "42");
  assertEquals(v.valueOf("[[MRN_9]]"), undefined, "a torn row is not a row");
  // Another process reading the file later also skips the reserved number.
  assertEquals(await v.assign([{ category: "MRN", canonical: "43", original: "43" }]), ["[[MRN_11]]"]);
});

Deno.test("lookup table: another process's rows are seen on refresh and reused, not duplicated", async () => {
  await using tmp = await tempDir();
  const path = `${tmp.path}/lookup.tsv`;
  const a = await LookupTable.open(path);
  const b = await LookupTable.open(path);
  const [ta] = await a.assign([{ category: "MRN", canonical: "111111", original: "111111" }]);
  assertEquals(b.get("111111"), undefined, "not read yet");
  const [tb] = await b.assign([{ category: "MRN", canonical: "111111", original: "111111" }]);
  assertEquals(tb, ta, "b re-read under the lock and reused a's token");
  const [tc] = await b.assign([{ category: "MRN", canonical: "222222", original: "222222" }]);
  assertEquals(tc, "[[MRN_2]]");
  await a.refresh();
  assertEquals(a.valueOf(tc), "222222");
  assertEquals((await Deno.readTextFile(path)).trim().split("\n").length, 2);
});

Deno.test("lookup table: two processes appending at once lose no row, tear none, mint one token per value", async () => {
  await using tmp = await tempDir();
  const path = `${tmp.path}/sanitize/lookup.tsv`;
  const worker = new URL("./_append_worker.ts", import.meta.url).pathname;
  const count = 300, shared = 100;
  const startAt = Date.now() + 1500; // both start appending at the same moment
  const run = (prefix: string) =>
    new Deno.Command(Deno.execPath(), {
      args: ["run", "-q", "-A", worker, path, prefix, String(count), String(shared), String(startAt)],
      stdout: "piped",
      stderr: "piped",
    }).output();
  const [p1, p2] = await Promise.all([run("p1"), run("p2")]);
  assertEquals(
    [p1.code, p2.code],
    [0, 0],
    new TextDecoder().decode(p1.stderr) + new TextDecoder().decode(p2.stderr),
  );
  const got1: Record<string, string> = JSON.parse(new TextDecoder().decode(p1.stdout));
  const got2: Record<string, string> = JSON.parse(new TextDecoder().decode(p2.stdout));
  const lines = (await Deno.readTextFile(path)).split("\n");
  assertEquals(lines.pop(), "", "ends with a newline");
  const byCanonical = new Map<string, string>();
  const tokens = new Set<string>();
  for (const line of lines) {
    const cols = line.split("\t");
    assertEquals(cols.length, 4, `torn row: ${JSON.stringify(line)}`);
    const [token, category, canonical, original] = cols;
    assert(parseToken(token)?.category === category, `token ${token} / ${category}`);
    assertEquals(original, `orig ${canonical}`);
    assert(!byCanonical.has(canonical), `two rows for ${canonical}`);
    assert(!tokens.has(token), `token ${token} minted twice`);
    byCanonical.set(canonical, token);
    tokens.add(token);
  }
  const expected = new Set([...Object.keys(got1), ...Object.keys(got2)]);
  assertEquals(byCanonical.size, expected.size, "no lost rows");
  for (const [v, t] of [...Object.entries(got1), ...Object.entries(got2)]) {
    assertEquals(byCanonical.get(v), t, `${v}: the token a process got is the one on disk`);
  }
  for (let i = 0; i < shared; i++) assertEquals(got1[`shared-${i}`], got2[`shared-${i}`]);
  // Counters are dense per category: no gaps, no duplicates.
  for (const cat of ["MRN", "NAME", "EMP"]) {
    const ns = [...tokens].map(parseToken).filter((p) => p?.category === cat).map((p) => p!.n).sort((a, b) =>
      a - b
    );
    assertEquals(ns, ns.map((_, i) => i + 1), cat);
  }
});

Deno.test("lookup table: an append that fails (disk full) leaves no half-minted row; remember() then keeps it in memory", async () => {
  if (Deno.build.os !== "linux") return; // /dev/full is Linux's
  await using tmp = await tempDir();
  const path = `${tmp.path}/lookup.tsv`;
  await Deno.symlink("/dev/full", path);
  const t = await LookupTable.open(path);
  const req = [
    { category: "MRN", canonical: "1234567", original: "1234567" },
    { category: "NAME", canonical: "jane roe", original: "ROE^JANE" },
    { category: "MRN", canonical: "1234567", original: " 1234567" },
  ];
  await rejects(() => t.assign(req), (err: Error) => err.name !== "AssertionError");
  assertEquals(t.get("1234567"), undefined);
  assertEquals(t.get("jane roe"), undefined);
  assertEquals(t.size, 0);
  // Tokens that could not be stored are this process's own: no other process can mint them.
  const mem = t.remember(req);
  const tag = /^\[\[MRN_(m[a-z2-7]{6})_1\]\]$/.exec(mem[0])?.[1];
  assert(tag !== undefined, mem[0]);
  assertEquals(mem, [`[[MRN_${tag}_1]]`, `[[NAME_${tag}_1]]`, `[[MRN_${tag}_1]]`]);
  assertEquals(t.get("1234567")?.unsaved, true);
  assertEquals(t.get("1234567")?.category, "MRN");
  assertEquals(t.valueOf(`[[name_${tag}_1]]`), "ROE^JANE", "tokens are found whatever their case");
  assertEquals(t.unsavedCount, 2);
});
