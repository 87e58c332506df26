// Writes docs/json/<verb>.schema.json for the verbs outside the store, sets and audit areas
// (validate, pack, init, trust, untrust, marketplace list, ...) from the TypeBox schemas in each
// area's documents.ts. `--check` only compares and exits 1 when a file is stale.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { AUTHORING_DOCUMENTS } from "../src/authoring/documents.ts";
import { C2HOST_DOCUMENTS } from "../src/c2host/documents.ts";
import { C2SESSION_DOCUMENTS } from "../src/c2session/documents.ts";
import { C2STORE_DOCUMENTS } from "../src/c2store/documents.ts";
import { COMPLETION_DOCUMENTS } from "../src/cli/completion/documents.ts";
import { CLI_DOCUMENTS } from "../src/cli/documents.ts";
import { EXPLAIN_DOCUMENTS } from "../src/explain/documents.ts";
import { FAMILY_DOCUMENTS } from "../src/families/documents.ts";
import { SESSION_DOCUMENTS } from "../src/gjcsession/documents.ts";
import { MCP_DOCUMENTS } from "../src/mcp/documents.ts";
import { SCAFFOLD_DOCUMENTS } from "../src/scaffold/documents.ts";
import { SIGNING_DOCUMENTS } from "../src/signing/documents.ts";
import { writeGenerated } from "./write-generated.ts";

export const VERB_DOCUMENTS = {
  ...FAMILY_DOCUMENTS,
  ...AUTHORING_DOCUMENTS,
  ...C2STORE_DOCUMENTS,
  ...SESSION_DOCUMENTS,
  ...C2SESSION_DOCUMENTS,
  ...MCP_DOCUMENTS,
  ...EXPLAIN_DOCUMENTS,
  ...SCAFFOLD_DOCUMENTS,
  ...C2HOST_DOCUMENTS,
  ...COMPLETION_DOCUMENTS,
  ...CLI_DOCUMENTS,
  ...SIGNING_DOCUMENTS,
};

const dir = join(import.meta.dir, "..", "docs", "json");
mkdirSync(dir, { recursive: true });
for (const [id, { file, title, schema }] of Object.entries(VERB_DOCUMENTS)) {
  const doc = {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $id: id,
    title,
    ...JSON.parse(JSON.stringify(schema)),
  };
  writeGenerated(join(dir, file), `${JSON.stringify(doc, null, 2)}\n`, {
    label: `docs/json/${file}`,
    regenerate: "bun scripts/gen-verb-schemas.ts",
  });
}
