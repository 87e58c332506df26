import { verifyBundles } from "../../app/verify.ts";
import { defineVerb, familyArg, jsonArg, scopeArgs } from "../define-verb.ts";
import { describeVerify } from "../render/store.ts";
import { sandboxWarnings } from "../sandbox-warnings.ts";

export default defineVerb({
  name: "plugin verify",
  description:
    "Re-hash every installed file of both families; drift quarantines the bundle (exit 3), a clean check clears it",
  schema: "gjc/verify@1",
  args: {
    name: { type: "positional", description: "Only this bundle (default: all)", required: false },
    ...scopeArgs,
    ...familyArg,
    runtime: {
      type: "boolean",
      description: "Also load each active GJC tool and hook module in an isolated child and hold it to its declaration",
    },
    mcp: {
      type: "boolean",
      description:
        "Also probe every pinned MCP server and hold its tool definitions to the pins (drift: tool_definition_drift, exit 3)",
    },
    ...jsonArg,
  },
  examples: ["gjc plugin verify", "gjc plugin verify my-bundle --json", "gjc plugin verify --project"],
  async run({ args, ctx }) {
    const r = await verifyBundles(ctx, args.name, args);
    return {
      json: { schema: "gjc/verify@1", ...r, ...sandboxWarnings() },
      human: describeVerify(r),
      exit: r.ok ? 0 : 3,
    };
  },
});
