/** The host side of the C2 standard's letter (test/e2e/c2-host-standard-suite.ts), from source. */
import { hostStandardSuite } from "./c2-host-standard-suite.ts";

hostStandardSuite(() => undefined);
