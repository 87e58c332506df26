import type { Code } from "../core/codes.ts";
import { dirname, join } from "node:path";
import type { Scope } from "../install/registry-types.ts";
import { buildAdvertisement, type SubskillInfo } from "./advertisement.ts";
import { renderAppendices, type AppendixInput } from "./appendices.ts";
import type { SessionDiagnostic } from "./diagnostics.ts";
import { EMPTY_CONFIG_DEVICE, isolatingBunFlags } from "../process/bun-flags.ts";
import { CHILD_ENV_ALLOW_LIST } from "../process/env.ts";
import type { BundleStatus, QuarantineReason, SessionBundle, SessionState } from "./load.ts";
import { AGENTS, WORKFLOW_SKILLS } from "./phases.ts";
import { subskillToolsOf, isAppendix, isHook, isMcp, isSubskill, isTool, type StoredMcp } from "./surfaces.ts";

interface Owner {
  scope: Scope;
  bundle: string;
  surfaceId: string;
}

export interface ToolModule extends Owner {
  name: string;
  description: string | null;
  /** Absolute path under the installed content directory. */
  module: string;
}

export interface HookModule extends Owner {
  name: string;
  event: string;
  phase: "before" | "after" | null;
  target: string | null;
  module: string;
}

export type McpServerConfig = Owner & {
  name: string;
  /**
   * The digest the server's pin holds over its tools, instructions, prompts and resources
   * (src/mcp/pins.ts), so a host can check what it receives; null when the server is not pinned.
   */
  pinDigest: string | null;
} & (
    | {
        transport: "stdio";
        /** `node`, `bun`, or the absolute path of the bundled executable. */
        command: string;
        args: string[];
        /** Absolute working directory inside the installed root. */
        cwd: string;
        /** The child gets only these host variables. */
        envAllowList: readonly string[];
        /** bun children also get --config=<an empty file> so a shipped bunfig.toml cannot act. */
        bunFlags: string[];
      }
    | {
        transport: "http" | "sse";
        url: string;
        /**
         * The addresses the host name resolved to at session start, every one checked against
         * the policy (DESIGN 11d): the host connects to one of these (TLS still verified against
         * the name), so a later DNS answer cannot send it to a denied address.
         */
        addresses: string[];
      }
  );

export interface PlanSurface {
  id: string;
  kind: string;
  status: BundleStatus;
  reasons: QuarantineReason[];
}

export interface PlanBundle {
  scope: Scope;
  name: string;
  version: string;
  status: BundleStatus;
  quarantined: boolean;
  root: string;
  reasons: QuarantineReason[];
  /** When excluded by a session collision: the active bundles it collides with and the surfaces. */
  collision?: { with: string[]; surfaceIds: string[] };
  surfaces: PlanSurface[];
}

export interface SessionPlan {
  projectDir: string;
  scopes: { scope: Scope; root: string; ok: boolean; problem?: string; readOnly?: boolean }[];
  bundles: PlanBundle[];
  systemAppendix: string;
  agentAppendices: Record<string, string>;
  appendixDigest: string;
  advertisements: { skills: Record<string, string>; agents: Record<string, string> };
  subskills: SubskillInfo[];
  tools: ToolModule[];
  hooks: HookModule[];
  mcpServers: McpServerConfig[];
  diagnostics: SessionDiagnostic[];
}

const decoder = new TextDecoder();

function quarantineSurface(
  b: SessionBundle,
  surfaceId: string,
  code: Code,
  message: string,
  diagnostics: SessionDiagnostic[],
): void {
  const s = b.surfaces.find((x) => x.surface.extensionId === surfaceId);
  if (!s) return;
  s.status = "quarantined";
  s.reasons.push({ surfaceId, code, message, persisted: false });
  diagnostics.push({ scope: b.entry.scope, bundle: b.entry.name, surfaceId, code, severity: "error", message });
}

/**
 * Re-checks a declared MCP server against the policy as it stands now and the installed root
 * (DESIGN items 10-11; the DNS stage runs when a server is actually connected). A server that
 * no longer passes is quarantined for this session with `security_policy`.
 */
type Policy = typeof import("../policy/launcher.ts") &
  Pick<typeof import("../process/sandbox/self.ts"), "selfArgv"> &
  typeof import("../policy/url.ts") &
  Pick<typeof import("../mcp/pins.ts"), "pinExclusion" | "pinDigestOf"> &
  Pick<typeof import("../mcp/pins-binding.ts"), "gjcServerBinding">;

