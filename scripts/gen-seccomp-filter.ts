// Writes src/process/sandbox/seccomp-filter.generated.ts: the seccomp filter of every supported
// architecture, assembled by buildFilter (src/process/sandbox/seccomp.ts), so the launcher stage
// installs it without assembling it at each launch. `--check` only compares and exits 1 when the
// committed file is stale (the unit test compares too).
import { join } from "node:path";
import { seccompFiltersSource } from "../src/process/sandbox/seccomp.ts";
import { writeGenerated } from "./write-generated.ts";

const target = join(import.meta.dir, "..", "src", "process", "sandbox", "seccomp-filter.generated.ts");
writeGenerated(target, seccompFiltersSource(), {
  label: "src/process/sandbox/seccomp-filter.generated.ts",
  regenerate: "bun scripts/gen-seccomp-filter.ts",
});
