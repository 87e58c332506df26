// Writes src/explain/pages.generated.ts from the code table (src/core/codes.ts): one Bun text
// import of docs/errors/<code>.md a code. A code without its page stops it. `--check` only
// compares and exits 1 when the committed index is stale.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { CODES } from "../src/core/codes.ts";
import { pagesModuleSource } from "../src/explain/index-source.ts";
import { writeGenerated } from "./write-generated.ts";

const root = join(import.meta.dir, "..");
const missing = CODES.filter((code) => !existsSync(join(root, "docs", "errors", `${code}.md`)));
if (missing.length > 0) {
  console.error(`codes without a page (write docs/errors/<code>.md): ${missing.join(", ")}`);
  process.exit(1);
}
const target = join(root, "src", "explain", "pages.generated.ts");
writeGenerated(target, pagesModuleSource([...CODES]), {
  label: "src/explain/pages.generated.ts",
  regenerate: "bun scripts/gen-error-index.ts",
});
