import { deepStrictEqual as assertEquals, throws } from "node:assert/strict";
import { applyDotenv, applyDotenvBytes, parseDotenv, readDotenv, updateDotenv } from "../../core/dotenv.ts";
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
  assertEquals(
    [...Deno.readDirSync(tmp.path)].map((e) => e.name).sort(),
    [".env", ".env.lock"],
    "no .new sidecar left",
  );
});

Deno.test(".env file: bytes that are not UTF-8 stay as they were when another key changes", async () => {
  await using tmp = await tempDir();
  const path = `${tmp.path}/.env`;
  const latin1 = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));
  // A value typed in Windows-1252 ("Müller"), a lone continuation byte, and a CRLF line.
  const before = latin1("# by hand \xfc\nNAME=M\xfcller\nODD=\x80\xff\r\nHEADERS_SYNC=on\n");
  await Deno.writeFile(path, before);
  await updateDotenv(path, { HEADERS_SYNC: "off", NEW_KEY: "n" });
  assertEquals(
    await Deno.readFile(path),
    latin1("# by hand \xfc\nNAME=M\xfcller\nODD=\x80\xff\r\nHEADERS_SYNC=off\nNEW_KEY=n\n"),
  );
  assertEquals(
    applyDotenvBytes(latin1("A=\xe9"), { A: undefined, B: "ü" }),
    new TextEncoder().encode("B=ü\n"),
  );
  assertEquals(applyDotenvBytes(new Uint8Array(0), {}), new Uint8Array(0));
});
