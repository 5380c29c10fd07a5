/**
 * A stand-in SSH master for tests/ssh/spawn_detached.test.ts: prints the handshake line, then waits
 * (at most 60 s) for `<dir>/go`, which the test writes once the process that started it has exited,
 * and answers with `<dir>/alive` holding its pid. A master killed with its starter never answers.
 */
const dir = Deno.args[0];
console.log(JSON.stringify({ ok: true, pid: Deno.pid, transport: { kind: "test" } }));
const until = Date.now() + 60_000;
while (Date.now() < until) {
  if (await Deno.stat(`${dir}/go`).then(() => true, () => false)) {
    await Deno.writeTextFile(`${dir}/alive`, `${Deno.pid}\n`);
    Deno.exit(0);
  }
  await new Promise((r) => setTimeout(r, 100));
}
Deno.exit(1);
