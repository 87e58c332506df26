// Writes docs/json/<verb>.schema.json for every store verb document (install, upgrade,
// uninstall, enable, disable, list, inspect, verify, doctor, allow, permissions) from the TypeBox schemas in
// src/store/documents.ts. `--check` only compares and exits 1 when a file is stale.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { STORE_DOCUMENTS } from "../src/store/documents.ts";
import { writeGenerated } from "./write-generated.ts";

const dir = join(import.meta.dir, "..", "docs", "json");
mkdirSync(dir, { recursive: true });
for (const [id, schema] of Object.entries(STORE_DOCUMENTS)) {
  const verb = /^gjc\/(.+)@1$/.exec(id)![1];
  const doc = {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $id: id,
    title: `gjc plugin ${verb} --json (${id})`,
    ...JSON.parse(JSON.stringify(schema)),
  };
  writeGenerated(join(dir, `${verb}.schema.json`), `${JSON.stringify(doc, null, 2)}\n`, {
    label: `docs/json/${verb}.schema.json`,
    regenerate: "bun scripts/gen-store-schemas.ts",
  });
}
