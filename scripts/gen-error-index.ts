// Writes src/explain/pages.generated.ts from docs/errors/*.md (one Bun text import a page).
// `--check` only compares and exits 1 when the committed index is stale.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pagesModuleSource } from "../src/explain/index-source.ts";

const root = join(import.meta.dir, "..");
const docs = join(root, "docs", "errors");
const target = join(root, "src", "explain", "pages.generated.ts");
const codes = readdirSync(docs).filter((f) => f.endsWith(".md")).map((f) => f.slice(0, -3));
const source = pagesModuleSource(codes);
let current = "";
try {
  current = readFileSync(target, "utf8");
} catch {}
if (process.argv.includes("--check")) {
  if (current !== source) {
    console.error("src/explain/pages.generated.ts is stale: run bun scripts/gen-error-index.ts");
    process.exit(1);
  }
  console.error(`index up to date (${codes.length} pages)`);
} else if (current !== source) {
  writeFileSync(target, source);
  console.error(`wrote ${target} (${codes.length} pages)`);
} else console.error(`index up to date (${codes.length} pages)`);
