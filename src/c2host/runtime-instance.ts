import type { Code } from "../core/codes.ts";
import { mkdirSync } from "node:fs";
import { RepeatLimiter } from "../core/repeat-limiter.ts";
import { buildChildEnv } from "../process/env.ts";
import type { SandboxProfile, SandboxSubject } from "../process/sandbox/profile.ts";
import { GjcError, isGjcError } from "../core/errors.ts";
import type { C2Manifest } from "../families/c2/types.ts";
import { checkConnectorEvent } from "./connector-event.ts";
import { checkInitializeResult, HandshakeRefusal, initializeParams } from "./handshake.ts";
import { notAvailable, type HostCommand } from "./host-commands.ts";
import { HANDSHAKE_TIMEOUT_MS, TERM_GRACE_MS } from "./limits.ts";
import { isPeerError, PeerError } from "./peer-errors.ts";
import type { PeerLimits } from "./protocol-peer.ts";
import { RELOAD_HINT, runtimeError, unloadedError } from "./runtime-errors.ts";
import { resolveRuntimeCommand } from "../families/c2/runtime-command.ts";
import { RuntimeProcess } from "./runtime-process.ts";

/** Everything one runtime process needs: the bundle, its realm and the policy config there. */
export interface RuntimeSpec {
  bundleId: string;
  name: string;
  version: string;
  /** Installed bundle directory: the runtime's cwd and the root of bundle-relative commands. */
  bundleDir: string;
  /** This realm's data directory (created before the spawn). */
  dataDir: string;
  manifest: C2Manifest;
  /** Policy `config` for this plugin in this realm (null by default). */
  config: unknown;
  /** Normalized project path for a project instance; absent for the user instance. */
  projectPath?: string;
  /** Host commands this realm shows in `initialize.host.commands`. */
  visibleCommands: string[];
  /** Host variables the user passed to this plugin by name (`gjc plugin trust --pass-env`). */
  passEnv?: readonly string[];
}

export interface InstanceBindings {
  env: Record<string, string | undefined>;
  hostCommands: Map<string, HostCommand>;
  log(plugin: string, level: string, message: string): void;
  /** A runtime `event/emit` other than `connector/event` (the host-wide bus). */
  onEvent(bundleId: string, name: string, payload: unknown): void;
  /** `connector/event`, attributed to the emitting bundle (any `plugin_id` in it is dropped). */
  onConnectorEvent(bundleId: string, event: unknown): void;
  handshakeTimeoutMs?: number;
  termGraceMs?: number;
  limits?: Partial<PeerLimits>;
  /** The runtime's process failed (phase `failed`): the host's documents and live file follow. */
  onFailed?(): void;
  /** The sandbox profile of a process: its base plus the user's grants (profileFor); the base alone when absent. */
  sandboxProfile?: SandboxProfileSource;
}

export type SandboxProfileSource = (subject: SandboxSubject, base: SandboxProfile) => Promise<SandboxProfile>;
const baseProfile: SandboxProfileSource = async (_subject, base) => base;

export type RuntimePhase = "dormant" | "starting" | "running" | "failed" | "stopped";

export interface InvokeOptions {
  timeoutMs?: number;
}

const LOG_LEVELS = new Set(["error", "warn", "info", "debug", "trace"]);

/**
 * One runtime in one realm. Dormant until the first invocation; concurrent first calls share
 * one start; a failed handshake or a lost connection is remembered for this generation (the
 * object), so nothing restarts behind the user's back: a reload makes a new instance.
 */
export class RuntimeInstance {
  phase: RuntimePhase = "dormant";
  startCount = 0;
  /** Output of this runtime generation, summarised after the first few of each kind. */
  private readonly noise = new RepeatLimiter();
  failure: GjcError | undefined;
  subscriptions = new Set<string>();
  activeCalls = 0;
  /** `connector/event`s this runtime emitted that were not forwarded (see connector-event.ts). */
  droppedConnectorEvents = 0;
  lastActivity: number;
  private process: RuntimeProcess | undefined;
  private starting: Promise<RuntimeProcess> | undefined;
  private stopping: Promise<void> | undefined;

