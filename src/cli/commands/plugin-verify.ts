import { verifyBundles } from "../../store/verbs.ts";
import { defineVerb, familyArg, jsonArg, scopeArgs } from "../define-verb.ts";
import { describeVerify } from "../render/store.ts";

export default defineVerb({
  name: "plugin verify",
  description: "Re-hash every installed file of both families; drift quarantines the bundle (exit 3), a clean check clears it",
  schema: "gjc/verify@1",
  args: {
    name: { type: "positional", description: "Only this bundle (default: all)", required: false },
    ...scopeArgs,
    ...familyArg,
    runtime: { type: "boolean", description: "Also load each active GJC tool and hook module in an isolated child and hold it to its declaration" },
    mcp: { type: "boolean", description: "Also probe every pinned MCP server and hold its tool definitions to the pins (drift: tool_definition_drift, exit 3)" },
    ...jsonArg,
  },
  examples: ["gjc plugin verify", "gjc plugin verify my-bundle --json", "gjc plugin verify --project"],
  async run({ args, ctx }) {
    const r = await verifyBundles(ctx, args.name, args);
    // --runtime: see src/gjcsession/runtime-verify.ts (loaded only when asked for).
    const runtime = args.runtime ? await (await import("../../gjcsession/runtime-verify.ts")).verifyRuntime(ctx, args.name) : undefined;
    const runtimeLines = (runtime?.results ?? []).map((x) => `${x.ok ? "runtime ok " : "quarantined"} ${x.bundle} [${x.scope}] ${x.surfaceId}${x.ok ? "" : `: ${x.message} (${x.code})`}`);
    // Nothing checked is said out loud, never an empty success: --runtime holds GJC tool and
    // hook modules to their declarations; C2 runtimes are judged by their handshake instead.
    if (runtime && runtime.checked === 0) runtimeLines.push("runtime: no active GJC tool or hook module to check (C2 runtimes are checked by their handshake: gjc plugin test <dir>)");
    // --mcp: src/mcp/pins-probe.ts (pinned servers only; a pin is made by gjc plugin mcp probe).
    const mcp = args.mcp ? await (await import("../../mcp/pins-probe.ts")).verifyMcpPins(ctx, args.name) : undefined;
    if (mcp) runtimeLines.push(...(await import("../render/mcp-pins.ts")).describePinChecks(mcp.servers), ...(mcp.servers.length === 0 ? ["mcp: no pinned MCP servers (gjc plugin mcp probe <bundle>/<server> pins one)"] : []));
    const ok = r.ok && (runtime?.failed ?? 0) === 0 && (mcp?.ok ?? true);
    const human = describeVerify({ ...r, ok: r.ok && (runtime?.failed ?? 0) === 0 }, runtimeLines);
    return { json: { schema: "gjc/verify@1", ...r, ok, ...(runtime ? { runtime } : {}), ...(mcp ? { mcp } : {}) }, human, exit: ok ? 0 : 3 };
  },
});
