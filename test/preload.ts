// Loaded before every test file (bunfig.toml `[test] preload`).
import { afterAll, setDefaultTimeout } from "bun:test";
import { removeEndOfRunPaths } from "./helpers/end-of-run.ts";

// Bun 1.4.5 ignores `[test] timeout` in bunfig.toml, so the 5 s default would apply to tests
// that spawn real processes, git and compiled binaries; setDefaultTimeout is what Bun honours.
setDefaultTimeout(60_000);

// An afterAll in a preload runs once, after the last test file of the run.
afterAll(removeEndOfRunPaths);
