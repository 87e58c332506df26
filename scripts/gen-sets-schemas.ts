// Writes docs/json/plugins-lock.schema.json (the lock file) from src/sets/lock-schema.ts, and
// docs/json/<verb>.schema.json for the --json documents of the plugin-set verbs from
// src/sets/documents.ts. `--check` only compares and exits 1 when a file is stale.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { SET_DOCUMENTS } from "../src/sets/documents.ts";
import { LockFileSchema } from "../src/sets/lock-schema.ts";
import { writeGenerated } from "./write-generated.ts";

const dir = join(import.meta.dir, "..", "docs", "json");
mkdirSync(dir, { recursive: true });
const write = (file: string, doc: object) => writeGenerated(join(dir, file), `${JSON.stringify(doc, null, 2)}\n`, { label: `docs/json/${file}`, regenerate: "bun scripts/gen-sets-schemas.ts" });
write("plugins-lock.schema.json", {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  title: "gjc plugins.lock.json (lockfileVersion 1)",
  description: "A team's plugin set: one entry per bundle with its source, resolved pin, content integrity and the user's choices. See README \"Team plugin sets\".",
  ...JSON.parse(JSON.stringify(LockFileSchema)),
});
for (const [id, schema] of Object.entries(SET_DOCUMENTS)) {
  const verb = /^gjc\/(.+)@1$/.exec(id)![1];
  write(`${verb}.schema.json`, { $schema: "https://json-schema.org/draft/2020-12/schema", $id: id, title: `gjc plugin ${verb.replace("-", " ")} --json (${id})`, ...JSON.parse(JSON.stringify(schema)) });
}
