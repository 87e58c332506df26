import { doctorStores } from "../../app/doctor.ts";
import { defineVerb, familyArg, jsonArg, scopeArgs } from "../define-verb.ts";
import { describeDoctor } from "../render/store.ts";

export default defineVerb({
  name: "plugin doctor",
  description:
    "Find leftovers, stale locks, damaged registries, records and policy files of both families; --fix repairs what is safe",
  schema: "gjc/doctor@1",
  args: {
    fix: {
      type: "boolean",
      description:
        "Repair: take over stale locks, restore the last good registry, remove leftovers and unusable records",
    },
    adopt: {
      type: "boolean",
      description:
        "With --fix: sign a GJC scope shown as foreign because an older gjc wrote it for you (never one that came with a repository)",
    },
    ...scopeArgs,
    ...familyArg,
    ...jsonArg,
  },
  examples: [
    "gjc plugin doctor",
    "gjc plugin doctor --fix",
    "gjc plugin doctor --project",
    "gjc plugin doctor --fix --adopt",
  ],
  async run({ args, ctx }) {
    const r = await doctorStores(ctx, args, Boolean(args.fix), Boolean(args.adopt));
    return { json: { schema: "gjc/doctor@1", ...r }, human: describeDoctor(r), exit: r.ok ? 0 : 1 };
  },
});
