import type { Code } from "../core/codes.ts";
import { GjcError } from "../core/errors.ts";
import { TIMED_OUT, within } from "../core/timeout.ts";
import { buildChildEnv } from "../process/env.ts";
import { launch } from "../process/launch.ts";
import { reportDenials } from "../process/sandbox/denials.ts";

/** How much of a line of a language server's stderr is kept while looking for refused connections. */
const LSP_STDERR_TAIL = 64 * 1024;
import { ExitCode } from "../core/exit-codes.ts";
import { availabilityOf, type Availability, type AvailabilityReason } from "./availability.ts";
import type { HostedBundle } from "./bundle-directory.ts";
import { HOST_NAME, HOST_VERSION } from "./host-identity.ts";
import { isPeerError } from "../core/jsonrpc-peer.ts";
import { LspFrameReader } from "./lsp-framing.ts";
import { LspPeer } from "./lsp-peer.ts";
import { routeLanguages, type LspRoute } from "./lsp-routing.ts";
import { runtimeError } from "./runtime-errors.ts";
import { lspLaunchPlan, type LspLaunchPlan } from "../families/c2/lsp-launch.ts";
import { processRefusal } from "./process-refusal.ts";
import type { RuntimeHost } from "./runtime-host.ts";

export interface LspServerEntry {
  plugin: string;
  pluginName: string;
  server: string;
  languages: string[];
  command: string;
  /** ready, or why the server is not eligible (untrusted, disabled, quarantined, …). */
  status: Availability;
  /** Why it is not ready: the refusal's error code and message (empty when ready). */
  reasons: AvailabilityReason[];
}

export const lspComponentId = (bundleId: string, serverId: string) => `bundle:${bundleId}:lsp:${serverId}`;

/**
 * Eligibility of every declared language server: the refusals every C2 process gets
 * (processRefusal: quarantine, trust, enablement), then the bundle's policy.
 */
function eligibility(
  host: RuntimeHost,
  bundle: HostedBundle,
  project?: string,
): { status: Code | "ready"; reason: string | null; hint?: string; components: Record<string, string> } {
  const refusal = processRefusal(bundle, "its language servers");
  if (refusal) return { status: refusal.code, reason: refusal.message, hint: refusal.hint, components: {} };
  const policy = (host as RuntimeHost).policyFor(bundle, project);
  if (policy.stateSource === "safe-mode")
    return {
      status: "policy_safe_mode",
      reason: "plugin policy is in safe mode",
      hint: 'Run "gjc plugin policy reset <plugin>" to leave safe mode.',
      components: {},
    };
  // Disabling the bundle by policy (not only its lsp: component) makes its servers ineligible.
  if (policy.state === "disabled") {
    return {
      status: "policy_disabled",
      reason: `disabled by ${policy.stateSource} policy`,
      hint: `Run "gjc plugin policy plan ${bundle.name} --state enabled" to enable it.`,
      components: {},
    };
  }
  return { status: "ready", reason: null, components: policy.components };
}

/**
 * `gjc plugin lsp list`: every server, and the language routing with conflicts failed closed
 * (`conflicts`: the languages that no server gets because several could provide them).
 */
export function listLanguageServers(
  host: RuntimeHost,
  project?: string,
): { servers: LspServerEntry[]; languages: LspRoute[]; conflicts: string[] } {
  const servers: LspServerEntry[] = [];
  const eligible: { bundle: HostedBundle; serverIds: string[] }[] = [];
  for (const bundle of host.bundles()) {
    if (bundle.manifest.codetwo.languageServers.length === 0) continue;
    const e = eligibility(host, bundle, project);
    const ids: string[] = [];
    for (const s of bundle.manifest.codetwo.languageServers) {
      const disabled = e.status === "ready" && e.components[lspComponentId(bundle.id, s.id)] === "disabled";
      const refusal = disabled
        ? { code: "component_disabled", message: "disabled by policy" }
        : e.status === "ready"
          ? undefined
          : { code: e.status, message: e.reason ?? e.status };
      if (!refusal) ids.push(s.id);
      const row = {
        plugin: bundle.id,
        pluginName: bundle.name,
        server: s.id,
        languages: s.languages,
        command: s.command,
      };
      servers.push(
        refusal
          ? { ...row, status: availabilityOf(refusal.code), reasons: [refusal] }
          : { ...row, status: "ready", reasons: [] },
      );
    }
    if (ids.length > 0) eligible.push({ bundle, serverIds: ids });
  }
  const languages = routeLanguages(eligible);
  return { servers, languages, conflicts: languages.filter((l) => l.provider === null).map((l) => l.language) };
}

export type { LspLaunchPlan };

export interface LspProbeResult {
  plugin: string;
  server: string;
  languages: string[];
  command: string;
  cwd: string;
  serverInfo: unknown;
  capabilities: unknown;
  pid: number;
  /** The exact launch: args and env as declared, the variables gjc sets (see lspLaunchPlan). */
  launch: LspLaunchPlan;
}

