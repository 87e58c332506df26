/** The held-out hostile cases (test/e2e/hostile-suite.ts) run through the compiled gjc binary. */
import { beforeAll } from "bun:test";
import { compiledBinary } from "../helpers/binary.ts";
import { hostileCases } from "./hostile-suite.ts";

let binary: string | undefined;
beforeAll(async () => {
  binary = await compiledBinary();
});
hostileCases(() => binary);
