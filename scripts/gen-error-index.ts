// Writes src/explain/pages.generated.ts from docs/errors/*.md (one Bun text import a page).
// `--check` only compares and exits 1 when the committed index is stale.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { pagesModuleSource } from "../src/explain/index-source.ts";
import { writeGenerated } from "./write-generated.ts";

const root = join(import.meta.dir, "..");
const docs = join(root, "docs", "errors");
const target = join(root, "src", "explain", "pages.generated.ts");
const codes = readdirSync(docs).filter((f) => f.endsWith(".md")).map((f) => f.slice(0, -3));
const source = pagesModuleSource(codes);
writeGenerated(target, source, { label: "src/explain/pages.generated.ts", regenerate: "bun scripts/gen-error-index.ts" });
