import { deepStrictEqual as assertEquals, throws } from "node:assert/strict";
import { applyDotenv, parseDotenv, readDotenv, updateDotenv } from "../../core/dotenv.ts";
import { tempDir } from "../support/run_assist.ts";

Deno.test(".env parse: KEY=VALUE lines, last one wins, comments and junk ignored, values literal", () => {
  assertEquals(
    parseDotenv("# a comment\nA=1\r\nB=x=y\n  \nnot a setting\n=v\n9X=no\nA=2\nEMPTY=\n"),
    { A: "2", B: "x=y", EMPTY: "" },
  );
});

Deno.test(".env apply: in place, duplicates dropped, new keys appended, undefined removes, the rest kept", () => {
  const before = "# settings\nOTHER_FEATURE=keep me\nA=1\nweird line\nA=old duplicate\nB=2\n";
  assertEquals(
    applyDotenv(before, { A: "10", B: undefined, C: "3" }),
    "# settings\nOTHER_FEATURE=keep me\nA=10\nweird line\nC=3\n",
  );
  assertEquals(applyDotenv("", { A: "1" }), "A=1\n");
  assertEquals(applyDotenv("A=1\n", { A: undefined }), "");
  assertEquals(applyDotenv("no newline at end", { A: "1" }), "no newline at end\nA=1\n");
  throws(() => applyDotenv("", { A: "two\nlines" }), /line break/);
  throws(() => applyDotenv("", { "A B": "x" }), /invalid key/);
});

Deno.test(".env file: round trip keeps unknown lines, written atomically at 0600", async () => {
  await using tmp = await tempDir();
  const path = `${tmp.path}/.env`;
  assertEquals(await readDotenv(path), {});
  await Deno.writeTextFile(path, "# by hand\nSOMEONE_ELSE=x y z\n", { mode: 0o644 });
  await updateDotenv(path, { HEADERS_SYNC: "on", HEADERS_SYNC_TARGET: "eng1" });
  await updateDotenv(path, { HEADERS_SYNC: "off" });
  assertEquals(
    await Deno.readTextFile(path),
    "# by hand\nSOMEONE_ELSE=x y z\nHEADERS_SYNC=off\nHEADERS_SYNC_TARGET=eng1\n",
  );
  assertEquals(await readDotenv(path), {
    SOMEONE_ELSE: "x y z",
    HEADERS_SYNC: "off",
    HEADERS_SYNC_TARGET: "eng1",
  });
  if (Deno.build.os !== "windows") assertEquals((await Deno.stat(path)).mode! & 0o777, 0o600);
  assertEquals([...Deno.readDirSync(tmp.path)].map((e) => e.name), [".env"], "no .new sidecar left");
});
