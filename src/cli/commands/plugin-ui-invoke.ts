import { withCliHost } from "../../c2host/cli-host.ts";
import { activateUi } from "../../c2host/ui-actions.ts";
import { defineVerb, jsonArg } from "../define-verb.ts";
import { jsonOption, projectArg, timeoutOption } from "./plugin-run-options.ts";
import { describeHostActions, pretty } from "../render/c2-runtime.ts";

export default defineVerb({
  name: "plugin ui invoke",
  description: "Activate a UI action (host.actions: render it, or invoke one rendered item)",
  schema: "gjc/plugin-ui-invoke@1",
  args: {
    plugin: { type: "positional", description: "Installed C2 bundle name or id", required: true },
    contribution: { type: "positional", description: "UI contribution id", required: true },
    context: { type: "string", description: "Caller context passed to the command (JSON object)", valueHint: "json" },
    item: {
      type: "string",
      description: "host.actions: invoke this rendered item with its cached input",
      valueHint: "id",
    },
    ...projectArg,
    timeout: { type: "string", description: "Give up after this many milliseconds", valueHint: "ms" },
    ...jsonArg,
  },
  examples: [
    'gjc plugin ui invoke hello-runtime greet --context \'{"cwd":"/repo"}\'',
    "gjc plugin ui invoke monitor actions --item session-1",
  ],
  async run({ args, ctx }) {
    const context = jsonOption("context", args.context);
    const timeoutMs = timeoutOption(args.timeout);
    const out = await withCliHost(ctx, (host) =>
      activateUi(host, args.plugin, args.contribution, { project: args.project, timeoutMs, item: args.item, context }),
    );
    if (out.kind === "render") {
      return {
        json: {
          schema: "gjc/plugin-ui-invoke@1",
          ok: true,
          operation: "render",
          plugin: out.plugin,
          contribution: out.contribution,
          items: out.items,
        },
        human: describeHostActions(out.items),
      };
    }
    return {
      json: {
        schema: "gjc/plugin-ui-invoke@1",
        ok: true,
        operation: "invoke",
        plugin: out.plugin,
        realm: out.realm,
        contribution: out.contribution,
        command: out.command,
        result: out.result,
      },
      human: pretty(out.result),
    };
  },
});