export interface LspStartOptions {
  project?: string;
  cwd: string;
  env: Record<string, string | undefined>;
  timeoutMs?: number;
  passEnv?: readonly string[];
}

/** A running language server: LSP requests over Content-Length framing, then stop(). */
export interface LanguageServerHandle {
  plugin: string;
  pluginName: string;
  server: string;
  languages: string[];
  command: string;
  cwd: string;
  pid: number;
  launch: LspLaunchPlan;
  /** The `initialize` result. */
  initialize: { serverInfo: unknown; capabilities: unknown };
  request(method: string, params: unknown, timeoutMs?: number): Promise<unknown>;
  notify(method: string, params: unknown): void;
  /** Resolves when the process is gone (stopped or exited). */
  readonly exited: Promise<unknown>;
  /** `shutdown` + `exit`, then the process group is ended and reaped. Idempotent. */
  stop(): Promise<void>;
}

/**
 * Resolves `<plugin>/<server>` and refuses what may not run: an unknown server, a bundle that
 * is untrusted, disabled (as a whole or by policy), quarantined, a component disabled by
 * policy, or a language in conflict (two eligible providers: the seed fails it closed).
 */
export function eligibleServer(host: RuntimeHost, ref: string, project?: string) {
  const slash = ref.lastIndexOf("/");
  if (slash <= 0 || slash === ref.length - 1) {
    throw new GjcError({
      code: "usage",
      message: `"${ref}" is not <plugin>/<server>.`,
      hint: "Run gjc plugin lsp list to see the servers.",
      exit: ExitCode.usage,
    });
  }
  const bundle = host.findBundle(ref.slice(0, slash));
  const serverId = ref.slice(slash + 1);
  const server = bundle.manifest.codetwo.languageServers.find((s) => s.id === serverId);
  if (!server) {
    const ids = bundle.manifest.codetwo.languageServers.map((s) => s.id);
    throw runtimeError(
      "unknown_contribution",
      `${bundle.name} has no language server ${serverId}.`,
      ids.length > 0 ? `Its language servers: ${ids.join(", ")}.` : `${bundle.name} declares no language servers.`,
    );
  }
  const e = eligibility(host, bundle, project);
  if (e.status !== "ready") {
    throw runtimeError(
      e.status,
      `The language server ${serverId} of ${bundle.name} is not eligible: ${e.reason ?? e.status}`,
      e.hint ?? "Fix the plugin state first.",
      undefined,
      ExitCode.refused,
    );
  }
  if (e.components[lspComponentId(bundle.id, server.id)] === "disabled") {
    throw runtimeError(
      "component_disabled",
      `The language server ${lspComponentId(bundle.id, server.id)} is disabled by policy.`,
      "Enable the component in plugin policy first.",
      undefined,
      ExitCode.refused,
    );
  }
  const conflicts = listLanguageServers(host, project).languages.filter(
    (l) => l.provider === null && l.providers.some((p) => p.plugin === bundle.id && p.server === server.id),
  );
  if (conflicts.length > 0) {
    const others = conflicts.flatMap((l) =>
      l.providers
        .filter((p) => !(p.plugin === bundle.id && p.server === server.id))
        .map((p) => `${p.pluginName}/${p.server}`),
    );
    throw runtimeError(
      "lsp_conflict",
      `The language server ${bundle.name}/${server.id} is in conflict for ${conflicts.map((l) => l.language).join(", ")} (also provided by ${[...new Set(others)].join(", ")}); a language with several providers fails closed.`,
      "Disable all but one provider by policy (its bundle or its lsp component).",
      { languages: conflicts.map((l) => l.language), providers: [...new Set(others)] },
      ExitCode.refused,
    );
  }
  return { bundle, server };
}

