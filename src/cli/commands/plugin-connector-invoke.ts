import { withCliHost } from "../../c2host/cli-host.ts";
import { invokeConnector } from "../../c2host/connectors.ts";
import { defineVerb, jsonArg } from "../define-verb.ts";
import { jsonOption, projectArg, timeoutOption } from "./plugin-run-options.ts";
import { pretty } from "../render/c2-runtime.ts";

export default defineVerb({
  name: "plugin connector invoke",
  description: "Call one operation of a C2 connector (checked against its declared capabilities first)",
  schema: "gjc/plugin-connector-invoke@1",
  args: {
    plugin: { type: "positional", description: "Installed C2 bundle name or id", required: true },
    connector: { type: "positional", description: "Connector id", required: true },
    operation: { type: "positional", description: "Operation, e.g. conversation.list", required: true },
    input: { type: "string", description: "Operation input (JSON)", valueHint: "json" },
    ...projectArg,
    timeout: { type: "string", description: "Give up after this many milliseconds", valueHint: "ms" },
    ...jsonArg,
  },
  examples: ["gjc plugin connector invoke chat workspace conversation.list --input '{\"limit\":10}'"],
  async run({ args, ctx }) {
    const input = jsonOption("input", args.input) ?? null;
    const timeoutMs = timeoutOption(args.timeout);
    const r = await withCliHost(ctx, (host) =>
      invokeConnector(host, args.plugin, args.connector, args.operation, input, { project: args.project, timeoutMs }),
    );
    return {
      json: {
        schema: "gjc/plugin-connector-invoke@1",
        ok: true,
        plugin: r.plugin,
        realm: r.realm,
        connector: r.connector,
        provider: r.provider,
        operation: r.operation,
        capability: r.capability,
        result: r.result,
      },
      human: pretty(r.result),
    };
  },
});
