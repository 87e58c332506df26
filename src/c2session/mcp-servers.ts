/**
 * C2 `mcp.json` servers (Agent Plugins 1.0.0) for `gjc plugin mcp list|probe` and the C2
 * session document. Discovery lives here, apart from src/mcp (which owns the transports):
 * this file reads the verified installed mcp.json, expands `${PLUGIN_ROOT}`/`${PLUGIN_DATA}`
 * as the Agent Plugins rules say, and gates each server by enablement, verification and, for
 * stdio (executable bundle content), trust.
 *
 * What gjc can start: a stdio server whose command is `node`/`bun` with a bundled script, or a
 * bundled `./executable` (the one stdio launcher policy, DESIGN item 10). A stdio server the
 * Agent Plugins rules allow but that launcher does not (a bare `python3`) is listed with
 * `probe: {ok:false, code: "security_policy", message}` and refused explicitly by probe, never started under weaker rules.
 * http servers are judged by the Agent Plugins rules at every hop (https, or http to a
 * loopback address), through src/mcp's transports with this family's URL judge.
 */
import { trustChangeSummary } from "../families/capability-diff.ts";
import type { Code } from "../core/codes.ts";
import { join } from "node:path";
import { scratchParent } from "../sources/scratch.ts";
import { isDeniedEnvName } from "../process/env.ts";
import { C2_LIMITS } from "../bundle/limits.ts";
import { readRegularFile } from "../bundle/read-file.ts";
import { sha256Hex } from "../bundle/hash.ts";
import type { Context } from "../core/context.ts";
import { DiagnosticSink } from "../core/diagnostics.ts";
import { GjcError, usageError } from "../core/errors.ts";
import { ExitCode } from "../core/exit-codes.ts";
import { slugHash } from "../families/c2/ids.ts";
import { checkMcpConfig, MCP_FILE, remoteUrlProblem } from "../families/c2/mcp.ts";
import { checkStdioLauncher, type StdioLaunch } from "../policy/launcher.ts";
import { selfArgv } from "../process/sandbox/self.ts";
import { isIP } from "node:net";
import { systemResolver } from "../policy/dns.ts";
import type { UrlVerdict } from "../policy/url.ts";
import type { AddressCheck } from "../mcp/pinned-fetch.ts";
import { verifiedC2Bundles, type C2BundleStatus, type VerifiedC2Bundle } from "./verified-bundles.ts";

export interface C2McpEntry {
  family: "c2";
  /** Persisted id `<plugin-id>:mcp:<slug-hash of the server name>`. */
  id: string;
  plugin: string;
  bundle: string;
  server: string;
  transport: "stdio" | "streamable-http" | "sse";
  /** stdio: command and args as expanded; http/sse: the URL's origin (paths may hold tokens). */
  target: string;
  /** active only when the bundle is enabled, verified and (stdio) trusted. */
  status: C2BundleStatus | "untrusted";
  reasons: { code: Code; message: string }[];
  /** Whether gjc's own launcher / URL policy lets it start or connect to this server. */
  probe: { ok: true } | { ok: false; code: "security_policy"; message: string };
  /** Expanded launch (stdio): absolute command when bundled, args, env (with PLUGIN_ROOT/PLUGIN_DATA), cwd. */
  launch?: { command: string; args: string[]; env: Record<string, string>; cwd: string };
  url?: string;
  headers?: Record<string, string>;
  /** The verified mcp.json the server comes from. */
  file: { path: string; sha256: string };
}

type RawServer = Record<string, unknown>;

/**
 * Agent Plugins MCP URL rules (DESIGN item 11, last paragraph) as the per-hop judge: https, or
 * http to localhost / a loopback address; no credentials, fragment or `${`.
 */
export function c2UrlVerdict(raw: string): UrlVerdict {
  const problem = remoteUrlProblem(raw);
  if (problem) return { ok: false, stage: "scheme", reason: `the URL ${problem}` };
  const url = new URL(raw);
  return { ok: true, url, host: url.hostname.replace(/^\[|\]$/g, "") };
}

