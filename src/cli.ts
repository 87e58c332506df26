#!/usr/bin/env bun
import pkg from "../package.json" with { type: "json" };

/** Tier-up thresholds times 50: hot loops (hashing 5,000 files) still reach the baseline JIT early enough. */
const ONE_SHOT_JIT_POLICY = 50;

// `--version` answers before anything else is imported, so it costs no more than a bare binary
// (console.log, not process.stdout: setting up that Node stream costs ~10 ms when compiled).
const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-V")) {
  console.log(`gjc ${pkg.version}`);
} else if (argv[0] === "__sandbox-stage") {
  // gjc re-executed as the sandbox's launcher stage (src/process/sandbox/stage.ts): it
  // confines itself and execs the command, returning only to report why it could not.
  const failure = await (await import("./process/sandbox/stage.ts")).runStage(argv.slice(1), process.env);
  console.error("gjc:", failure);
  process.exit(126);
} else if (argv[0] === "__sandbox-forwarder") {
  // The sandbox's network forwarder inside a process's namespace (src/process/sandbox/forwarder.ts).
  const failure = await (await import("./process/sandbox/forwarder.ts")).runForwarder(argv.slice(1));
  if (failure !== undefined) {
    console.error("gjc:", failure);
    process.exit(126);
  }
} else {
  // A verb is one short burst of code that runs once. At JavaScriptCore's normal tier-up
  // thresholds the optimizing JITs compile much of it, on the second core, for a command that
  // is over before the code pays off: session start of 100 bundles spent ~20 % more CPU, which
  // is wall time as soon as the machine is busy. The one verb that serves for long
  // (gjc host --stdio) goes back to the normal policy when it starts serving.
  Bun.unsafe.setJITPolicy(ONE_SHOT_JIT_POLICY);
  // Hosts run `gjc plugin session --json` at every session start: its plain form is answered
  // without loading the CLI (src/gjcsession/fast-start.ts); anything else falls through.
  const fast =
    argv[0] === "plugin" && argv[1] === "session"
      ? await (await import("./gjcsession/fast-start.ts")).fastSession(argv.slice(2), process.env, process.cwd())
      : undefined;
  if (fast !== undefined) {
    console.log(fast.text);
    process.exitCode = fast.exit;
  } else {
    const { main } = await import("./cli/main.ts");
    process.exitCode = await main(argv);
  }
}
