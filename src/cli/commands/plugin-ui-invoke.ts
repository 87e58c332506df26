import { withCliHost } from "../../c2host/cli-host.ts";
import { invokeHostAction, invokeUi, renderHostActions, uiTarget } from "../../c2host/ui-actions.ts";
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
    item: { type: "string", description: "host.actions: invoke this rendered item with its cached input", valueHint: "id" },
    ...projectArg,
    timeout: { type: "string", description: "Give up after this many milliseconds", valueHint: "ms" },
    ...jsonArg,
  },
  examples: ["gjc plugin ui invoke hello-runtime greet --context '{\"cwd\":\"/repo\"}'", "gjc plugin ui invoke monitor actions --item session-1"],
  async run({ args, ctx }) {
    const context = jsonOption("context", args.context);
    const timeoutMs = timeoutOption(args.timeout);
    const opts = { project: args.project, timeoutMs };
    const out = await withCliHost(ctx, async (host) => {
      const { ui } = uiTarget(host, args.plugin, args.contribution, args.project);
      if (ui.slot === "host.actions") {
        if (args.item === undefined) return { kind: "render" as const, ...(await renderHostActions(host, args.plugin, args.contribution, opts)) };
        return { kind: "invoke" as const, ...(await invokeHostAction(host, args.plugin, args.contribution, args.item, { ...opts, renderIfMissing: true })) };
      }
      return { kind: "invoke" as const, ...(await invokeUi(host, args.plugin, args.contribution, { ...opts, context })) };
    });
    if (out.kind === "render") {
      return { json: { schema: "gjc/plugin-ui-invoke@1", ok: true, operation: "render", plugin: out.plugin, contribution: out.contribution, items: out.items }, human: describeHostActions(out.items) };
    }
    return {
      json: { schema: "gjc/plugin-ui-invoke@1", ok: true, operation: "invoke", plugin: out.plugin, realm: out.realm, contribution: out.contribution, command: out.command, result: out.result },
      human: pretty(out.result),
    };
  },
});