/** Where a C2 http server may be reached: what the name resolves to (the rules restrict only the scheme). */
const c2AddressCheck: AddressCheck = async (host) => {
  if (isIP(host) !== 0) return { ok: true, addresses: [host] };
  if (host === "localhost") return { ok: true, addresses: ["127.0.0.1"] };
  try {
    const addresses = await systemResolver(host);
    return addresses.length > 0
      ? { ok: true, addresses }
      : { ok: false, reason: `${host} has no address`, unresolved: true };
  } catch (e) {
    return { ok: false, reason: `${host} could not be resolved (${(e as Error).message})`, unresolved: true };
  }
};

const expand = (v: string, root: string, data: string) =>
  v.replaceAll("${PLUGIN_ROOT}", root).replaceAll("${PLUGIN_DATA}", data);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);
const stringMap = (v: unknown): Record<string, string> => {
  const out: Record<string, string> = {};
  if (typeof v === "object" && v !== null)
    for (const [k, x] of Object.entries(v)) if (typeof x === "string") out[k] = x;
  return out;
};

/** The verified mcp.json of a bundle, or undefined when it ships none. Drift was checked already. */
function readMcp(v: VerifiedC2Bundle): { raw: Record<string, RawServer>; sha256: string } | undefined {
  const recorded = v.files.get(MCP_FILE);
  if (!recorded) return undefined;
  const bytes = readRegularFile(join(v.bundle.bundleDir, MCP_FILE), C2_LIMITS.maxFileBytes).bytes;
  const sha256 = sha256Hex(bytes);
  if (sha256 !== recorded.sha256) return undefined; // raced a change: quarantine follows at the next verify
  const doc = JSON.parse(new TextDecoder().decode(bytes)) as { mcpServers?: Record<string, RawServer> };
  const sink = new DiagnosticSink();
  const valid = new Set(checkMcpConfig(doc, sink, v.bundle.bundleDir).map((s) => s.name));
  const raw: Record<string, RawServer> = {};
  for (const [name, server] of Object.entries(doc.mcpServers ?? {})) if (valid.has(name)) raw[name] = server;
  return { raw, sha256 };
}

/**
 * The launch gjc's stdio launcher would run: `./x` and `${PLUGIN_ROOT}/x` become the
 * bundle-relative `x` it requires; anything else is left for the launcher to judge.
 */
function launcherForm(s: RawServer): StdioLaunch {
  const rel = (v: string) =>
    v.startsWith("./") ? v.slice(2) : v.startsWith("${PLUGIN_ROOT}/") ? v.slice("${PLUGIN_ROOT}/".length) : v;
  const command = typeof s.command === "string" ? s.command : "";
  const args = strings(s.args);
  const interpreted = command === "node" || command === "bun";
  const cwd = typeof s.cwd === "string" ? (s.cwd === "${PLUGIN_ROOT}" || s.cwd === "./" ? "." : rel(s.cwd)) : undefined;
  return {
    command,
    args: interpreted && args.length > 0 ? [rel(args[0]), ...args.slice(1)] : args,
    ...(cwd !== undefined ? { cwd } : {}),
  };
}

