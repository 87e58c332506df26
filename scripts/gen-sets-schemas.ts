// Writes docs/json/plugins-lock.schema.json from the TypeBox schema in src/sets/lock-schema.ts.
// `--check` only compares and exits 1 when the committed file is stale.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { LockFileSchema } from "../src/sets/lock-schema.ts";
import { writeGenerated } from "./write-generated.ts";

const root = join(import.meta.dir, "..");
const target = join(root, "docs", "json", "plugins-lock.schema.json");
mkdirSync(join(root, "docs", "json"), { recursive: true });
const doc = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  title: "gjc plugins.lock.json (lockfileVersion 1)",
  description: "A team's plugin set: one entry per bundle with its source, resolved pin, content integrity and the user's choices. See README \"Team plugin sets\".",
  ...JSON.parse(JSON.stringify(LockFileSchema)),
};
writeGenerated(target, `${JSON.stringify(doc, null, 2)}\n`, { label: "docs/json/plugins-lock.schema.json", regenerate: "bun scripts/gen-sets-schemas.ts" });
