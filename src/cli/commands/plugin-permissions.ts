import { bundlePermissions } from "../../app/grant-verbs.ts";
import { defineVerb, familyArg, jsonArg } from "../define-verb.ts";
import { describePermissions } from "../render/grants.ts";

export default defineVerb({
  name: "plugin permissions",
  description: "Show what each process of a bundle may touch in its sandbox: the default profile plus grants",
  schema: "gjc/permissions@1",
  args: {
    name: { type: "positional", description: "Installed bundle name", required: true },
    user: { type: "boolean", description: "The bundle in the user scope (when the name is in both)" },
    project: { type: "boolean", description: "The bundle in the project scope (when the name is in both)" },
    ...familyArg,
    ...jsonArg,
  },
  examples: ["gjc plugin permissions weather", "gjc plugin permissions weather --json"],
  async run({ args, ctx }) {
    const r = await bundlePermissions(ctx, args.name, args);
    return { json: { schema: "gjc/permissions@1", ok: true, ...r }, human: describePermissions(ctx, r) };
  },
});
