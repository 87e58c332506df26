import type { Code } from "../core/codes.ts";
import type { Context } from "../core/context.ts";
import { scratchParent } from "../sources/scratch.ts";
import { GjcError, usageError } from "../core/errors.ts";
import { ExitCode } from "../core/exit-codes.ts";
import type { Scope } from "../install/registry-types.ts";
import { notInstalled } from "../install/not-installed.ts";
import { loadSession, type SessionBundle, type BundleStatus } from "../gjcsession/load.ts";
import { isMcp, type StoredMcp } from "../gjcsession/surfaces.ts";
import { checkStdioLauncher } from "../policy/launcher.ts";
import { classifyMcpUrl } from "../policy/url.ts";
import { probeHttpServer } from "../mcp/http.ts";
import type { Handshake, McpTool } from "../mcp/protocol.ts";
import { probeStdioServer } from "../mcp/stdio.ts";
import { clientIdentity } from "../mcp/client-identity.ts";
import { serverSandbox } from "../mcp/server-sandbox.ts";

/** A declared server as `mcp list` shows it: where it comes from, its state, its policy verdict. */
export interface DeclaredServer {
  scope: Scope;
  bundle: string;
  server: string;
  surfaceId: string;
  transport: "stdio" | "http" | "sse";
  /** stdio: `command args…`; http/sse: the URL's origin (paths and queries may hold tokens). */
  target: string;
  /** The bundle's and the surface's state in the session (disabled, quarantined, active). */
  status: BundleStatus;
  reasons: { code: Code; message: string }[];
  /** DESIGN items 10-11 judged now (stdio against the installed root; URLs up to stage c). */
  /** Whether gjc's security policy admits it; when not, the code probe refuses it with and why. */
  policy: { ok: true } | { ok: false; code: "security_policy"; message: string };
}

export interface ProbeReport
  extends Pick<Handshake, "serverInfo" | "protocolVersion" | "capabilities" | "instructions"> {
  scope: Scope;
  bundle: string;
  server: string;
  transport: "stdio" | "http" | "sse";
  tools: McpTool[];
  /** stdio only: what the server wrote on stderr (bounded). */
  stderr?: string;
}

function describeTarget(s: StoredMcp): string {
  if (s.transport === "stdio") return [s.command ?? "", ...(s.args ?? [])].join(" ");
  try {
    return new URL(s.url ?? "").origin;
  } catch {
    return "(invalid url)";
  }
}

function judge(root: string, s: StoredMcp): DeclaredServer["policy"] {
  if (s.transport === "stdio") {
    const v = checkStdioLauncher({ command: s.command ?? "", args: s.args ?? [], cwd: s.cwd ?? undefined }, root);
    return v.ok ? { ok: true } : { ok: false, code: "security_policy", message: v.reason };
  }
  const v = classifyMcpUrl(s.url ?? "");
  return v.ok ? { ok: true } : { ok: false, code: "security_policy", message: `${v.stage}: ${v.reason}` };
}

function serversOf(b: SessionBundle): DeclaredServer[] {
  const out: DeclaredServer[] = [];
  for (const { surface, status, reasons } of b.surfaces) {
    if (!isMcp(surface)) continue;
    const s = surface as StoredMcp;
    const effective: BundleStatus = b.status !== "active" ? b.status : status;
    out.push({
      scope: b.entry.scope,
      bundle: b.entry.name,
      server: s.name,
      surfaceId: s.extensionId,
      transport: s.transport,
      target: describeTarget(s),
      status: effective,
      reasons: [...b.reasons, ...reasons].map((r) => ({ code: r.code, message: r.message })),
      policy: judge(b.entry.pluginRoot, s),
    });
  }
  return out;
}

/**
 * Every MCP server declared by an installed GJC bundle, both scopes, with its session state
 * and policy verdict. Read-only: the files are verified as at session start, but nothing
 * found here is persisted (that is `verify`'s and session start's job).
 */
export async function listDeclaredServers(
  ctx: Context,
): Promise<{ servers: DeclaredServer[]; scopes: { scope: Scope; ok: boolean; problem?: string }[] }> {
  const state = await loadSession(ctx, { projectDir: ctx.cwd, persist: false });
  return {
    servers: state.bundles.flatMap(serversOf),
    scopes: state.scopes.map((s) => ({ scope: s.scope, ok: s.ok, ...(s.problem ? { problem: s.problem } : {}) })),
  };
}

function refused(code: Code, message: string, hint: string): GjcError {
  return new GjcError({ code, message, hint, exit: ExitCode.refused });
}

/**
 * `gjc plugin mcp probe <bundle>/<server>`: only a server of an enabled, verified,
 * unquarantined bundle is started or connected, under the full policy, then closed.
 */
