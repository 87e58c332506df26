/** The held-out hostile cases (test/e2e/hostile-suite.ts) run through `bun src/cli.ts`. */
import { hostileCases } from "./hostile-suite.ts";

hostileCases(() => undefined);
