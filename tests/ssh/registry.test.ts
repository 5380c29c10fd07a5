/** Host registry, per-alias options, credentials, host keys, paths: the pure parts and the files. */
import { deepStrictEqual as assertEquals, ok as assert, rejects, throws } from "node:assert/strict";
import { tempDir } from "../support/run_assist.ts";
import {
  checkAlias,
  describeTarget,
  editHosts,
  formatHosts,
  parseHosts,
  parseOptions,
  parseTarget,
  readHosts,
  readOptions,
  updateOptions,
} from "../../ssh/registry.ts";
import { credPath, hasCredential, readCredential, writeCredential } from "../../ssh/creds.ts";
import { checkHostKey, fingerprint, forgetHostKey, keyType, knownHostName } from "../../ssh/known_hosts.ts";
import {
  checkUnixPath,
  chooseTransport,
  ensurePrivateDir,
  osTempDir,
  pullCachePath,
  safeBasename,
} from "../../ssh/paths.ts";
import { ensureHome, homePaths } from "../../core/home.ts";
import { ALGORITHMS, hostKeyOrder } from "../../ssh/algorithms.ts";
import { Secret } from "../../core/secret.ts";
import { SshError } from "../../ssh/errors.ts";
import { addHost, hostsText, removeHost, setHciroot } from "../../ssh/ops.ts";

Deno.test("parseTarget: user@host, ports, IPv6, and bad shapes", () => {
  assertEquals(parseTarget("hci@eng1"), { user: "hci", host: "eng1", port: 22 });
  assertEquals(parseTarget("hci@eng1.example.org:2222"), {
    user: "hci",
    host: "eng1.example.org",
    port: 2222,
  });
  assertEquals(parseTarget("hci@[fe80::1]:2200"), { user: "hci", host: "fe80::1", port: 2200 });
  assertEquals(parseTarget("hci@fe80::1"), { user: "hci", host: "fe80::1", port: 22 });
  assertEquals(parseTarget(" hci@h:22\r"), { user: "hci", host: "h", port: 22 });
  for (
    const bad of [
      "eng1",
      "@eng1",
      "hci@",
      "hci@h:0",
      "hci@h:65536",
      "hci@h:x",
      "hci@[::1",
      "a b@h",
      "hci@h/x",
    ]
  ) {
    throws(() => parseTarget(bad), /bad target/, bad);
  }
  assertEquals(describeTarget({ user: "u", host: "::1", port: 22 }), "u@[::1]:22");
});

Deno.test("checkAlias: safe file-name charset only", () => {
  assertEquals(checkAlias("prod-eng_1.a"), "prod-eng_1.a");
  for (const bad of ["", "../x", "a/b", ".hidden", "x y", "a".repeat(65), "eng.sock"]) {
    throws(() => checkAlias(bad), /bad alias/, bad);
  }
});

Deno.test("hosts TSV: three columns, comments, CRLF and junk lines tolerated, round trip", () => {
  const text = "# registry\r\neng1\thci@10.0.0.5\t22\r\n\nbad line\neng2\tops@h2\t2222\neng1\tdup@x\t22\n";
  const hosts = parseHosts(text);
  assertEquals(hosts, [
    { alias: "eng1", user: "hci", host: "10.0.0.5", port: 22 },
    { alias: "eng2", user: "ops", host: "h2", port: 2222 },
  ]);
  assertEquals(formatHosts(hosts), "eng1\thci@10.0.0.5\t22\neng2\tops@h2\t2222\n");
  // Every line stays exactly three columns (readers that split on tabs keep working).
  for (const line of formatHosts(hosts).trim().split("\n")) assertEquals(line.split("\t").length, 3);
});