/** Starts one eligible language server and completes `initialize` / `initialized`. */
export async function startLanguageServer(
  host: RuntimeHost,
  ref: string,
  opts: LspStartOptions,
): Promise<LanguageServerHandle> {
  const { bundle, server } = eligibleServer(host, ref, opts.project);
  await host.checkFiles(bundle);
  const serverId = server.id;
  const cwd = opts.project !== undefined ? host.normalizeProject(opts.project) : opts.cwd;
  const plan = lspLaunchPlan(bundle, server, cwd, opts.env);
  const { env } = buildChildEnv(opts.env, {
    declared: plan.env,
    passEnv: opts.passEnv ?? bundle.passEnv,
    fixed: plan.exported,
  });
  const subject = { bundle: bundle.name, process: { kind: "lsp" as const, id: serverId } };
  const profile = await host.sandboxProfile(subject, { read: [bundle.bundleDir], write: [bundle.dataDir], net: [] });
  const child = launch({
    argv: [plan.command, ...plan.args],
    cwd,
    env,
    stderr: "pipe",
    sandbox: { subject, profile, hostEnv: opts.env },
  });
  const { proc } = child;
  // stderr is read only for connections the sandbox refused (they name the grant that would allow them).
  const stderrDone = (async () => {
    const decoder = new TextDecoder();
    let tail = "";
    try {
      for await (const chunk of proc.stderr) {
        tail = (tail + decoder.decode(chunk, { stream: true })).slice(-LSP_STDERR_TAIL);
        const lastLine = tail.lastIndexOf("\n");
        if (lastLine >= 0) {
          reportDenials(subject, tail.slice(0, lastLine));
          tail = tail.slice(lastLine + 1);
        }
      }
    } catch {
      // closed under us at kill time
    }
    reportDenials(subject, tail);
  })();
  const peer = new LspPeer((frame) => {
    proc.stdin.write(frame);
    proc.stdin.flush();
  });
  const reader = new LspFrameReader();
  const pump = (async () => {
    const r = proc.stdout.getReader();
    let reason = "the language server exited";
    try {
      for (;;) {
        const { done, value } = await r.read();
        if (done) break;
        for (const m of reader.push(value)) peer.receive(m);
      }
    } catch (err) {
      reason = err instanceof Error ? err.message : String(err);
    }
    peer.end(reason);
  })();
  /**
   * One request, bounded by `ms`. Running out of time abandons the request (it is cancelled on
   * our side) but keeps the connection: a slow answer to one request does not end the server.
   */
  const call = async (
    method: string,
    params: unknown,
    ms: number,
  ): Promise<{ result: unknown } | { error: string } | undefined> => {
    const signal = AbortSignal.timeout(ms);
    try {
      return { result: await peer.request(method, params, { signal }) };
    } catch (e) {
      if (signal.aborted) return undefined;
      return { error: isPeerError(e) ? e.message : String(e) };
    }
  };
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      await call("shutdown", null, 2000);
      peer.notify("exit", null);
      try {
        proc.stdin.end();
      } catch {
        // closed already
      }
      // `exit` asks the server to leave on its own; after half a second the whole tree is ended.
      await within(child.exited, 500);
      await child.stop();
      await pump;
      await within(stderrDone, 1000);
    })());
  try {
    const timeout = opts.timeoutMs ?? 10_000;
    const init = await call(
      "initialize",
      {
        processId: process.pid,
        clientInfo: { name: HOST_NAME, version: HOST_VERSION },
        rootUri: `file://${cwd}`,
        workspaceFolders: [{ uri: `file://${cwd}`, name: cwd.split("/").pop() || cwd }],
        capabilities: {},
      },
      timeout,
    );
    if (init === undefined)
      throw runtimeError(
        "lsp_timeout",
        `The language server ${serverId} did not answer initialize within ${timeout / 1000} s.`,
        "Check the server command and its arguments.",
      );
    if ("error" in init)
      throw runtimeError(
        "lsp_failed",
        `The language server ${serverId} refused initialize: ${init.error}.`,
        "Check the server command and its arguments.",
      );
    peer.notify("initialized", {});
    const answer = (init.result ?? {}) as { serverInfo?: unknown; capabilities?: unknown };
    return {
      plugin: bundle.id,
      pluginName: bundle.name,
      server: server.id,
      languages: server.languages,
      command: server.command,
      cwd,
      pid: proc.pid,
      launch: plan,
      initialize: { serverInfo: answer.serverInfo ?? null, capabilities: answer.capabilities ?? null },
      async request(method, params, ms = timeout) {
        if (stopping)
          throw runtimeError("lsp_stopped", `The language server ${serverId} was stopped.`, "Start it again.");
        const m = await call(method, params, ms);
        if (m === undefined)
          throw runtimeError(
            "lsp_timeout",
            `The language server ${serverId} did not answer ${method} within ${ms / 1000} s.`,
            "Check the server.",
          );
        if ("error" in m)
          throw runtimeError(
            "lsp_failed",
            `The language server ${serverId} failed ${method}: ${m.error}.`,
            "Check the server.",
          );
        return m.result ?? null;
      },
      notify(method, params) {
        peer.notify(method, params);
      },
      exited: child.exited,
      stop,
    };
  } catch (e) {
    await stop();
    throw e;
  }
}

/**
 * Starts one language server, performs the LSP `initialize` / `initialized` / `shutdown` /
 * `exit` sequence over Content-Length framing, and stops it (process group killed and reaped)
 * whatever happens.
 */
export async function probeLanguageServer(
  host: RuntimeHost,
  ref: string,
  opts: LspStartOptions,
): Promise<LspProbeResult> {
  const h = await startLanguageServer(host, ref, opts);
  try {
    return {
      plugin: h.plugin,
      server: h.server,
      languages: h.languages,
      command: h.command,
      cwd: h.cwd,
      serverInfo: h.initialize.serverInfo,
      capabilities: h.initialize.capabilities,
      pid: h.pid,
      launch: h.launch,
    };
  } finally {
    await h.stop();
  }
}
