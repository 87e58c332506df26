import { setBundleTrusted } from "../../app/trust.ts";
import { defineVerb, jsonArg } from "../define-verb.ts";
import { flagOutcome } from "../render/c2-flag.ts";

export default defineVerb({
  name: "plugin untrust",
  description: "Stop a C2 bundle's processes from running; its data contributions stay as they are",
  schema: "gjc/untrust@1",
  args: {
    name: { type: "positional", description: "Installed C2 bundle name or id", required: true },
    ...jsonArg,
  },
  examples: ["gjc plugin untrust hello-runtime"],
  async run({ args, ctx }) {
    return flagOutcome(ctx, "gjc/untrust@1", await setBundleTrusted(ctx, args.name, false));
  },
});
