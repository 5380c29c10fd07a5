/**
 * Runs the sidecar lifecycle under the shipped permission set (-P=assist): the embedded server
 * source, python3 as the one allowed program, loopback HTTP. Usage: <phiVenv> <port>
 */
import { runSidecarCommand } from "../../phi/sidecar/lifecycle.ts";

const [phiVenv, port] = Deno.args;
const options = { config: { phiVenv, phiPort: Number(port) }, regexOnly: true, startTimeoutMs: 20_000 };
const out: Record<string, unknown> = {};
for (const sub of ["status", "start", "health", "stop", "status"]) {
  out[`${sub}${sub === "status" && out.status ? "2" : ""}`] = await runSidecarCommand(sub, options);
}
console.log(JSON.stringify(out));