  constructor(
    readonly spec: RuntimeSpec,
    private readonly bindings: InstanceBindings,
    private readonly clock: () => number = Date.now,
  ) {
    this.lastActivity = clock();
  }

  get pid(): number | undefined {
    return this.process?.pid;
  }

  get realm(): string {
    return this.spec.projectPath === undefined ? "user" : `project ${this.spec.projectPath}`;
  }

  async invoke(name: string, args: unknown, options: InvokeOptions = {}): Promise<unknown> {
    if (this.phase === "stopped") throw unloadedError(this.spec.name);
    if (this.failure) throw this.failure;
    this.activeCalls++;
    this.lastActivity = this.clock();
    try {
      // A running process is used as is: awaiting the settled start would cost a turn per call.
      const proc = this.phase === "running" && this.process !== undefined ? this.process : await this.activate();
      try {
        return await proc.peer.request(
          "command/invoke",
          { name, args: args === undefined ? null : args },
          options.timeoutMs === undefined ? undefined : { timeoutMs: options.timeoutMs },
        );
      } catch (e) {
        throw this.invokeFailure(e, name, proc);
      }
    } finally {
      this.activeCalls--;
      this.lastActivity = this.clock();
    }
  }

  /** Starts the process if needed (used by probes and benches). */
  async start(): Promise<void> {
    if (this.phase === "stopped") throw unloadedError(this.spec.name);
    if (this.failure) throw this.failure;
    await this.activate();
  }

  /** Host→runtime event: delivered only to a running runtime that subscribed to it. */
  deliver(name: string, payload: unknown): boolean {
    if (this.phase !== "running" || !this.subscriptions.has(name) || !this.process) return false;
    return this.process.peer.notify("event/emit", { name, payload: payload === undefined ? null : payload });
  }

  /** Stops the process group and reaps the child before resolving; idempotent. */
  unload(): Promise<void> {
    this.stopping ??= (async () => {
      this.phase = "stopped";
      const proc = this.process;
      if (proc) await proc.stop(this.bindings.termGraceMs ?? TERM_GRACE_MS);
      if (this.starting) await this.starting.catch(() => {});
      if (this.process && this.process !== proc) await this.process.stop(0);
      for (const { kind, suppressed } of this.noise.drain()) {
        this.bindings.log(
          this.spec.name,
          "warn",
          `${suppressed} more ${kind} were not shown (only the first ${this.noise.first} of each kind are)`,
        );
      }
    })();
    return this.stopping;
  }

  private activate(): Promise<RuntimeProcess> {
    this.starting ??= this.startProcess();
    return this.starting;
  }

