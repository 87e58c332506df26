// Loaded once before the test files (bunfig.toml `[test] preload`).
import { afterAll, setDefaultTimeout } from "bun:test";
import { removeEndOfRunPaths } from "./helpers/end-of-run.ts";

// Tests spawn real processes, git and compiled binaries; 5 s (Bun's default) is too little on a
// loaded 2-core machine. Bun 1.4.5 ignores `[test] timeout` in bunfig.toml, and a preload's
// setDefaultTimeout reaches only the first test file of a run (oven-sh/bun#43787: the default
// is reset after every file). So the preload also hands every test file its own
// setDefaultTimeout call: a loader plugin prepends it on the file's first line (line numbers in
// failures stay right). GJC_TEST_TIMEOUT_MS exists for test/unit/test-timeout.test.ts only.
const timeoutMs = Number(process.env.GJC_TEST_TIMEOUT_MS ?? 60_000);
setDefaultTimeout(timeoutMs);
Bun.plugin({
  name: "gjc-test-timeout",
  setup(build) {
    build.onLoad({ filter: /\.test\.ts$/ }, async ({ path }) => ({
      contents: `import { setDefaultTimeout as __gjcSetDefaultTimeout } from "bun:test"; __gjcSetDefaultTimeout(${timeoutMs});${await Bun.file(path).text()}`,
      loader: "ts",
    }));
  },
});

// An afterAll in a preload runs once, after the last test file of the run.
afterAll(removeEndOfRunPaths);
