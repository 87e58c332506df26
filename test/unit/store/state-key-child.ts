// One gjc process making the user's state key at the same moment as others (state-mac.test.ts).
import { createContext } from "../../../src/core/context.ts";
import { stateKey } from "../../../src/store/state-mac.ts";

const home = process.argv[2];
const key = stateKey(createContext({ env: { HOME: home }, cwd: home, quiet: true }), true);
console.log(Buffer.from(key as Uint8Array).toString("hex"));
