/** Run under `-P=assist` by tests/integration/cli.test.ts: prints "NotCapable" when refused. */
const what = Deno.args[0];
try {
  if (what === "env") Deno.env.get("AWS_SECRET_ACCESS_KEY");
  if (what === "env-ok") Deno.env.get("PATH");
  if (what === "run") await new Deno.Command("curl", { args: ["--version"] }).output();
  if (what === "ffi") Deno.dlopen("libc.so.6", {});
  console.log("ok");
} catch (err) {
  console.log((err as Error).name);
}