Deno.test("options: pin and direct flag in their own file; malformed input ignored", async () => {
  assertEquals(parseOptions("not json").size, 0);
  assertEquals(parseOptions('{"aliases":{"a":{"hciroot":" /hci/x ","direct":true},"b":7}}').get("a"), {
    hciroot: "/hci/x",
    direct: true,
  });
  await using tmp = await tempDir();
  await ensureHome(tmp.path);
  await addHost(tmp.path, "eng1", "hci@h:2222");
  await updateOptions(tmp.path, "eng1", (o) => ({ ...o, direct: true }));
  assertEquals(await readOptions(tmp.path, "eng1"), { direct: true });
  await setHciroot(tmp.path, "eng1", "/hci/cis20.1/integrator/");
  assertEquals(await readOptions(tmp.path, "eng1"), { direct: true, hciroot: "/hci/cis20.1/integrator" });
  await setHciroot(tmp.path, "eng1", "");
  assertEquals(await readOptions(tmp.path, "eng1"), { direct: true });
  await rejects(setHciroot(tmp.path, "eng1", "relative/path"), /absolute path/);
  // The registry itself is untouched by options: still three columns.
  assertEquals(await Deno.readTextFile(homePaths(tmp.path).sshHosts), "eng1\thci@h\t2222\n");
  assertEquals((await Deno.stat(homePaths(tmp.path).sshHosts)).mode! & 0o777, 0o600);
});

Deno.test("ops: add updates in place, hosts lists, remove drops host, credential and options", async () => {
  await using tmp = await tempDir();
  await ensureHome(tmp.path);
  assert((await hostsText(tmp.path)).startsWith("no SSH hosts"));
  assert((await addHost(tmp.path, "a", "u@h1")).startsWith("added a"));
  assert((await addHost(tmp.path, "a", "u@h2:2200")).startsWith("updated a"));
  await addHost(tmp.path, "b", "v@h3");
  assertEquals(await hostsText(tmp.path), "a  u@h2:2200\nb  v@h3:22");
  await writeCredential(tmp.path, "a", new Secret("pw"));
  await updateOptions(tmp.path, "a", () => ({ direct: true }));
  assert((await removeHost(tmp.path, "a")).includes("removed a (host, credential and socket)"));
  assertEquals((await readHosts(tmp.path)).map((h) => h.alias), ["b"]);
  assertEquals(await hasCredential(tmp.path, "a"), false);
  assertEquals(await readOptions(tmp.path, "a"), {});
  await rejects(
    removeHost(tmp.path, "a"),
    (e: SshError) => e.kind === "unknown_alias" && /\/ssh-add a/.test(e.message),
  );
});

Deno.test("credentials: 0600, one line, loose mode refused, missing names /ssh-pass", async () => {
  await using tmp = await tempDir();
  await ensureHome(tmp.path);
  await rejects(
    readCredential(tmp.path, "x"),
    (e: SshError) => e.kind === "no_credential" && /\/ssh-pass x/.test(e.message),
  );
  await writeCredential(tmp.path, "x", new Secret("s3cr3t\r\n"));
  assertEquals((await Deno.stat(credPath(tmp.path, "x"))).mode! & 0o777, 0o600);
  assertEquals((await readCredential(tmp.path, "x")).reveal(), "s3cr3t");
  await rejects(writeCredential(tmp.path, "x", new Secret("")), /empty password/);
  await rejects(writeCredential(tmp.path, "x", new Secret("a\nb")), /one line/);
  await Deno.chmod(credPath(tmp.path, "x"), 0o644);
  await rejects(
    readCredential(tmp.path, "x"),
    (e: SshError) => /readable by others/.test(e.message) && !e.message.includes("s3cr3t"),
  );
  // A Secret never prints.
  assertEquals(`${new Secret("s3cr3t")}`, "[redacted]");
});

