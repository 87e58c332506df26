// Writes src/store/disk-schemas.generated.ts and docs/json/<document>.schema.json for the
// documents gjc keeps on disk (see src/store/disk-schemas-source.ts). `--check` only compares.
import { join } from "node:path";
import { DISK_SCHEMAS, diskJsonSchema, diskSchemasModuleSource, type DiskSchemaName } from "../src/store/disk-schemas-source.ts";
import { writeGenerated } from "./write-generated.ts";

const root = join(import.meta.dir, "..");
const regenerate = "bun scripts/gen-disk-schemas.ts";
writeGenerated(join(root, "src", "store", "disk-schemas.generated.ts"), diskSchemasModuleSource(), { label: "src/store/disk-schemas.generated.ts", regenerate });
for (const [name, [, , file]] of Object.entries(DISK_SCHEMAS)) {
  writeGenerated(join(root, "docs", "json", file), diskJsonSchema(name as DiskSchemaName), { label: `docs/json/${file}`, regenerate });
}
