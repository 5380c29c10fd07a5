/** How the master is started: the command for a development run and for a compiled binary. */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { isStandalone, masterCommand } from "../../ssh/spawn.ts";

Deno.test("masterCommand: development re-runs main.ts with deno under -P=assist", () => {
  const c = masterCommand("eng1", {
    standalone: false,
    execPath: "/opt/deno/deno",
    repoUrl: "file:///src/assist/",
  });
  assertEquals(c.programs, ["/opt/deno/deno", "deno"]);
  assertEquals(c.args, [
    "run",
    "-q",
    "--no-prompt",
    "-P=assist",
    "--config",
    "/src/assist/deno.json",
    "/src/assist/main.ts",
    "internal",
    "ssh-master",
    "eng1",
  ]);
  // Never a password, never anything but the alias after the hidden form.
  assertEquals(c.args.slice(-3), ["internal", "ssh-master", "eng1"]);
});

Deno.test("masterCommand: a compiled binary runs itself (or `assist` on PATH) with the hidden form only", () => {
  const c = masterCommand("eng1", { standalone: true, execPath: "/usr/local/bin/assist", os: "linux" });
  assertEquals(c.programs, ["/usr/local/bin/assist", "assist"]);
  assertEquals(c.args, ["internal", "ssh-master", "eng1"]);
  assertEquals(
    masterCommand("e", { standalone: true, execPath: "C:\\a\\assist.exe", os: "windows" }).programs[1],
    "assist.exe",
  );
});

Deno.test("isStandalone: Deno.build.standalone, else the deno-compile virtual root of the module URL", () => {
  assertEquals(isStandalone({ standalone: true }, "file:///src/assist/ssh/spawn.ts"), true);
  assertEquals(isStandalone({ standalone: false }, "file:///src/assist/ssh/spawn.ts"), false);
  assertEquals(isStandalone({}, "file:///tmp/deno-compile-assist/ssh/spawn.ts"), true);
  assertEquals(
    isStandalone({}, "file:///C:/Users/op/AppData/Local/Temp/deno-compile-assist.exe/ssh/spawn.ts"),
    true,
  );
  // This test itself runs from source.
  assertEquals(isStandalone(), false);
});
