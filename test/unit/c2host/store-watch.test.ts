import { expect, test } from "bun:test";
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { watchStore } from "../../../src/c2host/store-watch.ts";
import { tempDirsPerTest } from "../../helpers/tmp.ts";

const fresh = tempDirsPerTest();

test("a file replaced by rename in the root wakes the watch; only a new revision runs onChange", async () => {
  const root = fresh();
  const file = join(root, "plugin-config.json");
  writeFileSync(file, "1");
  const seen: string[] = [];
  let wake: (() => void) | undefined;
  const w = watchStore(
    root,
    () => readFileSync(file, "utf8"),
    async (rev) => {
      seen.push(rev);
      wake?.();
    },
  );
  try {
    const next = () => new Promise<void>((r) => (wake = r));
    // Replaced the way gjc commits (temp file + rename).
    let arrived = next();
    writeFileSync(join(root, ".tmp"), "2");
    renameSync(join(root, ".tmp"), file);
    await arrived;
    expect(seen).toEqual(["2"]);
    // A poke with no new revision runs nothing; the next real change does.
    w.poke();
    arrived = next();
    writeFileSync(join(root, ".tmp"), "3");
    renameSync(join(root, ".tmp"), file);
    await arrived;
    expect(seen).toEqual(["2", "3"]);
  } finally {
    w.close();
  }
});
