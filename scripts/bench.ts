// Runs every scripts/bench/*.bench.ts, or only those whose file name contains argv[2].
// Exit 1 when a bench reports a missed target, so CI can gate on it if it wants to.
import { readdirSync } from "node:fs";
import { join } from "node:path";

const filter = process.argv[2] ?? "";
const dir = join(import.meta.dir, "bench");
const files = readdirSync(dir)
  .filter((f) => f.endsWith(".bench.ts") && f.includes(filter))
  .sort();
if (files.length === 0) {
  console.error(`no bench matches "${filter}" in scripts/bench/`);
  process.exit(2);
}
let failed = false;
for (const f of files) {
  console.error(`# ${f}`);
  const proc = Bun.spawn([process.execPath, join(dir, f)], { stdout: "inherit", stderr: "inherit" });
  if ((await proc.exited) !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
