import { join } from "node:path";
import { scratchParent } from "../sources/scratch.ts";
import type { Context } from "../core/context.ts";
import { isGjcError } from "../core/errors.ts";
import type { GjcHookSurface, GjcMcpSurface, GjcToolSurface } from "../families/gjc/compile.ts";
import { manifestCheck, type ConformanceCheck, type ConformanceReport } from "../authoring/conformance-types.ts";

/**
 * Conformance of a GJC bundle from its source folder: the compiler's verdict, then every tool
 * and hook module loaded in an isolated child with the constrained API (exactly the declared
 * tool name or hook event), then an MCP handshake with each stdio server under the launch
 * policy. Nothing is loaded into this process.
 */
export async function testGjcBundle(
  ctx: Context,
  dir: string,
  opts: { timeoutMs?: number } = {},
): Promise<ConformanceReport> {
  const { compileGjcBundle } = await import("../families/gjc/compile.ts");
  const compiled = compileGjcBundle(dir);
  const checks: ConformanceCheck[] = [];
  checks.push(manifestCheck(compiled.diagnostics, dir, "gajae-plugin.json and every declared file"));
  const report = (): ConformanceReport => ({
    family: "gjc",
    dir,
    name: compiled.partial.name,
    version: compiled.partial.version,
    ok: checks.every((c) => c.ok),
    checks,
  });
  const bundle = compiled.bundle;
  if (!bundle) return report();

  const modules = bundle.surfaces.filter(
    (s): s is GjcToolSurface | GjcHookSurface => s.kind === "tool" || s.kind === "hook",
  );
  if (modules.length > 0) {
    const { checkRuntimeSurfaces } = await import("../gjcsession/runtime-check.ts");
    const started = performance.now();
    const results = await checkRuntimeSurfaces(
      ctx,
      modules.map((s) => ({
        scope: "user" as const,
        bundle: bundle.name,
        pluginRoot: dir,
        surfaceId: s.id,
        kind: s.kind,
        path: s.path,
        module: join(dir, s.path),
        name: s.name,
        ...(s.kind === "hook" ? { event: s.event } : {}),
      })),
      opts.timeoutMs !== undefined ? { timeoutMs: opts.timeoutMs } : {},
    );
    const each = Math.round(((performance.now() - started) / results.length) * 10) / 10;
    for (const r of results) {
      checks.push(
        r.ok
          ? {
              rule: `load ${r.target.surfaceId}`,
              ok: true,
              latencyMs: each,
              message:
                r.target.kind === "tool"
                  ? `The factory returned exactly the tool "${r.target.name}".`
                  : `The hook registered exactly "${r.target.event}".`,
            }
          : {
              rule: `load ${r.target.surfaceId}`,
              ok: false,
              code: r.code,
              message: r.message ?? "The module did not load as declared.",
              hint: loadHint(r.code),
            },
      );
    }
  }

  const stdio = bundle.surfaces.filter((s): s is GjcMcpSurface => s.kind === "mcp" && s.transport === "stdio");
  if (stdio.length > 0) {
    const { probeStdioServer } = await import("../mcp/stdio.ts");
    const { serverSandbox } = await import("../mcp/server-sandbox.ts");
    const { clientIdentity } = await import("../mcp/client-identity.ts");
    for (const server of stdio) {
      const started = performance.now();
      try {
        const probe = await probeStdioServer({
          root: dir,
          launch: {
            command: server.command ?? "",
            args: server.args ?? [],
            ...(server.cwd ? { cwd: server.cwd } : {}),
          },
          label: `MCP server "${server.name}"`,
          hostEnv: ctx.env,
          scratchParent: scratchParent(ctx),
          sandbox: await serverSandbox(ctx, compiled.partial.name ?? dir, server.name, [dir], []),
          client: clientIdentity(ctx.env),
          ...(opts.timeoutMs !== undefined ? { timeoutMs: opts.timeoutMs } : {}),
        });
        const latencyMs = Math.round((performance.now() - started) * 10) / 10;
        checks.push({
          rule: `mcp ${server.name}`,
          ok: true,
          latencyMs,
          message: `initialize and tools/list answered (${probe.tools.length} tool(s): ${probe.tools.map((t) => t.name).join(", ") || "none"}).`,
        });
      } catch (e) {
        checks.push({
          rule: `mcp ${server.name}`,
          ok: false,
          code: isGjcError(e) ? e.code : "mcp_failed",
          message: (e as Error).message,
          hint: isGjcError(e) ? e.hint : undefined,
        });
      }
    }
  }
  for (const s of bundle.surfaces) {
    if (s.kind === "mcp" && (s as GjcMcpSurface).transport !== "stdio") {
      checks.push({
        rule: `mcp ${(s as GjcMcpSurface).name}`,
        ok: true,
        skipped: true,
        message:
          "Remote (http/sse) servers are not contacted by plugin test; use gjc plugin mcp probe after installing.",
      });
    }
  }
  return report();
}

function loadHint(code: string | undefined): string {
  if (code === "security_policy")
    return "Bundle modules may only register their declared tool or hook; registerCommand, sendMessage, appendEntry, renderers and exec are denied.";
  if (code === "invalid_hook")
    return "A hook module must default-export a function that registers its handler with on(event, handler).";
  return "Make the default-export factory return exactly one tool with the declared name (or register exactly the declared hook event).";
}
