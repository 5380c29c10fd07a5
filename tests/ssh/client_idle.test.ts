/**
 * The client's idle watchdog (ssh/client.ts Exchange): a master that accepts a request and then says
 * nothing is given up on with a clear timeout error, not waited on forever. (No sshd needed: the
 * "master" accepts and stays silent; it listens on loopback TCP, the Windows form of the master's
 * address, which the client reads on every platform.)
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { MasterClient } from "../../ssh/client.ts";
import { SshError } from "../../ssh/errors.ts";
import { socketPath } from "../../ssh/paths.ts";

Deno.test({
  name: "a master that never answers: status fails with a timeout naming the alias",
  fn: async () => {
    const home = await Deno.makeTempDir({ prefix: "assist-idle-" });
    await Deno.mkdir(`${home}/.ssh-sockets`, { recursive: true });
    const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const port = (listener.addr as Deno.NetAddr).port;
    await Deno.writeTextFile(
      socketPath(home, "quiet"),
      JSON.stringify({ transport: "tcp", port, token: "t" }),
    );
    const held: Deno.Conn[] = [];
    const accepting = (async () => {
      for await (const c of listener) held.push(c);
    })();
    try {
      const err = await new MasterClient(home, "quiet").status().then(() => undefined, (e) => e);
      assert(err instanceof SshError, String(err));
      assertEquals(err.kind, "timeout");
      assert(/master of quiet did not answer within 5 s/.test(err.message), err.message);
      assertEquals(held.length, 1); // the request did reach the silent master
    } finally {
      for (const c of held) c.close();
      listener.close();
      await accepting.catch(() => {});
      await Deno.remove(home, { recursive: true });
    }
  },
});
