import { usageError } from "../../core/errors.ts";
import { timeoutOption } from "../options.ts";
import type { Style } from "../../core/style.ts";
import type { SessionDiagnostic } from "../../gjcsession/diagnostics.ts";
import { sessionDocument } from "../../gjcsession/document.ts";
import { startSession, type SessionResult } from "../../gjcsession/session.ts";
import { defineVerb, jsonArg } from "../define-verb.ts";

function renderDiagnostic(d: SessionDiagnostic, s: Style): string {
  const label = d.severity === "error" ? s.red("error") : s.yellow("warning");
  const where = [d.bundle ? `${d.bundle}${d.scope ? ` (${d.scope})` : ""}` : d.scope, d.surfaceId].filter(Boolean).join(" ");
  const lines = [`  ${label} ${s.dim(`[${d.code}]`)} ${where ? `${where}: ` : ""}${d.message}`];
  if (d.hint) lines.push(`      ${s.cyan("hint")}: ${d.hint}`);
  return lines.join("\n");
}

function renderSession(r: SessionResult, s: Style, c2Installed = false): string {
  const p = r.plan;
  const lines = [`${s.bold("GJC session plan")} ${s.dim(`project ${p.projectDir}`)}`];
  if (p.bundles.length === 0) lines.push(c2Installed ? "  no GJC bundle installed (C2 bundles are: gjc plugin session --family c2)" : "  no GJC bundle installed");
  for (const b of p.bundles) {
    const tag = b.status === "active" ? s.green("active") : b.status === "disabled" ? s.dim("disabled") : b.status === "excluded" ? s.yellow("excluded") : s.red("quarantined");
    const active = b.surfaces.filter((x) => x.status === "active").length;
    const why = b.status === "active" ? ` — ${active}/${b.surfaces.length} surfaces active` : b.collision ? ` — collides with ${b.collision.with.join(", ")} on ${b.collision.surfaceIds.join(", ")}` : "";
    lines.push(`  ${tag} ${b.name}@${b.version} (${b.scope})${why}`);
  }
  const agentBlocks = Object.values(p.agentAppendices).filter((t) => t !== "").length;
  const adverts = [...Object.entries(p.advertisements.skills), ...Object.entries(p.advertisements.agents)].filter(([, t]) => t !== "").map(([k]) => k);
  lines.push(
    `  ${s.dim("tools")} ${p.tools.length}  ${s.dim("hooks")} ${p.hooks.length}  ${s.dim("mcp servers")} ${p.mcpServers.length}  ${s.dim("sub-skills")} ${p.subskills.length}`,
    `  ${s.dim("system appendix")} ${p.systemAppendix === "" ? "none" : `${Buffer.byteLength(p.systemAppendix)} bytes`}  ${s.dim("agent appendices")} ${agentBlocks}  ${s.dim("advertised parents")} ${adverts.length ? adverts.join(", ") : "none"}`,
  );
  if (r.runtimeCheck) {
    const c = r.runtimeCheck;
    const cached = r.runtimeCheckCached ?? 0;
    lines.push(`  ${s.dim("runtime check")} ${c.checked} module(s)${cached > 0 ? ` (${cached} by earlier verdicts for the same content)` : ""}, ${c.failed === 0 ? s.green("all passed") : s.red(`${c.failed} failed`)}`);
  }
  if (p.diagnostics.length > 0) {
    lines.push("", "Findings:");
    for (const d of p.diagnostics) lines.push(renderDiagnostic(d, s));
  }
  return lines.join("\n");
}

export default defineVerb({
  name: "plugin session",
  description: "Build the GJC session-start plan: verified bundles, appendices, advertisements, modules and MCP servers",
  schema: "gjc/session@1",
  args: {
    project: { type: "string", description: "Project directory whose .gjc/gjc-plugins is the project scope (default: the current directory)", valueHint: "dir" },
    family: { type: "string", description: "gjc (default): the GJC session plan; c2: what a host loads from enabled C2 bundles", valueHint: "gjc|c2" },
    "check-runtime": { type: "boolean", description: "Check every active tool and hook module now (default: only content never checked before; --no-check-runtime skips it)" },
    "host-tools": { type: "string", description: "Comma-separated tool names of the host a bundle tool may not take (default: the GJC agent's built-in tools)", valueHint: "names" },
    timeout: { type: "string", description: "Milliseconds one module may take under --check-runtime (default 5000)", valueHint: "ms" },
    ...jsonArg,
  },
  examples: ["gjc plugin session --json", "gjc plugin session --project ./repo --check-runtime", "gjc plugin session --family c2 --json"],
  async run({ args, ctx }) {
    if (args.family !== undefined && args.family !== "gjc" && args.family !== "c2") throw usageError(`--family must be gjc or c2, not "${args.family}".`);
    if (args.family === "c2") {
      const { c2SessionDocument } = await import("../../c2session/document.ts");
      const { describeC2Session } = await import("../render/c2-session.ts");
      const doc = await c2SessionDocument(ctx, { project: args.project });
      return { json: { ...doc }, human: describeC2Session(ctx.out, doc), exit: doc.ok ? 0 : 3 };
    }
    const timeout = timeoutOption(args.timeout);
    const check = args["check-runtime"] as boolean | undefined;
    const hostTools = typeof args["host-tools"] === "string" ? args["host-tools"].split(",").map((t) => t.trim()).filter(Boolean) : undefined;
    const result = await startSession(ctx, { project: args.project, checkRuntime: check, runtimeTimeoutMs: timeout, ...(hostTools ? { hostToolNames: hostTools } : {}) });
    const { json, exit } = sessionDocument(result);
    // Human output only: point at the C2 document when this plan is empty but C2 bundles exist.
    let c2Installed = false;
    if (!args.json && result.plan.bundles.length === 0) {
      const { readdirSync } = await import("node:fs");
      const { join } = await import("node:path");
      const { c2DataDir } = await import("../../core/context.ts");
      try {
        c2Installed = readdirSync(join(c2DataDir(ctx), "plugins")).some((n) => !n.startsWith("."));
      } catch {}
    }
    return { json, human: renderSession(result, ctx.out, c2Installed), exit };
  },
});
