/** The host side of the C2 standard's letter (test/e2e/c2-host-standard-suite.ts), through the compiled gjc binary. */
import { beforeAll } from "bun:test";
import { compiledBinary } from "../helpers/binary.ts";
import { hostStandardSuite } from "./c2-host-standard-suite.ts";

let binary: string | undefined;
beforeAll(async () => {
  binary = await compiledBinary();
});
hostStandardSuite(() => binary);