Deno.test("known hosts: first key recorded, same key known, other key refused, forget resets", async () => {
  await using tmp = await tempDir();
  const blob = (type: string, body: number[]) => {
    const t = new TextEncoder().encode(type);
    const out = new Uint8Array(4 + t.length + body.length);
    new DataView(out.buffer).setUint32(0, t.length);
    out.set(t, 4);
    out.set(body, 4 + t.length);
    return out;
  };
  const k1 = blob("ssh-ed25519", [1, 2, 3]);
  const k2 = blob("ssh-ed25519", [9, 9, 9]);
  assertEquals(keyType(k1), "ssh-ed25519");
  assertEquals(knownHostName("h", 22), "h");
  assertEquals(knownHostName("h", 2222), "[h]:2222");
  assert(fingerprint(k1).startsWith("SHA256:"));
  assertEquals((await checkHostKey(tmp.path, "h", 2222, k1)).status, "new");
  assertEquals((await checkHostKey(tmp.path, "h", 2222, k1)).status, "known");
  const changed = await checkHostKey(tmp.path, "h", 2222, k2);
  assertEquals(changed.status, "changed");
  assert(changed.status === "changed" && changed.recorded[0].startsWith("ssh-ed25519 SHA256:"));
  // Another port of the same host is another entry.
  assertEquals((await checkHostKey(tmp.path, "h", 22, k2)).status, "new");
  const text = await Deno.readTextFile(`${tmp.path}/.ssh-known-hosts`);
  assert(text.includes(`[h]:2222 ssh-ed25519 ${k1.toBase64()}`), text);
  assertEquals(await forgetHostKey(tmp.path, "h", 2222), 1);
  assertEquals((await checkHostKey(tmp.path, "h", 2222, k2)).status, "new");
  assertEquals(await forgetHostKey(tmp.path, "nohost", 22), 0);
  // First connections to many hosts at once (several masters starting): every key is kept, and so
  // is a comment written by hand.
  await Deno.writeTextFile(`${tmp.path}/.ssh-known-hosts`, "# by hand\n");
  await Promise.all(Array.from({ length: 12 }, (_, i) => checkHostKey(tmp.path, `h${i}`, 22, k1)));
  const all = await Deno.readTextFile(`${tmp.path}/.ssh-known-hosts`);
  assert(all.startsWith("# by hand\n"), all);
  for (let i = 0; i < 12; i++) assert(all.includes(`h${i} ssh-ed25519 `), `h${i}: ${all}`);
});

Deno.test("host-key algorithm order: recorded types first, as OpenSSH does", () => {
  assertEquals(hostKeyOrder([]), ALGORITHMS.serverHostKey);
  const rsa = hostKeyOrder(["ssh-rsa"]);
  assertEquals(rsa.slice(0, 3), ["rsa-sha2-512", "rsa-sha2-256", "ssh-rsa"]);
  assertEquals(rsa.length, ALGORITHMS.serverHostKey.length);
  assertEquals(hostKeyOrder(["ecdsa-sha2-nistp256", "ssh-ed25519"]).slice(0, 2), [
    "ecdsa-sha2-nistp256",
    "ssh-ed25519",
  ]);
  assertEquals(hostKeyOrder(["ssh-dss"]), ALGORITHMS.serverHostKey, "a type we do not offer changes nothing");
});

Deno.test("transport choice: Unix socket except Windows (loopback + token)", () => {
  assertEquals(chooseTransport("linux"), "unix");
  assertEquals(chooseTransport("darwin"), "unix");
  assertEquals(chooseTransport("windows"), "tcp");
  checkUnixPath("/home/op/.assist/.ssh-sockets/eng1.sock");
  throws(() => checkUnixPath(`/${"x".repeat(120)}/a.sock`), /too long for a Unix socket.*ASSIST_HOME/);
});

Deno.test("temp folder and pull cache names", async () => {
  const env = (m: Record<string, string>) => (n: string) => m[n];
  assertEquals(osTempDir(env({}), "linux"), "/tmp");
  assertEquals(osTempDir(env({ TMPDIR: "/var/tmp/" }), "linux"), "/var/tmp");
  assertEquals(osTempDir(env({ TEMP: "C:\\T\\" }), "windows"), "C:\\T");
  assertEquals(
    osTempDir(env({ LOCALAPPDATA: "C:\\Users\\o\\AppData\\Local" }), "windows"),
    "C:\\Users\\o\\AppData\\Local\\Temp",
  );
  assertEquals(safeBasename("/a/b/adt in.smatdb"), "adt_in.smatdb");
  assertEquals(safeBasename("/a/b/"), "b");
  assertEquals(safeBasename("/a/..hidden"), "_hidden");
  const p1 = await pullCachePath("/tmp/assist-pulls", "eng1", "/hci/server/server.ini", "linux");
  const p2 = await pullCachePath("/tmp/assist-pulls", "eng1", "/hci/server/server.ini", "linux");
  const p3 = await pullCachePath("/tmp/assist-pulls", "eng1", "/hci2/server/server.ini", "linux");
  // The extension stays last, so a pulled copy is recognised by its name too.
  assert(/^\/tmp\/assist-pulls\/eng1\.server\.[0-9a-f]{16}\.ini$/.test(p1), p1);
  const db = await pullCachePath("/tmp/assist-pulls", "eng1", "/hci/adt/adt_in.smatdb", "linux");
  assert(/^\/tmp\/assist-pulls\/eng1\.adt_in\.[0-9a-f]{16}\.smatdb$/.test(db), db);
  const bare = await pullCachePath("/tmp/assist-pulls", "eng1", "/hci/adt/NetConfig", "linux");
  assert(/^\/tmp\/assist-pulls\/eng1\.NetConfig\.[0-9a-f]{16}$/.test(bare), bare);
  assertEquals(p1, p2);
  assert(p1 !== p3);
});