function mcpConfig(
  policy: Policy,
  b: SessionBundle,
  s: StoredMcp,
  diagnostics: SessionDiagnostic[],
  projectDir: string,
): McpServerConfig | undefined {
  const { checkStdioLauncher, classifyMcpUrl } = policy;
  const root = b.entry.pluginRoot;
  const ident = { family: "gjc" as const, scope: b.entry.scope, bundle: b.entry.name, server: s.name };
  const binding = policy.gjcServerBinding(b.entry, s);
  const owner = {
    scope: b.entry.scope,
    bundle: b.entry.name,
    surfaceId: s.extensionId,
    name: s.name,
    pinDigest: policy.pinDigestOf(dirname(b.entry.pluginRoot), ident, binding),
  };
  // Tool definitions that drifted from their pins keep this one server out (src/mcp/pins.ts).
  const excluded = policy.pinExclusion(dirname(b.entry.pluginRoot), ident, binding);
  if (excluded) {
    quarantineSurface(b, s.extensionId, excluded.code, excluded.message, diagnostics);
    return undefined;
  }
  if (s.transport === "stdio") {
    const verdict = checkStdioLauncher({ command: s.command ?? "", args: s.args ?? [], cwd: s.cwd ?? undefined }, root);
    if (!verdict.ok) {
      quarantineSurface(
        b,
        s.extensionId,
        "security_policy",
        `MCP server "${s.name}" no longer passes the launcher policy: ${verdict.reason}`,
        diagnostics,
      );
      return undefined;
    }
    const command =
      verdict.kind === "bundled" && verdict.executable ? join(root, verdict.executable) : (s.command as string);
    const bunFlags = verdict.kind === "bun" ? isolatingBunFlags(EMPTY_CONFIG_DEVICE) : [];
    // A host that starts what the plan says gets the sandbox: the server starts through gjc.
    const [gjc, ...self] = policy.selfArgv();
    const scope = b.entry.scope === "project" ? ["--project", projectDir] : [];
    return {
      ...owner,
      transport: "stdio",
      command: gjc as string,
      args: [
        ...self,
        "sandbox",
        "exec",
        "--bundle",
        b.entry.name,
        "--server",
        s.name,
        ...scope,
        "--",
        command,
        ...bunFlags,
        ...(s.args ?? []),
      ],
      cwd: verdict.cwd ? join(root, verdict.cwd) : root,
      envAllowList: CHILD_ENV_ALLOW_LIST,
      // Already in args, after the command they belong to.
      bunFlags: [],
    };
  }
  const verdict = classifyMcpUrl(s.url ?? "");
  if (!verdict.ok) {
    quarantineSurface(
      b,
      s.extensionId,
      "security_policy",
      `MCP server "${s.name}" URL is refused by the policy: ${verdict.reason}`,
      diagnostics,
    );
    return undefined;
  }
  return { ...owner, transport: s.transport, url: s.url as string, addresses: [] };
}

/**
 * Stage (d) at session start (issue #12, class 10): the host name of each remote server is
 * resolved now, and a server whose name resolves to a denied address, or cannot be resolved
 * (so cannot be checked), is left out of the plan with a diagnostic instead of being handed to
 * the host; the others carry the checked addresses to pin. All names resolve in parallel.
 */
async function pinRemoteServers(
  servers: McpServerConfig[],
  bundles: SessionBundle[],
  resolver: import("../policy/dns.ts").Resolver | undefined,
  diagnostics: SessionDiagnostic[],
): Promise<McpServerConfig[]> {
  if (!servers.some((c) => c.transport !== "stdio")) return servers;
  const [{ resolveAndCheck, systemResolver }, { classifyMcpUrl }] = await Promise.all([
    import("../policy/dns.ts"),
    import("../policy/url.ts"),
  ]);
  const verdicts = await Promise.all(
    servers.map((c) => {
      if (c.transport === "stdio") return undefined;
      const url = classifyMcpUrl(c.url);
      return url.ok
        ? resolveAndCheck(url.host, resolver ?? systemResolver)
        : Promise.resolve({ ok: false as const, reason: url.reason });
    }),
  );
  const kept: McpServerConfig[] = [];
  for (let i = 0; i < servers.length; i++) {
    const c = servers[i];
    const v = verdicts[i];
    if (c.transport === "stdio" || v === undefined) {
      kept.push(c);
      continue;
    }
    if (v.ok) {
      kept.push({ ...c, addresses: v.addresses });
      continue;
    }
    const bundle = bundles.find((b) => b.entry.scope === c.scope && b.entry.name === c.bundle);
    const why =
      "unresolved" in v && v.unresolved
        ? `its host could not be resolved, so it cannot be checked (${v.reason})`
        : v.reason;
    if (bundle)
      quarantineSurface(
        bundle,
        c.surfaceId,
        "security_policy",
        `MCP server "${c.name}" is left out of this session: ${why}`,
        diagnostics,
      );
  }
  return kept;
}