export async function probeInstalledServer(
  ctx: Context,
  spec: string,
  options: { scope?: Scope; timeoutMs?: number } = {},
): Promise<ProbeReport> {
  const slash = spec.indexOf("/");
  if (slash <= 0 || slash === spec.length - 1 || spec.indexOf("/", slash + 1) !== -1)
    throw usageError(
      `"${spec}" is not <bundle>/<server>.`,
      "Name the bundle and one of its MCP servers, e.g. gjc plugin mcp probe docs-bundle/docs (gjc plugin mcp list shows them).",
      "invalid_argument",
    );
  const bundleName = spec.slice(0, slash);
  const serverName = spec.slice(slash + 1);

  const state = await loadSession(ctx, { projectDir: ctx.cwd, persist: false });
  const broken = state.scopes.find((s) => !s.ok && (options.scope === undefined || s.scope === options.scope));
  const candidates = state.bundles.filter(
    (b) => b.entry.name === bundleName && (options.scope === undefined || b.entry.scope === options.scope),
  );
  if (candidates.length === 0) {
    if (broken)
      throw refused(
        "registry_corrupt",
        `The ${broken.scope} scope cannot be read: ${broken.problem ?? "damaged registry"}`,
        "Run gjc plugin doctor to restore the last good registry.",
      );
    throw notInstalled(bundleName, options.scope);
  }
  // Both scopes may hold the name; the session keeps the earlier (user) one active.
  const b = candidates.find((c) => c.status === "active") ?? candidates[0];
  const where = `${bundleName} (${b.entry.scope})`;
  if (b.status === "disabled")
    throw refused(
      "disabled",
      `${where} is disabled, so its MCP servers are not started.`,
      `Enable it first: gjc plugin enable ${bundleName} --${b.entry.scope}`,
    );
  if (b.status === "excluded") {
    throw refused(
      "session_collision",
      `${where} is left out of sessions: it collides with ${b.collision?.with.join(", ") ?? "an active bundle"}${b.reasons[0] ? ` (${b.reasons[0].message})` : ""}`,
      `Disable or uninstall one of the two bundles (gjc plugin disable ${bundleName} --${b.entry.scope}).`,
    );
  }
  if (b.status === "quarantined") {
    const r = b.reasons[0];
    throw refused(
      r?.code ?? "quarantined",
      `${where} is quarantined${r ? `: ${r.message}` : ""}`,
      "Run gjc plugin verify to see why, and reinstall the bundle to clear it.",
    );
  }
  const entry = b.surfaces.find((s) => isMcp(s.surface) && (s.surface as StoredMcp).name === serverName);
  if (!entry) {
    const names = b.surfaces.filter((s) => isMcp(s.surface)).map((s) => (s.surface as StoredMcp).name);
    throw new GjcError({
      code: "unknown_server",
      message: `${where} declares no MCP server named "${serverName}".`,
      hint: names.length ? `It declares: ${names.join(", ")}.` : "It declares no MCP server at all.",
      exit: ExitCode.failed,
    });
  }
  if (entry.status === "disabled")
    throw refused(
      "disabled",
      `${where}: MCP server "${serverName}" is disabled.`,
      `Enable it: gjc plugin enable ${bundleName} --${b.entry.scope} --surface ${entry.surface.extensionId}`,
    );
  if (entry.status === "quarantined") {
    const r = entry.reasons[0];
    throw refused(
      r?.code ?? "quarantined",
      `${where}: MCP server "${serverName}" is quarantined${r ? `: ${r.message}` : ""}`,
      "Run gjc plugin verify to see why, and reinstall the bundle to clear it.",
    );
  }

  const s = entry.surface as StoredMcp;
  const label = `MCP server "${serverName}" of ${bundleName}`;
  const base = { scope: b.entry.scope, bundle: bundleName, server: serverName, transport: s.transport };
  if (s.transport === "stdio") {
    const r = await probeStdioServer({
      root: b.entry.pluginRoot,
      launch: { command: s.command ?? "", args: s.args ?? [], ...(s.cwd ? { cwd: s.cwd } : {}) },
      timeoutMs: options.timeoutMs,
      label,
      hostEnv: ctx.env,
      scratchParent: scratchParent(ctx),
      sandbox: await serverSandbox(ctx, bundleName, serverName, [b.entry.pluginRoot], []),
      client: clientIdentity(ctx.env),
    });
    return { ...base, ...r };
  }
  const r = await probeHttpServer({
    url: s.url ?? "",
    transport: s.transport,
    timeoutMs: options.timeoutMs,
    label,
    client: clientIdentity(ctx.env),
  });
  return { ...base, ...r };
}
