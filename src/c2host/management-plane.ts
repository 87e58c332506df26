import type { Context } from "../core/context.ts";
import { GjcError, isGjcError } from "../core/errors.ts";
import { RpcMethodError } from "../core/jsonrpc-peer.ts";
import { PlanePeer } from "./plane-peer.ts";
import { invokeConnector } from "./connectors.ts";
import { LineSplitter, FrameTooLargeError } from "../core/line-splitter.ts";
import { listLanguageServers } from "./lsp.ts";
import type { LiveLanguageServers } from "./lsp-live.ts";
import type { RuntimeHost } from "./runtime-host.ts";
import { watchStore, type StoreWatch } from "./store-watch.ts";
import { invokeHostAction, invokeUi, renderHostActions, uiTarget } from "./ui-actions.ts";
import { ExitCode } from "../core/exit-codes.ts";
import type { ApplyResult, ResetResult } from "../c2store/policy-plane.ts";
import { wireApply, wireCatalog, wirePlan, wireReset } from "./wire-names.ts";

export interface ManagementPlaneOptions {
  ctx: Context;
  host: RuntimeHost;
  input: ReadableStream<Uint8Array>;
  /** One JSON-RPC message (without newline) to the client. */
  write(line: string): void;
  /** Aborting (SIGTERM) ends the plane like stdin EOF does. */
  signal?: AbortSignal;
  /** Language servers the plane keeps running (`lsp.start`); policy stops them live. */
  lsp?: LiveLanguageServers;
  /**
   * Watch the store: a change by any gjc process (policy apply, disable, untrust, uninstall,
   * upgrade) reconciles runtimes and language servers at once and emits `plugins.changed`.
   */
  watch?: {
    root: string;
    revision(): { key: string; configRevision: number; graphRevision: string };
    /** Another writer holds the store's lock (mid-commit): nothing is reconciled against it until it is done. */
    busy(): boolean;
  };
  /**
   * The use cases behind plugins.apply_change and plugins.reset, the same as `gjc plugin policy
   * apply|reset` (src/app/policy.ts): they finish a half-done set change before the policy
   * changes, which is above this layer. Loaded at the first call.
   */
  policyCommands(): Promise<PolicyCommands>;
}

export interface PolicyCommands {
  applyPolicy(ctx: Context, token: string): Promise<ApplyResult>;
  resetPolicyOf(ctx: Context, plugin: string, opts?: { project?: string }): Promise<ResetResult>;
}

type Params = Record<string, unknown>;
type Method = (p: Params) => Promise<unknown>;

const isObject = (v: unknown): v is Params => typeof v === "object" && v !== null && !Array.isArray(v);

function invalid(message: string): GjcError {
  return new GjcError({ code: "invalid_params", message, exit: ExitCode.usage });
}

function str(p: Params, key: string, optional = false): string | undefined {
  const v = p[key];
  if (v === undefined && optional) return undefined;
  if (typeof v !== "string" || v === "") throw invalid(`\`${key}\` must be a non-empty string`);
  return v;
}

function scopeProject(p: Params): string | undefined {
  if (typeof p.project_path === "string") return p.project_path;
  const scope = p.scope;
  if (scope === undefined || scope === null) return undefined;
  if (!isObject(scope) || (scope.kind !== "user" && scope.kind !== "project"))
    throw invalid('`scope` must be {"kind":"user"} or {"kind":"project","project_path":…}');
  if (scope.kind === "user") return undefined;
  if (typeof scope.project_path !== "string" || scope.project_path === "")
    throw invalid("a project scope needs `project_path`");
  return scope.project_path;
}

function timeout(p: Params): number | undefined {
  const t = p.timeout_ms;
  if (t === undefined) return undefined;
  if (typeof t !== "number" || !Number.isInteger(t) || t < 1) throw invalid("`timeout_ms` must be a positive integer");
  return t;
}

/**
 * The catalog read from the store knows policy, trust and services; only this host knows its
 * processes. Each entry gets the phase of its runtime in the catalog's realm (c2-notes §6.9), and
 * a runtime whose process failed is `failed` with the reason `process_failed` and its error,
 * never reported as enabled.
 */
