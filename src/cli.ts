#!/usr/bin/env bun
import pkg from "../package.json" with { type: "json" };

// `--version` answers before anything else is imported, so it costs no more than a bare binary.
const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-V")) {
  process.stdout.write(`gjc ${pkg.version}\n`);
} else {
  const { main } = await import("./cli/main.ts");
  process.exitCode = await main(argv);
}
