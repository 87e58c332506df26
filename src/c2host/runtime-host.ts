import type { Code } from "../core/codes.ts";
import { join } from "node:path";
import { GjcError } from "../core/errors.ts";
import { ExitCode } from "../core/exit-codes.ts";
import { closest } from "../core/suggest.ts";
import { commandSurface } from "../families/c2/command-surface.ts";
import type { BundleDirectory, HostedBundle, RealmPolicy } from "./bundle-directory.ts";
import { publicHostCommands, type HostCommand } from "./host-commands.ts";
import { HOST_NAME, missingServices } from "./host-identity.ts";
import { PROJECT_IDLE_MS } from "./limits.ts";
import type { SandboxProfile, SandboxSubject } from "../process/sandbox/profile.ts";
import type { PeerLimits } from "./protocol-peer.ts";
import { processRefusal } from "./process-refusal.ts";
import { runtimeError } from "./runtime-errors.ts";
import { wireCommands } from "./wire-names.ts";
import {
  RuntimeInstance,
  type InvokeOptions,
  type RuntimePhase,
  type SandboxProfileSource,
} from "./runtime-instance.ts";

export interface RuntimeHostOptions {
  directory: BundleDirectory;
  env: Record<string, string | undefined>;
  /** Runtime logs (stderr lines, `log` notifications, dropped-line warnings). */
  log?(plugin: string, level: string, message: string): void;
  /** Plugin `event/emit` on the host bus (after redelivery to subscribed runtimes). */
  onEvent?(pluginId: string, name: string, payload: unknown): void;
  /** `connector/event`, attributed to the emitting bundle's installed id. */
  onConnectorEvent?(pluginId: string, event: unknown): void;
  handshakeTimeoutMs?: number;
  termGraceMs?: number;
  /** How long a project realm may sit idle before it is reaped (default 5 minutes). */
  projectIdleMs?: number;
  limits?: Partial<PeerLimits>;
  /** Extra host commands (tests); the public ones are always present. */
  extraHostCommands?: Record<string, HostCommand>;
  clock?: () => number;
  /** An instance was created or dropped (the live-process registry follows it). */
  onInstancesChanged?(): void;
  /** Base profile plus grants for each process (profileFor); without it, the base alone. */
  sandboxProfile?: SandboxProfileSource;
}

export interface RealmTarget {
  bundle: HostedBundle;
  /** Normalized project path when the runtime runs in a project realm. */
  projectPath?: string;
  policy: RealmPolicy;
}

export interface InvokeResult {
  plugin: { id: string; name: string; version: string };
  realm: { kind: "user" } | { kind: "project"; projectPath: string };
  command: string;
  result: unknown;
  pid: number | undefined;
}

export interface PluginListRow {
  id: string;
  name: string;
  version: string;
  enabled: boolean;
  trusted: boolean;
  has_runtime: boolean;
  /** none (data-only) | ready | pending (missing services) | failed (its process failed) | untrusted | disabled | quarantined */
  runtime_status: "none" | "ready" | "pending" | "failed" | "untrusted" | "disabled" | "quarantined";
  /** Services named by `runtime.inject` that this host does not provide. */
  missing: string[];
  /** Why the user-realm runtime failed (`failed` only), else null. */
  error: RuntimeFailure | null;
  /** The declared runtime commands with their host-readable metadata (wire names). */
  commands: ReturnType<typeof wireCommands>;
}

/** A failed runtime process, as every plane document reports it. */
export interface RuntimeFailure {
  code: string;
  message: string;
}

export interface ProcessView {
  plugin: string;
  realm: string;
  phase: RuntimePhase;
  pid: number | null;
  starts: number;
  error: string | null;
  /** connector/event notifications dropped: not from a declared connector, or without the envelope. */
  dropped_connector_events: number;
}

const refused = (code: Code, message: string, hint: string, details?: unknown) =>
  runtimeError(code, message, hint, details, ExitCode.refused);

/**
 * The runtime side of the host: resolves a command to its owning bundle and realm, applies
 * trust, enablement, policy and service checks before anything is spawned, and keeps one
 * RuntimeInstance per (bundle, realm). The one-shot CLI verbs and `gjc host --stdio` both use
 * it; the latter keeps it alive between calls.
 */
