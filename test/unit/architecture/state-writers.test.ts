import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const src = new URL("../../../src", import.meta.url).pathname;
const files = readdirSync(src, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".ts"));

/** Lines of src/ that write or rename onto a path naming the file. */
function writersOf(file: RegExp): string[] {
  const write = /\b(writeFileAtomic|writeFileSync|Bun\.write|renameSync|copyFileSync|linkSync|symlinkSync)\(/;
  return files.flatMap((f) =>
    readFileSync(join(src, f), "utf8")
      .split("\n")
      .map((line, i) => ({ at: `src/${f}:${i + 1}`, line }))
      .filter(({ line }) => write.test(line) && file.test(line))
      .map(({ at }) => at),
  );
}

test("registry.json is written by one function: writeRegistry in src/install/registry.ts", () => {
  const found = writersOf(/registryPath\(|REGISTRY_FILE|registry\.json/);
  expect(found).toHaveLength(1);
  expect(found[0]).toStartWith("src/install/registry.ts:");
  const text = readFileSync(join(src, "install/registry.ts"), "utf8").split("\n");
  const line = Number(found[0].split(":")[1]);
  const enclosing = text.slice(0, line).findLast((l) => /^export function /.test(l));
  expect(enclosing).toStartWith("export function writeRegistry(");
});