function withLiveProcesses(host: RuntimeHost, catalog: ReturnType<typeof wireCatalog>) {
  const scope = catalog.scope;
  return {
    ...catalog,
    plugins: catalog.plugins.map((e) => {
      const realm =
        scope.kind === "project" && e.metadata.scope_support.includes("project") ? scope.project_path : undefined;
      const phase = e.has_runtime ? host.processOf(e.installed_id, realm) : null;
      const failed = phase?.phase === "failed" && e.effective_state.status === "enabled";
      return {
        ...e,
        process: phase,
        error: failed ? (phase.error ?? null) : null,
        effective_state: failed ? { status: "failed" as const, reason: "process_failed" as const } : e.effective_state,
      };
    }),
  };
}

/**
 * `gjc host --stdio`: the long-running management plane (DESIGN 6a) as newline-delimited
 * JSON-RPC 2.0 on stdin/stdout, spoken by the shared peer in its strict mode (plane-peer.ts:
 * batches answered in one array, notifications never answered, a `jsonrpc` other than "2.0"
 * refused). Requests are served concurrently; runtime processes, realms and the rendered
 * host.actions cache live as long as the plane; idle project realms are reaped in the
 * background; stdin EOF or the abort signal stops every child before this resolves.
 */
export async function serveManagementPlane(o: ManagementPlaneOptions): Promise<{ served: number }> {
  const { ctx, host } = o;
  const leases = new Map<string, () => void>();
  let nextLease = 1;
  const policy = () => import("../c2store/policy-plane.ts");
  const policyCommands = o.policyCommands;
  const send = (m: unknown) => {
    try {
      o.write(JSON.stringify(m));
    } catch {
      // the client went away; shutdown follows from EOF
    }
  };

  const methods: Record<string, Method> = {
    "plugins.catalog": async (p) => {
      const project = scopeProject(p);
      return {
        ...withLiveProcesses(host, wireCatalog((await policy()).policyCatalog(ctx, { project }))),
        processes: host.processes(),
      };
    },
    "plugins.plan_change": async (p) => {
      // Left out, the state stays what it is at that scope (c2-notes 7.4: `state?`).
      const state = p.state;
      if (state !== undefined && state !== "inherit" && state !== "enabled" && state !== "disabled")
        throw invalid("`state` must be inherit, enabled or disabled");
      const plan = await (await policy()).planPolicyChange(ctx, {
        plugin: str(p, "plugin")!,
        ...(state !== undefined ? { state } : {}),
        ...(p.component !== undefined ? { component: str(p, "component")! } : {}),
        ...("config" in p ? { config: p.config } : {}),
        ...(scopeProject(p) !== undefined ? { project: scopeProject(p) } : {}),
      });
      return wirePlan(plan);
    },
    "plugins.apply_change": async (p) => wireApply(await (await policyCommands()).applyPolicy(ctx, str(p, "id")!)),
    "plugins.reset": async (p) =>
      wireReset(await (await policyCommands()).resetPolicyOf(ctx, str(p, "plugin")!, { project: scopeProject(p) })),
    "plugins.invoke": async (p) =>
      host.invoke(str(p, "command")!, p.args ?? null, { project: scopeProject(p), timeoutMs: timeout(p) }),
    "plugins.invoke_ui": async (p) => {
      const plugin = str(p, "plugin_id")!;
      const contribution = str(p, "contribution_id")!;
      const project = scopeProject(p);
      const { ui } = uiTarget(host, plugin, contribution, project);
      const context = isObject(p.context) ? p.context : {};
      if (ui.slot === "host.actions") {
        if (context.operation === "render")
          return renderHostActions(host, plugin, contribution, { project, timeoutMs: timeout(p) });
        if (context.operation === "invoke") {
          if (typeof context.item !== "string")
            throw invalid("a host.actions invoke needs `context.item`, the id of a rendered item");
          return invokeHostAction(host, plugin, contribution, context.item, { project, timeoutMs: timeout(p) });
        }
        throw invalid("a host.actions contribution needs `context.operation` render or invoke");
      }
      return invokeUi(host, plugin, contribution, { context, project, timeoutMs: timeout(p) });
    },
    "plugins.invoke_connector": async (p) =>
      invokeConnector(host, str(p, "plugin_id")!, str(p, "contribution_id")!, str(p, "operation")!, p.input ?? null, {
        project: scopeProject(p),
        timeoutMs: timeout(p),
      }),
    "extensions.list": async () => host.extensionsList(),
    "plugins.list": async () => ({ plugins: host.listPlugins() }),
    // The command inventory: every declared runtime command with its metadata, owner and whether
    // its runtime can run in the user realm now; and the host commands runtimes may call.
    "commands.list": async () => ({
      commands: host
        .listPlugins()
        .flatMap((p) =>
          p.commands.map((c) => ({ ...c, plugin_id: p.id, plugin_name: p.name, status: p.runtime_status })),
        ),
      host_commands: host.visibleCommands(),
    }),
    "plugins.processes": async () => ({ processes: host.processes() }),
    "plugins.reload": async (p) => {
      const bundle = host.findBundle(str(p, "plugin")!);
      // Nothing to reload is an explicit answer, not an empty success.
      if (!bundle.manifest.codetwo.runtime && bundle.manifest.codetwo.languageServers.length === 0) {
        throw new GjcError({
          code: "no_runtime",
          message: `${bundle.name} has no runtime or language server, so there is nothing to reload.`,
          hint: "Its skills, agents and MCP servers are read from disk by each session.",
          exit: ExitCode.failed,
        });
      }
      return { stopped: await host.unloadBundle(bundle.id) };
    },
    "events.publish": async (p) => ({ delivered: host.publish(str(p, "name")!, p.payload ?? null) }),
    "realms.lease": async (p) => {
      const id = `lease-${nextLease++}`;
      leases.set(id, host.lease(str(p, "project_path")!));
      return { lease: id };
    },
    "realms.release": async (p) => {
      const id = str(p, "lease")!;
      const release = leases.get(id);
      if (!release) throw invalid(`no lease ${id}`);
      leases.delete(id);
      release();
      return { released: id };
    },
    "realms.reap": async () => ({ reaped: await host.reapIdle() }),
    "lsp.start": async (p) => {
      const lsp = needLsp();
      const project = scopeProject(p);
      let ref = typeof p.server === "string" ? p.server : undefined;
      if (ref === undefined) {
        const language = str(p, "language")!.toLowerCase();
        const route = listLanguageServers(host, project).languages.find((l) => l.language === language);
        if (!route)
          throw new GjcError({
            code: "no_provider",
            message: `No eligible language server provides ${language}.`,
            hint: 'Run "gjc plugin lsp list" to see the servers and why each is (not) eligible.',
            exit: ExitCode.failed,
          });
        if (!route.provider) {
          throw new GjcError({
            code: "lsp_conflict",
            message: `${language} has several providers (${route.providers.map((x) => `${x.pluginName}/${x.server}`).join(", ")}); it fails closed.`,
            hint: "Disable all but one by policy.",
            exit: ExitCode.refused,
          });
        }
        ref = `${route.provider.plugin}/${route.provider.server}`;
      }
      return lsp.start(ref, project);
    },
    "lsp.request": async (p) => ({
      result: await needLsp().request(str(p, "id")!, str(p, "method")!, p.params ?? null),
    }),
    "lsp.stop": async (p) => {
      await needLsp().stop(str(p, "id")!);
      return { stopped: p.id };
    },
    "lsp.list": async () => ({ servers: needLsp().list() }),
  };
  function needLsp(): LiveLanguageServers {
    if (!o.lsp)
      throw new GjcError({
        code: "unsupported_operation",
        message: "This plane keeps no language servers.",
        exit: ExitCode.failed,
      });
    return o.lsp;
  }
  const reconcileAll = async () => {
    if (o.watch?.busy()) return;
    await host.reconcile();
    await o.lsp?.reconcile();
  };
  let watcher: StoreWatch | undefined;
  if (o.watch) {
    const w = o.watch;
    watcher = watchStore(
      w.root,
      () => w.revision().key,
      async () => {
        await reconcileAll();
        const r = w.revision();
        // Everything stopped since the last notice, also what a change applied here stopped while it settled.
        const stopped = { runtimes: host.takeStopped(), language_servers: o.lsp?.takeStopped() ?? [] };
        // A replaced bundle's live language servers run again on its new files (same ids).
        const restarted = { language_servers: o.lsp?.takeRestarted() ?? [] };
        send({
          jsonrpc: "2.0",
          method: "plugins.changed",
          params: { config_revision: r.configRevision, graph_revision: r.graphRevision, stopped, restarted },
        });
      },
      (e) => ctx.log.warn(`store watch: ${(e as Error).message}`),
      w.busy,
    );
  }

  let served = 0;
  // Errors keep their gjc code, hint and details as JSON-RPC `data`; bad params are -32602.
  const rpcError = (e: unknown) => {
    const err = isGjcError(e)
      ? e
      : new GjcError({
          code: "internal_error",
          message: e instanceof Error ? e.message : String(e),
          exit: ExitCode.internal,
        });
    return new RpcMethodError(err.code === "invalid_params" ? -32602 : -32000, err.message, {
      code: err.code,
      ...(err.hint ? { hint: err.hint } : {}),
      ...(err.details !== undefined ? { details: err.details } : {}),
    });
  };
  const run = async (name: string, raw: unknown) => {
    served++;
    await reconcileAll();
    const params = raw === undefined || raw === null ? {} : raw;
    if (!isObject(params)) throw invalid("`params` must be an object");
    const result = await methods[name](params);
    return result === undefined ? null : result;
  };
  const known = (name: string) => Object.hasOwn(methods, name);
  // Notifications run like requests and are never answered, not even with an error.
  const notifications = new Set<Promise<unknown>>();
  const peer = new PlanePeer(
    (line) => {
      try {
        o.write(line);
      } catch {
        // the client went away; shutdown follows from EOF
      }
    },
    {
      onRequest: async (name, params) => {
        if (!known(name))
          throw new RpcMethodError(-32601, `the gjc host has no method \`${name}\``, { methods: Object.keys(methods) });
        try {
          return await run(name, params);
        } catch (e) {
          throw rpcError(e);
        }
      },
      onNotification: (name, params) => {
        if (!known(name)) return;
        const p: Promise<unknown> = run(name, params)
          .catch(() => {})
          .finally(() => notifications.delete(p));
        notifications.add(p);
      },
      onProtocolProblem: () => {},
    },
  );
  const handle = (raw: string) => {
    let msg: unknown;
    try {
      msg = JSON.parse(raw);
    } catch {
      send({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "parse error: the line is not JSON" } });
      return;
    }
    if (Array.isArray(msg)) peer.receiveBatch(msg);
    else peer.receive(msg);
  };
  const settled = async () => {
    await peer.answered();
    while (notifications.size > 0) await Promise.allSettled([...notifications]);
  };

  host.startReaper();
  const reader = o.input.getReader();
  const onAbort = () => void reader.cancel().catch(() => {});
  o.signal?.addEventListener("abort", onAbort, { once: true });
  const splitter = new LineSplitter();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      let lines: string[];
      try {
        lines = splitter.push(value);
      } catch (e) {
        if (!(e instanceof FrameTooLargeError)) throw e;
        send({
          jsonrpc: "2.0",
          id: null,
          error: { code: -32600, message: "a request line exceeds the 1 MiB limit; the host stops" },
        });
        break;
      }
      for (const line of lines) {
        if (line.trim() === "") continue;
        handle(line);
      }
    }
  } catch {
    // a cancelled or broken stdin ends the plane
  } finally {
    o.signal?.removeEventListener("abort", onAbort);
    // EOF: the client sent its last request; answer what is in flight, then stop. A signal
    // stops the children first, so in-flight calls fail fast instead of being waited for.
    if (!o.signal?.aborted) await settled();
    watcher?.close();
    for (const release of leases.values()) release();
    await o.lsp?.shutdown();
    await host.shutdown();
    await settled();
  }
  return { served };
}
