// Writes src/families/c2/schemas.generated.ts (the C2 schemas as plain JSON, see
// src/families/c2/schemas-source.ts). `--check` only compares and exits 1 when it is stale.
import { join } from "node:path";
import { schemasModuleSource } from "../src/families/c2/schemas-source.ts";
import { writeGenerated } from "./write-generated.ts";

const target = join(import.meta.dir, "..", "src", "families", "c2", "schemas.generated.ts");
const source = schemasModuleSource();
writeGenerated(target, source, { label: "src/families/c2/schemas.generated.ts", regenerate: "bun run gen:schemas" });