export class RuntimeHost {
  private readonly instances = new Map<
    string,
    { instance: RuntimeInstance; fingerprint: string; revision: string | null; policy: string }
  >();
  private readonly leases = new Map<string, number>();
  private readonly unloading = new Set<Promise<void>>();
  private readonly unannounced: string[] = [];
  /** Last validated `host.actions` render per plugin, contribution and realm (invoke uses it). */
  readonly actionCache = new Map<string, import("./host-actions.ts").HostActionItem[]>();
  private readonly hostCommands: Map<string, HostCommand>;
  private readonly clock: () => number;
  private reaper: ReturnType<typeof setInterval> | undefined;
  private closed = false;

  constructor(private readonly o: RuntimeHostOptions) {
    this.clock = o.clock ?? Date.now;
    this.hostCommands = publicHostCommands({
      env: o.env,
      listPlugins: async () => this.listPlugins(),
    });
    for (const [k, v] of Object.entries(o.extraHostCommands ?? {})) this.hostCommands.set(k, v);
  }

  /** Host commands a runtime sees in `initialize.host.commands` (the same in every realm today). */
  visibleCommands(): string[] {
    return [...this.hostCommands.keys()];
  }

  /** Finds the one active bundle that declares `commandId` and the realm it runs in for `project`. */
  resolveCommand(commandId: string, project?: string): RealmTarget {
    const all = this.o.directory.list();
    const owners = all.filter(
      (b) => b.manifest.codetwo.runtime !== null && b.manifest.codetwo.commands.some((c) => c.id === commandId),
    );
    if (owners.length === 0) {
      const known = all.flatMap((b) => b.manifest.codetwo.commands.map((c) => c.id));
      const near = closest(commandId, known);
      throw runtimeError(
        "unknown_command",
        `No installed C2 plugin declares the command ${commandId}.${near ? ` Did you mean "${near}"?` : ""}`,
        known.length > 0
          ? `Installed runtime commands: ${[...new Set(known)].sort().join(", ")}.`
          : "Install a C2 plugin with a runtime first (`gjc plugin install <dir> --user`).",
      );
    }
    const active = owners.filter((b) => b.enabled && b.trusted && !b.trustOutdated && !b.quarantine);
    if (active.length > 1) {
      throw runtimeError(
        "command_conflict",
        `The command ${commandId} is declared by several active plugins: ${active.map((b) => `${b.name} (${b.id})`).join(", ")}.`,
        "Disable or uninstall all but one of them.",
        { plugins: active.map((b) => b.id) },
      );
    }
    return this.realmFor(active[0] ?? owners[0], project);
  }

