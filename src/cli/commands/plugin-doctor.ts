import { doctorStores } from "../../store/verbs.ts";
import { defineVerb, familyArg, jsonArg, scopeArgs } from "../define-verb.ts";
import { describeDoctor } from "../render/store.ts";

export default defineVerb({
  name: "plugin doctor",
  description: "Find leftovers, stale locks, damaged registries, records and policy files of both families; --fix repairs what is safe",
  schema: "gjc/doctor@1",
  args: {
    fix: { type: "boolean", description: "Repair: take over stale locks, restore the last good registry, remove leftovers and unusable records" },
    ...scopeArgs,
    ...familyArg,
    ...jsonArg,
  },
  examples: ["gjc plugin doctor", "gjc plugin doctor --fix", "gjc plugin doctor --project"],
  async run({ args, ctx }) {
    const r = await doctorStores(ctx, args, Boolean(args.fix));
    return { json: { schema: "gjc/doctor@1", ...r }, human: describeDoctor(r), exit: r.ok ? 0 : 1 };
  },
});
