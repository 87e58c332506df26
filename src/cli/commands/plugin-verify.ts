import { verifyAll } from "../../install/verify-all.ts";
import { defineVerb, jsonArg } from "../define-verb.ts";

export default defineVerb({
  name: "plugin verify",
  description: "Re-hash every installed file of both families; drift quarantines the bundle (exit 3), a clean check clears it",
  schema: "gjc/verify@1",
  args: {
    name: { type: "positional", description: "Only this bundle (default: all)", required: false },
    runtime: { type: "boolean", description: "Also load each active GJC tool and hook module in an isolated child and hold it to its declaration" },
    mcp: { type: "boolean", description: "Also probe every pinned MCP server and hold its tool definitions to the pins (drift: tool_definition_drift, exit 3)" },
    ...jsonArg,
  },
  examples: ["gjc plugin verify", "gjc plugin verify my-bundle --json"],
  async run({ args, ctx }) {
    // GJC bundles of both scopes, and C2 bundles when a C2 store exists; a name may match either.
    const r = await verifyAll(ctx, args.name);
    const lines: string[] = [];
    for (const b of r.bundles) {
      if (b.ok) lines.push(`ok          ${b.name} ${b.version} [${b.scope}] (${b.checked} files)${b.change === "cleared" ? " — quarantine cleared" : ""}`);
      else {
        lines.push(`quarantined ${b.name} ${b.version} [${b.scope}]: ${b.problems.length} problem${b.problems.length === 1 ? "" : "s"} (runtime_mismatch)`);
        for (const p of b.problems.slice(0, 20)) lines.push(`  ${p.message}`);
        if (b.problems.length > 20) lines.push(`  …and ${b.problems.length - 20} more`);
      }
    }
    for (const c of r.corrupt) lines.push(`damaged     ${c.scope} registry ${c.path}: ${c.problem} — run "gjc plugin doctor --fix"`);
    for (const b of r.c2.bundles) {
      lines.push(`${b.ok ? "ok         " : "quarantined"} ${b.name} [c2 ${b.id}]${b.ok ? "" : `: ${b.problems.length} problem${b.problems.length === 1 ? "" : "s"} (runtime_mismatch)`}`);
      for (const f of b.problems.slice(0, 20)) lines.push(`  ${f.kind}: ${f.path}`);
    }
    if (r.bundles.length === 0 && r.corrupt.length === 0 && r.c2.bundles.length === 0) lines.push("No bundles installed.");
    // --runtime: see src/gjcsession/runtime-verify.ts (loaded only when asked for).
    const runtime = args.runtime ? await (await import("../../gjcsession/runtime-verify.ts")).verifyRuntime(ctx, args.name) : undefined;
    for (const x of runtime?.results ?? []) lines.push(`${x.ok ? "runtime ok " : "quarantined"} ${x.bundle} [${x.scope}] ${x.surfaceId}${x.ok ? "" : `: ${x.message} (${x.code})`}`);
    // --mcp: src/mcp/pins-probe.ts (pinned servers only; a pin is made by gjc plugin mcp probe).
    const mcp = args.mcp ? await (await import("../../mcp/pins-probe.ts")).verifyMcpPins(ctx, args.name) : undefined;
    if (mcp) lines.push(...(await import("../render/mcp-pins.ts")).describePinChecks(mcp.servers), ...(mcp.servers.length === 0 ? ["mcp: no pinned MCP servers (gjc plugin mcp probe <bundle>/<server> pins one)"] : []));
    const ok = r.ok && (runtime?.failed ?? 0) === 0 && (mcp?.ok ?? true);
    if (!r.ok || (runtime?.failed ?? 0) > 0) lines.push("Reinstall a quarantined bundle (gjc plugin install <source> …) to repair it; a clean verify also clears the quarantine.");
    return { json: { schema: "gjc/verify@1", ...r, ok, ...(runtime ? { runtime } : {}), ...(mcp ? { mcp } : {}) }, human: lines.join("\n"), exit: ok ? 0 : 3 };
  },
});
