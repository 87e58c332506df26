// Writes docs/json/audit.schema.json (gjc plugin audit --json) from the TypeBox schemas in
// src/audit/documents.ts (the pin file's schema is an on-disk one: scripts/gen-disk-schemas.ts). `--check` only
// compares and exits 1 when a file is stale.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { AUDIT_DOCUMENTS } from "../src/audit/documents.ts";
import { writeGenerated } from "./write-generated.ts";

const dir = join(import.meta.dir, "..", "docs", "json");
mkdirSync(dir, { recursive: true });
for (const [id, { file, title, schema }] of Object.entries(AUDIT_DOCUMENTS)) {
  const doc = {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $id: id,
    title,
    ...JSON.parse(JSON.stringify(schema)),
  };
  writeGenerated(join(dir, file), `${JSON.stringify(doc, null, 2)}\n`, {
    label: `docs/json/${file}`,
    regenerate: "bun scripts/gen-audit-schemas.ts",
  });
}
