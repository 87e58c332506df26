// Writes docs/json/<verb>.schema.json for the --json documents of the plugin-set verbs from
// src/sets/documents.ts (the lock file's docs/json/plugins-lock.schema.json comes with its
// generated check from scripts/gen-disk-schemas.ts). `--check` only compares and exits 1 when a file is stale.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { SET_DOCUMENTS } from "../src/sets/documents.ts";
import { writeGenerated } from "./write-generated.ts";

const dir = join(import.meta.dir, "..", "docs", "json");
mkdirSync(dir, { recursive: true });
const write = (file: string, doc: object) =>
  writeGenerated(join(dir, file), `${JSON.stringify(doc, null, 2)}\n`, {
    label: `docs/json/${file}`,
    regenerate: "bun scripts/gen-sets-schemas.ts",
  });
for (const [id, schema] of Object.entries(SET_DOCUMENTS)) {
  const verb = /^gjc\/(.+)@1$/.exec(id)![1];
  write(`${verb}.schema.json`, {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $id: id,
    title: `gjc plugin ${verb.replace("-", " ")} --json (${id})`,
    ...JSON.parse(JSON.stringify(schema)),
  });
}