/** The second half of session start: what the host loads, renders and connects. */
export async function buildPlan(
  state: SessionState,
  options: { resolver?: import("../policy/dns.ts").Resolver } = {},
): Promise<SessionPlan> {
  // The policy modules are loaded only when some active bundle declares an MCP server.
  const hasMcp = state.bundles.some(
    (b) => b.status === "active" && b.surfaces.some((s) => s.status === "active" && isMcp(s.surface)),
  );
  const policy: Policy | undefined = hasMcp
    ? {
        ...(await import("../policy/launcher.ts")),
        ...(await import("../policy/url.ts")),
        ...(await import("../mcp/pins.ts")),
        ...(await import("../mcp/pins-binding.ts")),
        ...(await import("../process/sandbox/self.ts")),
      }
    : undefined;
  const diagnostics = [...state.diagnostics];
  const appendices: AppendixInput[] = [];
  const subskills: SubskillInfo[] = [];
  const tools: ToolModule[] = [];
  const hooks: HookModule[] = [];
  const mcpServers: McpServerConfig[] = [];

  for (const b of state.bundles) {
    if (b.status !== "active") continue;
    const { entry } = b;
    const system: AppendixInput[] = [];
    const agent: AppendixInput[] = [];
    // Module paths are joined by hand: the root is absolute and normalized (the registry checks
    // it), the path a validated relative POSIX path, so this equals path.join for them.
    for (const { surface: s, status } of b.surfaces) {
      if (status !== "active") continue;
      if (isAppendix(s)) {
        const body = s.content ?? (s.path ? b.texts.get(s.path) : undefined);
        if (body === undefined) continue;
        const input: AppendixInput = {
          extensionId: s.extensionId,
          scope: entry.scope,
          plugin: entry.name,
          name: s.name,
          contentHash: s.sha256,
          body: typeof body === "string" ? body : decoder.decode(body),
        };
        if (s.kind === "agent-appendix") agent.push({ ...input, agent: s.agent ?? "" });
        else system.push(input);
      } else if (isSubskill(s)) {
        subskills.push({
          extensionId: s.extensionId,
          scope: entry.scope,
          plugin: entry.name,
          name: s.name,
          parent: s.parent,
          phase: s.phase,
          activationArg: s.activation_arg,
          description: s.description,
          tools: subskillToolsOf(entry, s),
        });
      } else if (isTool(s)) {
        tools.push({
          scope: entry.scope,
          bundle: entry.name,
          surfaceId: s.extensionId,
          name: s.name,
          description: s.description ?? null,
          module: `${entry.pluginRoot}/${s.path}`,
        });
      } else if (isHook(s)) {
        hooks.push({
          scope: entry.scope,
          bundle: entry.name,
          surfaceId: s.extensionId,
          name: s.name,
          event: s.event,
          phase: s.phase ?? null,
          target: s.target ?? null,
          module: `${entry.pluginRoot}/${s.path}`,
        });
      } else if (isMcp(s)) {
        const config = mcpConfig(policy as Policy, b, s, diagnostics, state.projectDir);
        if (config) mcpServers.push(config);
      }
    }
    // gjc-notes §6.6: per bundle, its system appendices, then its agent appendices.
    appendices.push(...system, ...agent);
  }

  const pinnedServers = await pinRemoteServers(mcpServers, state.bundles, options.resolver, diagnostics);
  const rendered = renderAppendices(appendices);
  diagnostics.push(...rendered.diagnostics);
  const advertisements = { skills: {} as Record<string, string>, agents: {} as Record<string, string> };
  for (const skill of WORKFLOW_SKILLS) {
    const ad = buildAdvertisement(subskills, skill, "skill");
    advertisements.skills[skill] = ad.text;
    diagnostics.push(...ad.diagnostics);
  }
  for (const agentName of AGENTS) {
    const ad = buildAdvertisement(subskills, agentName, "agent");
    advertisements.agents[agentName] = ad.text;
    diagnostics.push(...ad.diagnostics);
  }
  const agentAppendices: Record<string, string> = {};
  for (const a of AGENTS) agentAppendices[a] = rendered.byAgent[a] ?? "";

  return {
    projectDir: state.projectDir,
    scopes: state.scopes,
    bundles: state.bundles.map((b) => ({
      scope: b.entry.scope,
      name: b.entry.name,
      version: b.entry.version,
      status: b.status,
      quarantined: b.status === "quarantined" || (b.entry.quarantine ?? []).length > 0,
      root: b.entry.pluginRoot,
      reasons: b.reasons,
      ...(b.collision ? { collision: b.collision } : {}),
      surfaces: b.surfaces.map((s) => ({
        id: s.surface.extensionId,
        kind: s.surface.kind,
        status: b.status === "active" ? s.status : b.status,
        reasons: s.reasons,
      })),
    })),
    systemAppendix: rendered.system,
    agentAppendices,
    appendixDigest: rendered.digest,
    advertisements,
    subskills,
    tools,
    hooks,
    mcpServers: pinnedServers,
    diagnostics,
  };
}