function entriesOf(v: VerifiedC2Bundle): C2McpEntry[] {
  const mcp = v.status === "quarantined" ? undefined : readMcp(v);
  if (!mcp) return [];
  const { bundle } = v;
  const out: C2McpEntry[] = [];
  for (const [name, s] of Object.entries(mcp.raw)) {
    const transport = s.type as C2McpEntry["transport"];
    const base = {
      family: "c2" as const,
      id: `${bundle.id}:mcp:${slugHash(name)}`,
      plugin: bundle.id,
      bundle: bundle.name,
      server: name,
      transport,
      file: { path: MCP_FILE, sha256: mcp.sha256 },
    };
    let status: C2McpEntry["status"] = v.status;
    const reasons = [...v.reasons];
    if (transport === "stdio") {
      const command = String(s.command);
      const launch = {
        command: command.startsWith("./") ? join(bundle.bundleDir, command.slice(2)) : command,
        args: strings(s.args).map((a) => expand(a, bundle.bundleDir, bundle.dataDir)),
        // What gjc would not pass to a child of its own (a loader switch, a credential name) is
        // not handed to the host either.
        env: {
          ...Object.fromEntries(
            Object.entries(stringMap(s.env))
              .filter(([k]) => !isDeniedEnvName(k))
              .map(([k, x]) => [k, expand(x, bundle.bundleDir, bundle.dataDir)]),
          ),
          PLUGIN_ROOT: bundle.bundleDir,
          PLUGIN_DATA: bundle.dataDir,
        },
        cwd:
          typeof s.cwd === "string"
            ? expand(
                s.cwd.startsWith("./") ? `\${PLUGIN_ROOT}/${s.cwd.slice(2)}` : s.cwd,
                bundle.bundleDir,
                bundle.dataDir,
              )
            : bundle.bundleDir,
      };
      if (status === "active" && !bundle.trusted) {
        // A stdio server is executable bundle content: trust-gated like every C2 process.
        status = "untrusted";
        reasons.push({
          code: "untrusted",
          message: `${bundle.name} is not trusted, so its stdio MCP server does not start.`,
        });
      } else if (status === "active" && bundle.trustState === "needs-retrust") {
        // Trusted before an upgrade that changed its capabilities (src/families/c2/trust.ts).
        status = "untrusted";
        reasons.push({
          code: "trust_outdated",
          message: `${bundle.name} was trusted, but an upgrade changed what it can run or reach (${trustChangeSummary(bundle.record)}), so its stdio MCP server does not start until it is trusted again.`,
        });
      }
      const verdict = checkStdioLauncher(launcherForm(s), bundle.bundleDir);
      // A host that starts what the document says gets the sandbox: the server starts through gjc.
      const [gjc, ...self] = selfArgv();
      const sandboxed = {
        ...launch,
        command: gjc as string,
        args: [
          ...self,
          "sandbox",
          "exec",
          "--bundle",
          bundle.name,
          "--server",
          name,
          "--",
          launch.command,
          ...launch.args,
        ],
      };
      out.push({
        ...base,
        target: [launch.command, ...launch.args].join(" "),
        status,
        reasons,
        probe: verdict.ok ? { ok: true } : { ok: false, code: "security_policy", message: verdict.reason },
        launch: sandboxed,
      });
    } else {
      const url = String(s.url);
      const verdict = c2UrlVerdict(url);
      let origin = "(invalid url)";
      try {
        origin = new URL(url).origin;
      } catch {}
      out.push({
        ...base,
        target: origin,
        status,
        reasons,
        probe: verdict.ok
          ? { ok: true }
          : { ok: false, code: "security_policy", message: `${verdict.stage}: ${verdict.reason}` },
        url,
        ...(s.headers ? { headers: stringMap(s.headers) } : {}),
      });
    }
  }
  return out;
}

/** Every C2 mcp.json server with its state and whether gjc can start it. Read-only. */
export async function listC2McpServers(ctx: Context, opts: { persist?: boolean } = {}): Promise<C2McpEntry[]> {
  return (await verifiedC2Bundles(ctx, { persist: opts.persist ?? false })).flatMap(entriesOf);
}

/** Whether `<bundle>` names an installed C2 bundle (so mcp probe takes the C2 path). */
export async function isC2Bundle(ctx: Context, name: string): Promise<boolean> {
  const { findInstalledC2 } = await import("../c2store/records.ts");
  try {
    return findInstalledC2(ctx, name) !== undefined;
  } catch {
    return true; // ambiguous C2 name: the C2 path reports it
  }
}

const refused = (code: Code, message: string, hint: string) =>
  new GjcError({ code, message, hint, exit: ExitCode.refused });

/**
 * `gjc plugin mcp probe <c2-bundle>/<server>`: initialize + tools/list through src/mcp's own
 * transports, only for an active (enabled, verified, trusted for stdio) server that gjc's
 * launcher and URL policy accept.
 */
