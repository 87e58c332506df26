import { setBundleTrusted } from "../../app/trust.ts";
import { defineVerb, jsonArg } from "../define-verb.ts";
import { passEnvOption } from "../options.ts";
import { flagOutcome } from "../render/c2-flag.ts";

export default defineVerb({
  name: "plugin trust",
  description: "Allow a C2 bundle's runtime and language servers to run (separate from enable)",
  schema: "gjc/trust@1",
  args: {
    name: { type: "positional", description: "Installed C2 bundle name or id", required: true },
    "pass-env": {
      type: "string",
      description:
        "Host variables this plugin's processes may also see, comma-separated (never tokens, keys or loader switches)",
    },
    ...jsonArg,
  },
  examples: ["gjc plugin trust hello-runtime", "gjc plugin trust docker-tools --pass-env DOCKER_HOST"],
  async run({ args, ctx }) {
    return flagOutcome(
      ctx,
      "gjc/trust@1",
      await setBundleTrusted(ctx, args.name, true, passEnvOption(args["pass-env"])),
    );
  },
});