  private async startProcess(): Promise<RuntimeProcess> {
    this.phase = "starting";
    const { spec } = this;
    try {
      mkdirSync(spec.dataDir, { recursive: true, mode: 0o700 });
      const runtime = spec.manifest.codetwo.runtime;
      if (!runtime) throw runtimeError("no_runtime", `${spec.name} has no process runtime.`);
      const exe = resolveRuntimeCommand(runtime.command, spec.bundleDir, this.bindings.env);
      // The allow-list, the manifest's values and what the user passed by name; never a credential.
      const { env, dropped } = buildChildEnv(this.bindings.env, { declared: runtime.env, passEnv: spec.passEnv });
      if (dropped.length > 0)
        this.bindings.log(
          spec.name,
          "warn",
          `not passed to the runtime (credentials and loader switches never are): ${dropped.join(", ")}`,
        );
      if (this.phase !== "starting") throw unloadedError(spec.name);
      const subject = { bundle: spec.name, process: { kind: "runtime" as const } };
      const profile = await (this.bindings.sandboxProfile ?? baseProfile)(subject, {
        read: [spec.bundleDir],
        write: [spec.dataDir],
        net: [],
      });
      let proc: RuntimeProcess;
      try {
        proc = new RuntimeProcess({
          sandbox: { subject, profile, hostEnv: this.bindings.env },
          argv: [exe, ...runtime.args],
          cwd: spec.bundleDir,
          env,
          limits: this.bindings.limits,
          handlers: {
            onRequest: (method, params, signal) => this.serveHostRequest(method, params, signal),
            onNotification: (method, params) => this.onNotification(method, params),
            onWarning: (message) => this.noisy("dropped protocol lines", "warn", message),
          },
          onStderr: (line) => this.noisy("stderr lines", "info", line),
        });
      } catch (e) {
        if (isGjcError(e)) throw e;
        throw runtimeError(
          "runtime_spawn_failed",
          `Could not start the runtime of ${spec.name}: ${e instanceof Error ? e.message : String(e)}`,
          "Check the runtime command of the plugin.",
        );
      }
      this.process = proc;
      this.startCount++;
      const timeoutMs = this.bindings.handshakeTimeoutMs ?? HANDSHAKE_TIMEOUT_MS;
      let result: unknown;
      try {
        result = await proc.peer.request(
          "initialize",
          initializeParams({
            visibleCommands: spec.visibleCommands,
            config: spec.config,
            dataDir: spec.dataDir,
            projectPath: spec.projectPath,
          }),
          { timeoutMs },
        );
      } catch (e) {
        throw this.initializeFailure(e, timeoutMs);
      }
      let accepted;
      try {
        accepted = checkInitializeResult(result, spec.manifest.codetwo.commands);
      } catch (e) {
        if (!(e instanceof HandshakeRefusal)) throw e;
        const code =
          e.kind === "protocol"
            ? "handshake_protocol"
            : e.kind === "mismatch"
              ? "handshake_mismatch"
              : "handshake_failed";
        throw this.activationError(code, e.message);
      }
      if (this.phase !== "starting") throw unloadedError(spec.name);
      this.subscriptions = new Set(accepted.events);
      this.phase = "running";
      proc.peer.onClose((reason) => this.onConnectionLost(reason));
      return proc;
    } catch (e) {
      const error = isGjcError(e)
        ? e
        : runtimeError(
            "runtime_failed",
            `The runtime of ${spec.name} failed to start: ${e instanceof Error ? e.message : String(e)}`,
          );
      if ((this.phase as RuntimePhase) !== "stopped") {
        this.phase = "failed";
        this.failure = error;
        this.bindings.onFailed?.();
      }
      if (this.process) await this.process.stop(0);
      throw error;
    }
  }

  private activationError(code: Code, reason: string): GjcError {
    return runtimeError(
      code,
      `Plugin activation failed for ${this.spec.name} (${this.realm}): ${reason}.`,
      RELOAD_HINT,
      {
        plugin: this.spec.name,
        realm: this.realm,
      },
    );
  }

  private initializeFailure(e: unknown, timeoutMs: number): GjcError {
    if (isPeerError(e)) {
      if (e.kind === "timeout")
        return this.activationError(
          "handshake_timeout",
          `the runtime did not answer \`initialize\` within ${formatMs(timeoutMs)}`,
        );
      if (e.kind === "remote")
        return this.activationError("handshake_failed", `the runtime refused \`initialize\`: ${e.message}`);
      if (e.kind === "too_large") return this.activationError("handshake_failed", e.message);
      return this.activationError(
        "handshake_failed",
        `the runtime stopped before answering \`initialize\`: ${e.message}`,
      );
    }
    return isGjcError(e) ? e : this.activationError("handshake_failed", String(e));
  }