export async function probeC2Server(ctx: Context, spec: string, options: { timeoutMs?: number } = {}) {
  const slash = spec.indexOf("/");
  if (slash <= 0 || slash === spec.length - 1)
    throw usageError(`"${spec}" is not <bundle>/<server>.`, "gjc plugin mcp list shows them.", "invalid_argument");
  const bundleName = spec.slice(0, slash);
  const serverName = spec.slice(slash + 1);
  const verified = await verifiedC2Bundles(ctx, { persist: true });
  const v = verified.find((b) => b.bundle.name === bundleName || b.bundle.id === bundleName);
  if (!v)
    throw new GjcError({
      code: "not_installed",
      message: `No C2 bundle named ${bundleName} is installed.`,
      hint: 'Run "gjc plugin mcp list".',
    });
  if (v.status !== "active")
    throw refused(
      v.status === "disabled" ? "plugin_disabled" : "quarantined",
      v.reasons[0].message,
      v.status === "disabled"
        ? `Enable it: gjc plugin enable ${v.bundle.name}`
        : `Run "gjc plugin verify ${v.bundle.name}" and reinstall it.`,
    );
  const entries = entriesOf(v);
  const entry = entries.find((e) => e.server === serverName);
  if (!entry) {
    throw new GjcError({
      code: "unknown_server",
      message: `${v.bundle.name} declares no MCP server named "${serverName}".`,
      hint: entries.length ? `It declares: ${entries.map((e) => e.server).join(", ")}.` : "It ships no mcp.json.",
      exit: ExitCode.failed,
    });
  }
  if (entry.status === "untrusted")
    throw refused(
      entry.reasons.at(-1)!.code,
      entry.reasons.at(-1)!.message,
      `Review it${entry.reasons.at(-1)!.code === "trust_outdated" ? ` (gjc plugin audit ${v.bundle.name})` : ""}, then run "gjc plugin trust ${v.bundle.name}".`,
    );
  if (!entry.probe.ok) {
    throw refused(
      "security_policy",
      `${v.bundle.name}/${serverName} is valid under Agent Plugins, but gjc does not start it: ${entry.probe.message}.`,
      "gjc starts stdio servers as node/bun with a bundled script or a bundled ./executable.",
    );
  }
  const label = `MCP server "${serverName}" of ${v.bundle.name}`;
  const base = {
    family: "c2" as const,
    id: entry.id,
    bundle: v.bundle.name,
    server: serverName,
    transport: entry.transport,
  };
  if (entry.transport === "stdio") {
    const { probeStdioServer } = await import("../mcp/stdio.ts");
    const { clientIdentity } = await import("../mcp/client-identity.ts");
    const raw = readMcp(v)!.raw[serverName];
    const { serverSandbox } = await import("../mcp/server-sandbox.ts");
    const sandbox = await serverSandbox(ctx, v.bundle.name, serverName, [v.bundle.bundleDir], [v.bundle.dataDir]);
    const r = await probeStdioServer({
      root: v.bundle.bundleDir,
      launch: launcherForm(raw),
      timeoutMs: options.timeoutMs,
      label,
      hostEnv: ctx.env,
      scratchParent: scratchParent(ctx),
      extraEnv: entry.launch!.env,
      sandbox,
      client: clientIdentity(ctx.env),
    });
    return { ...base, ...r };
  }
  const { probeHttpServer } = await import("../mcp/http.ts");
  const { clientIdentity } = await import("../mcp/client-identity.ts");
  // Declared headers are not sent (src/mcp's transports carry none); a server that needs one
  // answers 401/403, which probe reports as such.
  const r = await probeHttpServer({
    url: entry.url!,
    transport: entry.transport === "sse" ? "sse" : "http",
    timeoutMs: options.timeoutMs,
    label,
    judgeUrl: c2UrlVerdict,
    addressCheck: c2AddressCheck,
    client: clientIdentity(ctx.env),
  });
  return { ...base, ...r };
}
