import { scopeFromFlags } from "../../store/resolve.ts";
import { acceptServer } from "../../app/mcp-probe.ts";
import { timeoutOption } from "../options.ts";
import { defineVerb, jsonArg, scopeArgs } from "../define-verb.ts";
import { describeMcpAccept } from "../render/mcp-pins.ts";

export default defineVerb({
  name: "plugin mcp accept",
  description:
    "Probe a server whose tool definitions drifted, show what changed since the pin, and pin what it serves now",
  schema: "gjc/mcp-accept@1",
  args: {
    target: { type: "positional", description: "<bundle>/<server>", required: true },
    ...scopeArgs,
    timeout: { type: "string", description: "Milliseconds for the probe (default 10000)", valueHint: "ms" },
    ...jsonArg,
  },
  examples: ["gjc plugin mcp accept docs-bundle/docs"],
  async run({ args, ctx }) {
    const r = await acceptServer(ctx, args.target, {
      scope: scopeFromFlags(args),
      timeoutMs: timeoutOption(args.timeout),
    });
    return { json: { schema: "gjc/mcp-accept@1", ok: true, ...r }, human: describeMcpAccept(r, ctx.out) };
  },
});