  /** Trust, enablement, quarantine, services and realm policy, checked before any spawn. */
  realmFor(bundle: HostedBundle, project?: string): RealmTarget {
    const runtime = bundle.manifest.codetwo.runtime;
    if (!runtime)
      throw runtimeError(
        "no_runtime",
        `${bundle.name} has no process runtime.`,
        "Only bundles with extensions.dev.codetwo.runtime run commands.",
      );
    const refusal = processRefusal(bundle, "its runtime");
    if (refusal) throw refusal;
    const missing = missingServices(runtime.inject);
    if (missing.length > 0) {
      throw runtimeError(
        "missing_service",
        `${bundle.name} needs the service${missing.length > 1 ? "s" : ""} ${missing.map((s) => `\`${s}\``).join(", ")}, which the ${HOST_NAME} host does not provide; its runtime stays pending.`,
        `The ${HOST_NAME} host provides only \`extensions-runtime\`. Run this plugin in a host that offers ${missing.join(", ")}.`,
        { plugin: bundle.id, missing },
      );
    }
    const projectScoped = project !== undefined && runtime.scopeSupport.includes("project");
    const projectPath = projectScoped ? this.o.directory.normalizeProject(project) : undefined;
    const policy = this.o.directory.policy(bundle, projectPath);
    if (policy.state === "disabled") {
      if (policy.stateSource === "safe-mode") {
        throw refused(
          "policy_safe_mode",
          `Plugin policy is in safe mode, so ${bundle.name} does not run.`,
          'Run "gjc plugin policy reset <plugin>" to leave safe mode.',
        );
      }
      const where = policy.stateSource === "project" ? `in the project ${projectPath}` : "by user policy";
      const hint =
        policy.stateSource === "project"
          ? `A project-capable runtime disabled in a project does not fall back to the user realm. Run "gjc plugin policy plan ${bundle.name} --state inherit --project ${projectPath}" to change it.`
          : `Run "gjc plugin policy plan ${bundle.name} --state enabled" to enable it.`;
      throw refused("plugin_disabled", `${bundle.name} is disabled ${where}.`, hint, {
        plugin: bundle.id,
        source: policy.stateSource,
      });
    }
    return { bundle, projectPath, policy };
  }

  /** The live instance for a target, replacing one from an older generation of the bundle. */
  async instanceFor(target: RealmTarget): Promise<RuntimeInstance> {
    if (this.closed) throw runtimeError("host_closed", "The runtime host is shutting down.", "Start a new host.");
    const { bundle, projectPath, policy } = target;
    const key = instanceKey(bundle.id, projectPath);
    const fingerprint = JSON.stringify([
      bundle.revision ?? null,
      bundle.version,
      bundle.bundleDir,
      bundle.manifest.codetwo.runtime,
      bundle.manifest.codetwo.commands,
      policy.config,
      bundle.passEnv ?? [],
    ]);
    const existing = this.instances.get(key);
    if (existing && existing.fingerprint === fingerprint && existing.instance.phase !== "stopped")
      return existing.instance;
    if (existing) {
      this.instances.delete(key);
      await existing.instance.unload();
    }
    // What starts is what was installed: drift refuses the start and quarantines the bundle.
    await this.checkFiles(bundle);
    const dataDir =
      projectPath === undefined
        ? bundle.dataDir
        : join(bundle.dataDir, "projects", await this.o.directory.projectHash(projectPath));
    const raced = this.instances.get(key);
    if (raced && raced.fingerprint === fingerprint) return raced.instance;
    const instance = new RuntimeInstance(
      {
        bundleId: bundle.id,
        name: bundle.name,
        version: bundle.version,
        bundleDir: bundle.bundleDir,
        dataDir,
        manifest: bundle.manifest,
        config: policy.config,
        projectPath,
        visibleCommands: this.visibleCommands(),
        passEnv: bundle.passEnv,
      },
      {
        env: this.o.env,
        hostCommands: this.hostCommands,
        log: (plugin, level, message) => this.o.log?.(plugin, level, message),
        onEvent: (bundleId, name, payload) => this.busEvent(key, bundleId, name, payload),
        onConnectorEvent: (bundleId, event) => this.o.onConnectorEvent?.(bundleId, event),
        handshakeTimeoutMs: this.o.handshakeTimeoutMs,
        termGraceMs: this.o.termGraceMs,
        limits: this.o.limits,
        onFailed: () => this.o.onInstancesChanged?.(),
        sandboxProfile: this.o.sandboxProfile,
      },
      this.clock,
    );
    this.instances.set(key, {
      instance,
      fingerprint,
      revision: bundle.revision ?? null,
      policy: JSON.stringify(policy.config),
    });
    this.o.onInstancesChanged?.();
    return instance;
  }

  async invoke(
    commandId: string,
    args: unknown,
    options: InvokeOptions & { project?: string } = {},
  ): Promise<InvokeResult> {
    const target = this.resolveCommand(commandId, options.project);
    return this.invokeTarget(target, commandId, args, options);
  }

  async invokeTarget(
    target: RealmTarget,
    commandId: string,
    args: unknown,
    options: InvokeOptions = {},
  ): Promise<InvokeResult> {
    const instance = await this.instanceFor(target);
    const result = await instance.invoke(commandId, args, options);
    const { bundle, projectPath } = target;
    return {
      plugin: { id: bundle.id, name: bundle.name, version: bundle.version },
      realm: projectPath === undefined ? { kind: "user" } : { kind: "project", projectPath },
      command: commandId,
      result,
      pid: instance.pid,
    };
  }

  bundles(): HostedBundle[] {
    return this.o.directory.list();
  }

  /** Finds an installed bundle by name, id or `bundle:<id>`. */
  findBundle(nameOrId: string): HostedBundle {
    const key = nameOrId.startsWith("bundle:") ? nameOrId.slice("bundle:".length) : nameOrId;
    const all = this.o.directory.list();
    const matches = all.filter((b) => b.id === key || b.name === key);
    if (matches.length > 1) {
      throw runtimeError(
        "ambiguous_plugin",
        `Several installed C2 bundles are named ${key}: ${matches.map((m) => m.id).join(", ")}.`,
        "Name the bundle by its installed id.",
        undefined,
        ExitCode.usage,
      );
    }
    if (matches.length === 0) {
      const near = closest(
        key,
        all.map((b) => b.name),
      );
      throw runtimeError(
        "not_installed",
        `No C2 bundle named ${key} is installed.${near ? ` Did you mean "${near}"?` : ""}`,
        'Run "gjc plugin list" to see the installed bundles.',
      );
    }
    return matches[0];
  }

  /**
   * The command a contribution points at must be registered in the caller's realm by the same
   * bundle: a descriptor can never reach another plugin's command.
   */
  ownedTarget(bundle: HostedBundle, commandId: string, contribution: string, project?: string): RealmTarget {
    const target = this.realmFor(bundle, project);
    let owner: RealmTarget;
    try {
      owner = this.resolveCommand(commandId, project);
    } catch (e) {
      if (e instanceof GjcError && e.code === "command_conflict") {
        throw refused(
          "not_owner",
          `${contribution} of ${bundle.name} does not reference an active command owned by ${bundle.name} in this scope (${e.message})`,
          "Disable the other plugin that declares the same command.",
        );
      }
      throw e;
    }
    if (owner.bundle.id !== bundle.id) {
      throw refused(
        "not_owner",
        `${contribution} of ${bundle.name} does not reference an active command owned by ${bundle.name} in this scope.`,
        `The command ${commandId} is owned by ${owner.bundle.name}.`,
      );
    }
    return target;
  }

  /** Realm policy without the runtime checks (language servers need no runtime). */
  policyFor(bundle: HostedBundle, project?: string): RealmPolicy {
    return this.o.directory.policy(
      bundle,
      project === undefined ? undefined : this.o.directory.normalizeProject(project),
    );
  }

  /** The bundle's installed files are unchanged, or `runtime_mismatch` (before any process of it starts). */
  /** The sandbox profile of one of this host's processes: its base plus the user's grants. */
  sandboxProfile(subject: SandboxSubject, base: SandboxProfile): Promise<SandboxProfile> {
    return this.o.sandboxProfile ? this.o.sandboxProfile(subject, base) : Promise.resolve(base);
  }

  async checkFiles(bundle: HostedBundle): Promise<void> {
    await this.o.directory.checkFiles?.(bundle);
  }

  normalizeProject(path: string): string {
    return this.o.directory.normalizeProject(path);
  }

  componentDisabled(target: RealmTarget, componentId: string): boolean {
    return target.policy.components[componentId] === "disabled";
  }

  /** Host→runtime event to every running runtime subscribed to it. Returns how many got it. */
  publish(name: string, payload: unknown, except?: string): number {
    let n = 0;
    for (const [key, { instance }] of this.instances) if (key !== except && instance.deliver(name, payload)) n++;
    return n;
  }

  private busEvent(fromKey: string, bundleId: string, name: string, payload: unknown): void {
    // The bus is host-wide (the standard says it is not project-confidential): other runtimes
    // that subscribed get the event; the emitting instance does not hear its own echo.
    this.publish(name, payload, fromKey);
    this.o.onEvent?.(bundleId, name, payload);
  }

  /**
   * `plugins.list` (a host command runtimes may call, and a plane method): every installed
   * bundle with the state of its runtime in the user realm. A runtime waiting for a service
   * this host lacks is `pending` with the missing names, never reported as ready.
   */
  listPlugins(): PluginListRow[] {
    return this.o.directory.list().map((b) => {
      const runtime = b.manifest.codetwo.runtime;
      const row: PluginListRow = {
        id: b.id,
        name: b.name,
        version: b.version,
        enabled: b.enabled,
        trusted: b.trusted,
        has_runtime: runtime !== null,
        runtime_status: "none",
        missing: [],
        error: null,
        commands: wireCommands(commandSurface(b.manifest.codetwo.commands)),
      };
      if (!runtime) return row;
      try {
        this.realmFor(b);
        const failure = this.failureOf(b.id);
        row.runtime_status = failure ? "failed" : "ready";
        row.error = failure ?? null;
      } catch (e) {
        const code = e instanceof GjcError ? e.code : "";
        row.runtime_status =
          code === "missing_service"
            ? "pending"
            : code === "untrusted" || code === "trust_outdated"
              ? "untrusted"
              : code === "quarantined"
                ? "quarantined"
                : "disabled";
        if (code === "missing_service") row.missing = missingServices(runtime.inject);
      }
      return row;
    });
  }

  /**
   * Why the runtime of a bundle failed in a realm (a refused handshake, a lost connection), or
   * undefined while it is dormant, running or never started. A failure is kept for the instance's
   * generation, so it stays visible until a reload, a policy change or a new install replaces it.
   */
  failureOf(bundleId: string, projectPath?: string): RuntimeFailure | undefined {
    const instance = this.instances.get(instanceKey(bundleId, projectPath))?.instance;
    if (!instance || instance.phase !== "failed") return undefined;
    const f = instance.failure;
    return { code: f?.code ?? "runtime_failed", message: f?.message ?? `The runtime of ${instance.spec.name} failed.` };
  }

  /** The phase of a realm's runtime as the catalog shows it (null: no instance in that realm yet). */
  processOf(bundleId: string, projectPath?: string): { phase: RuntimePhase; error?: string } | null {
    const instance = this.instances.get(instanceKey(bundleId, projectPath))?.instance;
    if (!instance) return null;
    const failure = this.failureOf(bundleId, projectPath);
    return failure ? { phase: instance.phase, error: failure.message } : { phase: instance.phase };
  }

  /**
   * `extensions.list`: runtimes that may run in the user realm, those waiting for trust, and
   * those whose process failed there (with the reason), which are never counted as ready.
   */
  extensionsList(): { ready: string[]; untrusted: string[]; failed: ({ id: string } & RuntimeFailure)[] } {
    const ready: string[] = [];
    const untrusted: string[] = [];
    const failed: ({ id: string } & RuntimeFailure)[] = [];
    for (const b of this.o.directory.list()) {
      if (!b.manifest.codetwo.runtime) continue;
      if (!b.trusted || b.trustOutdated) {
        untrusted.push(b.id);
        continue;
      }
      try {
        this.realmFor(b);
      } catch {
        continue; // disabled, quarantined or pending: neither ready nor merely untrusted
      }
      const failure = this.failureOf(b.id);
      if (failure) failed.push({ id: b.id, ...failure });
      else ready.push(b.id);
    }
    return { ready, untrusted, failed };
  }

  processes(): ProcessView[] {
    return [...this.instances.values()].map(({ instance }) => ({
      plugin: instance.spec.bundleId,
      realm: instance.realm,
      phase: instance.phase,
      pid: instance.pid ?? null,
      starts: instance.startCount,
      error: instance.failure?.message ?? null,
      dropped_connector_events: instance.droppedConnectorEvents,
    }));
  }

  /** Holds a project realm against idle reaping (a terminal, a long task); returns the release. */
  lease(projectPath: string): () => void {
    const key = this.o.directory.normalizeProject(projectPath);
    this.leases.set(key, (this.leases.get(key) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const n = (this.leases.get(key) ?? 1) - 1;
      if (n <= 0) this.leases.delete(key);
      else this.leases.set(key, n);
      const instances = [...this.instances.values()].filter(({ instance }) => instance.spec.projectPath === key);
      for (const { instance } of instances) instance.lastActivity = this.clock();
    };
  }

  /** Stops project realms idle for longer than the idle period with no call or lease holding them. */
  async reapIdle(): Promise<string[]> {
    const idle = this.o.projectIdleMs ?? PROJECT_IDLE_MS;
    const now = this.clock();
    const reaped: string[] = [];
    for (const [key, { instance }] of [...this.instances]) {
      const project = instance.spec.projectPath;
      if (project === undefined) continue;
      if (instance.activeCalls > 0 || (this.leases.get(project) ?? 0) > 0) continue;
      if (now - instance.lastActivity < idle) continue;
      this.instances.delete(key);
      await instance.unload();
      reaped.push(key);
    }
    if (reaped.length > 0) this.o.onInstancesChanged?.();
    return reaped;
  }

  /** Starts the background reaper (the long-running host); the timer never keeps the process alive. */
  startReaper(): void {
    if (this.reaper) return;
    const idle = this.o.projectIdleMs ?? PROJECT_IDLE_MS;
    const every = Math.min(Math.max(Math.floor(idle / 4), 1), 30_000);
    this.reaper = setInterval(() => void this.reapIdle().catch(() => {}), every);
    this.reaper.unref?.();
  }

  /** Stops every realm of one bundle and reaps its processes (uninstall, untrust, reload). */
  async unloadBundle(bundleId: string): Promise<number> {
    const victims = [...this.instances].filter(([, v]) => v.instance.spec.bundleId === bundleId);
    for (const [key] of victims) this.instances.delete(key);
    await Promise.all(victims.map(([, v]) => v.instance.unload()));
    if (victims.length > 0) this.o.onInstancesChanged?.();
    return victims.length;
  }

  /**
   * Drops instances whose bundle changed under a long-running host (uninstalled, untrusted,
   * disabled, upgraded by another gjc process): their processes stop; the next call starts the
   * new generation.
   */
  async reconcile(): Promise<string[]> {
    const bundles = new Map(this.o.directory.list().map((b) => [b.id, b]));
    const stale = [...this.instances].filter(([, { instance, revision, policy }]) => {
      const b = bundles.get(instance.spec.bundleId);
      if (
        !b ||
        !b.trusted ||
        !b.enabled ||
        Boolean(b.quarantine) ||
        b.version !== instance.spec.version ||
        (b.revision ?? null) !== revision
      )
        return true;
      // The realm's own policy: a project change stops only that project's instance.
      let now: RealmPolicy;
      try {
        now = this.o.directory.policy(b, instance.spec.projectPath);
      } catch {
        return true; // unreadable policy: fail closed
      }
      return now.state === "disabled" || JSON.stringify(now.config) !== policy;
    });
    for (const [key] of stale) this.instances.delete(key);
    this.unannounced.push(...stale.map(([key]) => key));
    // A reconcile that finds nothing new still waits for the stops already under way, so
    // "nothing listed" always means "nothing running".
    const stops = Promise.all(stale.map(([, v]) => v.instance.unload())).then(() => {});
    this.unloading.add(stops);
    try {
      await Promise.all([...this.unloading]);
    } finally {
      this.unloading.delete(stops);
    }
    if (stale.length > 0) this.o.onInstancesChanged?.();
    return stale.map(([key]) => key);
  }

  /**
   * The realms reconcile stopped since the last call: a change applied through the plane stops
   * them while it settles, before the store watch announces it, and the announcement must still
   * say what stopped.
   */
  takeStopped(): string[] {
    return this.unannounced.splice(0);
  }

  /** Every runtime whose process failed, per realm, with why (the live file carries them). */
  failures(): { bundle: string; realm: string; code: string; message: string }[] {
    const out: { bundle: string; realm: string; code: string; message: string }[] = [];
    for (const { instance } of this.instances.values()) {
      const f = this.failureOf(instance.spec.bundleId, instance.spec.projectPath);
      if (f) out.push({ bundle: instance.spec.bundleId, realm: instance.realm, ...f });
    }
    return out.sort((a, b) => `${a.bundle}\0${a.realm}`.localeCompare(`${b.bundle}\0${b.realm}`));
  }

  /** Bundles with a live instance (dormant, starting or running) in any realm. */
  liveBundles(): string[] {
    const ids = new Set<string>();
    for (const { instance } of this.instances.values())
      if (instance.phase !== "stopped") ids.add(instance.spec.bundleId);
    return [...ids].sort();
  }

  /** Stops every child; afterwards the host refuses new work. */
  async shutdown(): Promise<void> {
    this.closed = true;
    if (this.reaper) clearInterval(this.reaper);
    const all = [...this.instances.values()];
    this.instances.clear();
    await Promise.all(all.map(({ instance }) => instance.unload()));
  }

  instance(bundleId: string, projectPath?: string): RuntimeInstance | undefined {
    return this.instances.get(instanceKey(bundleId, projectPath))?.instance;
  }
}

function instanceKey(bundleId: string, projectPath?: string): string {
  return projectPath === undefined ? `${bundleId}@user` : `${bundleId}@project:${projectPath}`;
}
