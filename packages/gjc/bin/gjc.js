#!/usr/bin/env node
// The `gjc` command of the npm package: finds the native binary in the platform package npm
// installed beside it (one optional dependency per release platform, each limited by its `os`
// and `cpu` fields, so npm installs only the one for this machine) and runs it with the same
// arguments, standard streams and exit status. Needs only Node, never Bun.
"use strict";
const { chmodSync, statSync } = require("node:fs");
const { spawnSync } = require("node:child_process");

const platform = `${process.platform === "win32" ? "windows" : process.platform}-${process.arch}`;
const pkg = `@gjc/${platform}`;
const file = `bin/gjc${process.platform === "win32" ? ".exe" : ""}`;

let binary;
try {
  binary = require.resolve(`${pkg}/${file}`);
} catch {
  console.error(
    `gjc: there is no gjc binary for ${platform} here: the package ${pkg} is not installed.\n` +
      "  hint: reinstall without --omit=optional / --no-optional, or get the binary for your system from the release page.",
  );
  process.exit(1);
}

// Some package managers drop the execute bit when they unpack; put it back once.
if (process.platform !== "win32" && (statSync(binary).mode & 0o111) === 0) chmodSync(binary, 0o755);

const run = spawnSync(binary, process.argv.slice(2), { stdio: "inherit" });
if (run.error) {
  console.error(`gjc: could not start ${binary}: ${run.error.message}`);
  process.exit(1);
}
if (run.signal) process.kill(process.pid, run.signal);
process.exit(run.status ?? 1);
