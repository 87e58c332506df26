import { withCliHost } from "../../c2host/cli-host.ts";
import { listUi } from "../../c2host/ui-actions.ts";
import { defineVerb, jsonArg } from "../define-verb.ts";
import { projectArg } from "./plugin-run-options.ts";
import { describeUiList } from "../render/c2-runtime.ts";

export default defineVerb({
  name: "plugin ui list",
  description: "List the UI action contributions of installed C2 bundles and whether each is offered",
  schema: "gjc/plugin-ui-list@1",
  args: {
    plugin: { type: "positional", description: "Only this installed C2 bundle", required: false },
    ...projectArg,
    ...jsonArg,
  },
  examples: ["gjc plugin ui list", "gjc plugin ui list hello-runtime --json"],
  async run({ args, ctx }) {
    const entries = await withCliHost(ctx, async (host) =>
      listUi(host, { plugin: args.plugin, project: args.project }),
    );
    return {
      json: { schema: "gjc/plugin-ui-list@1", ok: true, contributions: entries },
      human: describeUiList(entries, ctx.out),
    };
  },
});