  private invokeFailure(e: unknown, name: string, proc: RuntimeProcess): GjcError {
    if (isGjcError(e)) return e;
    if (!isPeerError(e))
      return runtimeError("runtime_failed", `${name}: ${e instanceof Error ? e.message : String(e)}`);
    const details = { plugin: this.spec.name, realm: this.realm, command: name };
    if (e.kind === "remote")
      return runtimeError("plugin_command_failed", `${name}: ${e.message}`, undefined, {
        ...details,
        rpcCode: e.remote?.code,
      });
    if (!proc.peer.closed) {
      if (e.kind === "capacity")
        return runtimeError(
          "runtime_busy",
          `${name}: ${e.message}.`,
          "Wait for earlier calls to finish, then retry.",
          details,
        );
      if (e.kind === "too_large")
        return runtimeError("message_too_large", `${name}: ${e.message}.`, "Pass smaller arguments.", details);
    }
    if (e.kind === "timeout") {
      return runtimeError(
        "invoke_timeout",
        `${name}: ${e.message}; the runtime was stopped.`,
        "Raise --timeout or check the plugin; " + RELOAD_HINT,
        details,
      );
    }
    if (e.kind === "too_large" || e.kind === "capacity")
      return runtimeError(
        "runtime_protocol_error",
        `${name}: ${e.message}; the runtime was stopped.`,
        RELOAD_HINT,
        details,
      );
    return runtimeError("runtime_exited", `${name}: ${e.message}.`, RELOAD_HINT, details);
  }

  private onConnectionLost(reason: PeerError): void {
    if (this.phase === "stopped") return;
    this.phase = "failed";
    const code =
      reason.kind === "timeout"
        ? "invoke_timeout"
        : reason.kind === "closed"
          ? "runtime_exited"
          : "runtime_protocol_error";
    this.failure ??= runtimeError(
      code,
      `The runtime of ${this.spec.name} (${this.realm}) stopped: ${reason.message}.`,
      RELOAD_HINT,
      {
        plugin: this.spec.name,
        realm: this.realm,
      },
    );
    this.bindings.onFailed?.();
    // Reap the child and its group now rather than at unload.
    void this.process?.stop(0);
  }

  private async serveHostRequest(method: string, params: unknown, signal: AbortSignal): Promise<unknown> {
    if (method !== "command/call") throw new Error(`the host has no method \`${method}\``);
    const p = params as { name?: unknown; args?: unknown } | null;
    if (p === null || typeof p !== "object" || typeof p.name !== "string")
      throw new Error("`command/call` needs params {name, args}");
    const command = this.bindings.hostCommands.get(p.name);
    if (!command) throw notAvailable(p.name);
    this.lastActivity = this.clock();
    return command(p.args ?? null, { bundleId: this.spec.bundleId, projectPath: this.spec.projectPath }, signal);
  }

  /** A runtime's output, summarised after the first few of each kind so a flood is not amplified. */
  private noisy(kind: string, level: string, message: string): void {
    const verdict = this.noise.note(kind);
    if (verdict === "show") this.bindings.log(this.spec.name, level, message);
    else if (verdict !== "count")
      this.bindings.log(
        this.spec.name,
        "warn",
        `${verdict.suppressed} more ${kind} were not shown (only the first ${this.noise.first} of each kind are)`,
      );
  }

  private onNotification(method: string, params: unknown): void {
    if (params === null || typeof params !== "object") return; // malformed: dropped silently
    const p = params as Record<string, unknown>;
    if (method === "log") {
      if (typeof p.message !== "string") return;
      const level = typeof p.level === "string" && LOG_LEVELS.has(p.level) ? p.level : "info";
      this.noisy("log messages", level, p.message);
    } else if (method === "event/emit") {
      if (typeof p.name !== "string") return;
      if (p.name === "connector/event") {
        const checked = checkConnectorEvent(this.spec.manifest, p.payload);
        if (checked.ok) this.bindings.onConnectorEvent(this.spec.bundleId, checked.event);
        else {
          // Dropped, never forwarded; counted (plugins.processes) and logged like other noise.
          this.droppedConnectorEvents++;
          this.noisy("dropped connector events", "warn", `connector/event dropped: ${checked.problem}`);
        }
      } else this.bindings.onEvent(this.spec.bundleId, p.name, p.payload ?? null);
    }
  }
}

function formatMs(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
