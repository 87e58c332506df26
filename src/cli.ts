#!/usr/bin/env bun
import pkg from "../package.json" with { type: "json" };

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
