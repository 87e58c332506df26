// Child process for lock.test.ts: `hold <dir>` takes the lock and waits for stdin to close;
// `count <dir> <n>` increments a counter file under the lock n times (checks mutual exclusion).
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { withLock } from "../../../src/store/lock.ts";

const [mode, dir, n] = process.argv.slice(2);
if (mode === "hold") {
  await withLock(dir, { command: "test hold" }, async () => {
    process.stdout.write("held\n");
    for await (const _ of Bun.stdin.stream()) {
    }
  });
} else if (mode === "count") {
  for (let i = 0; i < Number(n); i++) {
    await withLock(dir, { command: "test count", timeoutMs: 60_000 }, () => {
      const file = join(dir, "counter");
      let v = 0;
      try {
        v = Number(readFileSync(file, "utf8"));
      } catch {}
      writeFileSync(file, String(v + 1));
    });
  }
}
