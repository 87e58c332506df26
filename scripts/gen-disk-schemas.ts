// Writes src/<folder>/disk-schemas.generated.ts (one beside each folder's schemas) and
// docs/json/<document>.schema.json for the documents gjc keeps on disk (see
// scripts/disk-schemas-source.ts). `--check` only compares.
import { join } from "node:path";
import {
  DISK_SCHEMAS,
  diskJsonSchema,
  diskSchemaFolders,
  diskSchemasModuleSource,
  type DiskSchemaName,
} from "./disk-schemas-source.ts";
import { writeGenerated } from "./write-generated.ts";

const root = join(import.meta.dir, "..");
const regenerate = "bun scripts/gen-disk-schemas.ts";
for (const folder of diskSchemaFolders().keys()) {
  const label = `src/${folder}/disk-schemas.generated.ts`;
  writeGenerated(join(root, label), diskSchemasModuleSource(folder), { label, regenerate });
}
for (const [name, [, , file]] of Object.entries(DISK_SCHEMAS)) {
  writeGenerated(join(root, "docs", "json", file), diskJsonSchema(name as DiskSchemaName), {
    label: `docs/json/${file}`,
    regenerate,
  });
}
