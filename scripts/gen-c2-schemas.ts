// Writes src/families/c2/schemas.generated.ts (the C2 schemas as plain JSON, see
// src/families/c2/schemas-source.ts). `--check` only compares and exits 1 when it is stale.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { schemasModuleSource } from "../src/families/c2/schemas-source.ts";

const target = join(import.meta.dir, "..", "src", "families", "c2", "schemas.generated.ts");
const source = schemasModuleSource();
let current = "";
try {
  current = readFileSync(target, "utf8");
} catch {}
if (process.argv.includes("--check")) {
  if (current !== source) {
    console.error("src/families/c2/schemas.generated.ts is stale: run bun run gen:schemas");
    process.exit(1);
  }
  console.error("schemas.generated.ts up to date");
} else if (current !== source) {
  writeFileSync(target, source);
  console.error(`wrote ${target}`);
} else console.error("schemas.generated.ts up to date");