Deno.test("ensurePrivateDir: creates 0700, tightens a loose one, refuses a symlink", async () => {
  await using tmp = await tempDir();
  const d = `${tmp.path}/pulls`;
  await ensurePrivateDir(d);
  assertEquals((await Deno.stat(d)).mode! & 0o777, 0o700);
  await Deno.chmod(d, 0o755);
  await ensurePrivateDir(d);
  assertEquals((await Deno.stat(d)).mode! & 0o777, 0o700);
  await Deno.mkdir(`${tmp.path}/elsewhere`);
  await Deno.symlink(`${tmp.path}/elsewhere`, `${tmp.path}/link`);
  await rejects(ensurePrivateDir(`${tmp.path}/link`), /not a plain folder/);
});

Deno.test("add and remove keep every line they do not own: comments, junk, CRLF (issue #29 item 4)", async () => {
  await using tmp = await tempDir();
  await ensureHome(tmp.path);
  const path = homePaths(tmp.path).sshHosts;
  const byHand = "# lab hosts, ask Ana\r\neng1\thci@10.0.0.5\t22\r\nnot a host line\neng2\tops@h2\t99999\n";
  await Deno.writeTextFile(path, byHand);
  await addHost(tmp.path, "eng3", "hci@h3:2222");
  await addHost(tmp.path, "eng1", "hci@10.0.0.6");
  assertEquals(
    await Deno.readTextFile(path),
    "# lab hosts, ask Ana\r\neng1\thci@10.0.0.6\t22\nnot a host line\neng2\tops@h2\t99999\neng3\thci@h3\t2222\n",
  );
  await removeHost(tmp.path, "eng1");
  assertEquals(
    await Deno.readTextFile(path),
    "# lab hosts, ask Ana\r\nnot a host line\neng2\tops@h2\t99999\neng3\thci@h3\t2222\n",
  );
  // A later line of the same alias (which readers ignore) goes with it; it does not come back.
  assertEquals(editHosts("a\tu@x\t22\nb\tu@y\t22\na\tu@z\t22\n", "a", undefined), "b\tu@y\t22\n");
  assertEquals(editHosts("", "a", { alias: "a", user: "u", host: "x", port: 22 }), "a\tu@x\t22\n");
  assertEquals(editHosts("# only\n", "a", undefined), "# only\n");
});

Deno.test("options: keys this version does not know stay when an alias changes", async () => {
  await using tmp = await tempDir();
  await ensureHome(tmp.path);
  await addHost(tmp.path, "eng1", "hci@h");
  const path = `${tmp.path}/.ssh-host-options.json`;
  await Deno.writeTextFile(
    path,
    JSON.stringify({
      version: 1,
      later: { x: 1 },
      aliases: { eng1: { color: "red" }, eng9: { hciroot: "/h" } },
    }),
  );
  await updateOptions(tmp.path, "eng1", (o) => ({ ...o, direct: true }));
  assertEquals(JSON.parse(await Deno.readTextFile(path)), {
    version: 1,
    later: { x: 1 },
    aliases: { eng1: { color: "red", direct: true }, eng9: { hciroot: "/h" } },
  });
  await removeHost(tmp.path, "eng1");
  assertEquals(JSON.parse(await Deno.readTextFile(path)).aliases, { eng9: { hciroot: "/h" } });
});
