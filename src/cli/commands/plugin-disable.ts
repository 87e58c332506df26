import { enablementVerb } from "./plugin-enable.ts";

export default enablementVerb("disable");
