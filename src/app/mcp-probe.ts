/**
 * Probes that pin: `gjc plugin mcp probe` pins a server's tool definitions on first success
 * and checks them on every later probe; `gjc plugin mcp accept` re-pins after drift; `gjc plugin
 * verify --mcp` probes every pinned server. The probes themselves are the existing ones
 * (src/app/mcp-servers.ts for GJC bundles, src/c2session/mcp-servers.ts for C2 bundles), with
 * every policy and state gate they apply.
 */
import type { Context } from "../core/context.ts";
import { c2DataDir } from "../core/context.ts";
import { GjcError, isGjcError } from "../core/errors.ts";
import { ExitCode } from "../core/exit-codes.ts";
import type { Scope } from "../install/registry-types.ts";
import type { McpPrompt, McpResource, McpTool } from "../mcp/protocol.ts";
import { c2ServerBinding, gjcServerBinding } from "../mcp/pins-binding.ts";
import {
  describeToolChanges,
  pinDigest,
  diffServed,
  diffTools,
  pinKey,
  pinServed,
  pinTools,
  readPins,
  toolDefinition,
  writePins,
  type PinFile,
  type ServedChange,
  type ServerPin,
  type ToolChange,
} from "../mcp/pins.ts";

export interface ProbedServer {
  bundle: string;
  server: string;
  transport: string;
  scope?: string;
  family?: string;
  serverInfo: { name: string; version: string };
  protocolVersion: string;
  instructions?: string;
  tools: McpTool[];
  prompts?: McpPrompt[];
  resources?: McpResource[];
  [k: string]: unknown;
}

export interface PinOutcome {
  /** pinned: first pin; verified: same as pinned; accepted: re-pinned after a change; unchanged: accept found nothing to accept. */
  status: "pinned" | "verified" | "accepted" | "unchanged";
  toolsDigest: string;
  /** Digest over the tools and everything else the server serves (instructions, prompts, resources). */
  digest: string;
  changes: ToolChange[];
  /** Changes to the instructions, prompts or resources. */
  servedChanges: ServedChange[];
}

/** GJC bundles first (both scopes, or the one given); a C2 bundle of that name otherwise. */
export async function probeServer(
  ctx: Context,
  target: string,
  opts: { scope?: Scope; timeoutMs?: number },
): Promise<ProbedServer> {
  const { probeInstalledServer } = await import("./mcp-servers.ts");
  try {
    return (await probeInstalledServer(ctx, target, opts)) as unknown as ProbedServer;
  } catch (e) {
    const { isC2Bundle, probeC2Server } = await import("../c2session/mcp-servers.ts");
    if (
      (e as { code?: string }).code !== "not_installed" ||
      opts.scope !== undefined ||
      !(await isC2Bundle(ctx, target.split("/")[0]))
    )
      throw e;
    return (await probeC2Server(ctx, target, { timeoutMs: opts.timeoutMs })) as unknown as ProbedServer;
  }
}

interface PinSlot {
  root: string;
  key: string;
  ident: Pick<ServerPin, "family" | "scope" | "bundle" | "server">;
  binding: string;
}

/** Where the pin of a probed server lives and what installed server it is bound to. */
async function slotOf(ctx: Context, r: ProbedServer): Promise<PinSlot> {
  if (r.family === "c2") {
    const [{ listC2McpServers }, { findInstalledC2 }] = await Promise.all([
      import("../c2session/mcp-servers.ts"),
      import("../c2store/records.ts"),
    ]);
    const installed = findInstalledC2(ctx, r.bundle);
    const entry = (await listC2McpServers(ctx)).find((e) => e.bundle === r.bundle && e.server === r.server);
    if (!installed || !entry)
      throw new GjcError({
        code: "not_installed",
        message: `${r.bundle}/${r.server} is no longer installed.`,
        exit: ExitCode.failed,
      });
    const ident = { family: "c2" as const, scope: "user" as const, bundle: installed.name, server: r.server };
    return {
      root: c2DataDir(ctx),
      key: pinKey(ident),
      ident,
      binding: c2ServerBinding(entry, installed.bundleDir, installed.record.files),
    };
  }
  const [{ scopeRoot }, { readRegistry }, { isMcp }] = await Promise.all([
    import("../families/gjc/layout.ts"),
    import("../install/registry.ts"),
    import("../gjcsession/surfaces.ts"),
  ]);
  const scope = r.scope as Scope;
  const root = scopeRoot(ctx, scope);
  const entry = readRegistry(root, scope, ctx).plugins.find((p) => p.name === r.bundle);
  const surface = entry?.surfaces.mcps.find((s) => isMcp(s) && s.name === r.server);
  if (!entry || !surface)
    throw new GjcError({
      code: "not_installed",
      message: `${r.bundle}/${r.server} is no longer installed in the ${scope} scope.`,
      exit: ExitCode.failed,
    });
  const ident = { family: "gjc" as const, scope, bundle: r.bundle, server: r.server };
  return {
    root,
    key: pinKey(ident),
    ident,
    binding: gjcServerBinding(entry, surface as import("../gjcsession/surfaces.ts").StoredMcp),
  };
}

/**
 * Runs a read-merge-write of the pin file of a probed server under the store lock of the root
 * it lives in (the scope's registry lock for a GJC bundle, the C2 data directory lock for a C2
 * one), so two probes finishing at once cannot lose each other's pin (issue #15). The probe
 * itself runs before, unlocked; the slot and the pins are read again inside the lock.
 */
async function underPinsLock<T>(
  ctx: Context,
  r: ProbedServer,
  command: string,
  fn: (slot: PinSlot, pins: PinFile) => T,
): Promise<T> {
  const run = async () => {
    const slot = await slotOf(ctx, r);
    const pins = readPins(slot.root);
    dropStale(pins, slot);
    return fn(slot, pins);
  };
  if (r.family === "c2") {
    const { withC2Lock } = await import("../c2store/lock.ts");
    return withC2Lock(ctx, command, run);
  }
  const [{ LOCK_FILE, scopeLabel, scopeRoot }, { lockTimeout, withLock }, { gjcTrustedBase }] = await Promise.all([
    import("../families/gjc/layout.ts"),
    import("../store/lock.ts"),
    import("../store/scope-path.ts"),
  ]);
  const scope = r.scope as Scope;
  const root = scopeRoot(ctx, scope);
  return withLock(
    root,
    {
      command,
      file: LOCK_FILE,
      timeoutMs: lockTimeout(ctx),
      label: scopeLabel(scope),
      trustedBase: gjcTrustedBase(root, scope),
    },
    run,
  );
}

/** The pin of a slot, when it is bound to the installed server (a stale one counts as none). */
function currentPin(slot: PinSlot, pins: ReturnType<typeof readPins>): ServerPin | undefined {
  const pin = pins.servers[slot.key];
  return pin && pin.binding === slot.binding ? pin : undefined;
}

function newPin(ctx: Context, slot: PinSlot, r: ProbedServer): ServerPin {
  const tools = pinTools(r.tools.map(toolDefinition));
  return {
    ...slot.ident,
    binding: slot.binding,
    pinnedAt: ctx.now().toISOString(),
    ...tools,
    served: pinServed(tools.toolsDigest, r),
  };
}

/** The digest a host compares: the served digest, or for a pin made before it, the tools digest. */

export function driftError(
  bundle: string,
  server: string,
  changes: ToolChange[],
  servedChanges: ServedChange[] = [],
): GjcError {
  return new GjcError({
    code: "tool_definition_drift",
    message: `The MCP server ${bundle}/${server} now serves definitions that differ from the ones pinned: ${describeToolChanges(changes, servedChanges)}. It is left out of sessions until you accept the change.`,
    hint: `Review the change, then run "gjc plugin mcp accept ${bundle}/${server}" to pin the new definitions (or uninstall the bundle).`,
    details: { bundle, server, changes, servedChanges },
    exit: ExitCode.refused,
  });
}

/** `verify --mcp` found drift: the same refusal as probe's, naming every drifted server, with the full report. */
export function verifyDriftError(drifted: readonly PinCheck[], report: unknown): GjcError {
  const one = (s: PinCheck) => `${s.bundle}/${s.server} [${s.scope}] (${describeToolChanges(s.changes)})`;
  const first = drifted[0];
  return new GjcError({
    code: "tool_definition_drift",
    message: `MCP servers serve tool definitions that differ from the ones pinned: ${drifted.map(one).join("; ")}. They are left out of sessions until you accept the change.`,
    hint: `Review each change, then run "gjc plugin mcp accept ${first.bundle}/${first.server}"${drifted.length > 1 ? " (and the same for the others)" : ""} to pin the new definitions.`,
    details: report,
    exit: ExitCode.refused,
  });
}

/**
 * Compares a probe with the pin and records the result: first probe pins; same definitions
 * verify (and clear an earlier drift); different ones record drift and throw tool_definition_drift.
 */
async function checkAgainstPin(ctx: Context, r: ProbedServer): Promise<PinOutcome> {
  const outcome = await underPinsLock(
    ctx,
    r,
    "gjc plugin mcp probe",
    (slot, pins): PinOutcome | { status: "drift"; changes: ToolChange[]; servedChanges: ServedChange[] } => {
      const pin = currentPin(slot, pins);
      const now = newPin(ctx, slot, r);
      if (!pin) {
        pins.servers[slot.key] = now;
        writePins(slot.root, pins);
        return {
          status: "pinned",
          toolsDigest: now.toolsDigest,
          digest: pinDigest(now),
          changes: [],
          servedChanges: [],
        };
      }
      const changes = diffTools(pin.tools, now.tools);
      const servedChanges = diffServed(pin.served, now.served!);
      if (changes.length === 0 && servedChanges.length === 0) {
        if (pin.drift) {
          delete pin.drift;
          writePins(slot.root, pins);
        }
        return { status: "verified", toolsDigest: pin.toolsDigest, digest: pinDigest(pin), changes, servedChanges };
      }
      pin.drift = {
        detectedAt: ctx.now().toISOString(),
        changes,
        ...(servedChanges.length > 0 ? { servedChanges } : {}),
      };
      writePins(slot.root, pins);
      return { status: "drift", changes, servedChanges };
    },
  );
  // Thrown after the lock is released: the drift is recorded either way.
  if (outcome.status === "drift") throw driftError(r.bundle, r.server, outcome.changes, outcome.servedChanges);
  return outcome;
}

/** Pins of the same server bound to content that is no longer installed are removed. */
function dropStale(pins: ReturnType<typeof readPins>, slot: PinSlot): void {
  const pin = pins.servers[slot.key];
  if (pin && pin.binding !== slot.binding) delete pins.servers[slot.key];
}

/** `gjc plugin mcp probe <bundle>/<server>`: the probe, then its pin. */
export async function probeAndPin(
  ctx: Context,
  target: string,
  opts: { scope?: Scope; timeoutMs?: number },
): Promise<ProbedServer & { pin: PinOutcome }> {
  const r = await probeServer(ctx, target, opts);
  return { ...r, pin: await checkAgainstPin(ctx, r) };
}

/** `gjc plugin mcp accept <bundle>/<server>`: probe now, show what changed since the pin, pin what it serves. */
export async function acceptServer(
  ctx: Context,
  target: string,
  opts: { scope?: Scope; timeoutMs?: number },
): Promise<ProbedServer & { pin: PinOutcome }> {
  const r = await probeServer(ctx, target, opts);
  const pin = await underPinsLock(ctx, r, "gjc plugin mcp accept", (slot, pins): PinOutcome => {
    const pin = currentPin(slot, pins);
    const now = newPin(ctx, slot, r);
    const changes = pin ? diffTools(pin.tools, now.tools) : [];
    const servedChanges = pin ? diffServed(pin.served, now.served!) : [];
    // A pin made before the served lists were pinned is completed by an accept.
    if (pin && changes.length === 0 && servedChanges.length === 0 && !pin.drift && pin.served !== undefined)
      return { status: "unchanged", toolsDigest: pin.toolsDigest, digest: pinDigest(pin), changes, servedChanges };
    pins.servers[slot.key] = now;
    writePins(slot.root, pins);
    return {
      status: pin ? "accepted" : "pinned",
      toolsDigest: now.toolsDigest,
      digest: pinDigest(now),
      changes,
      servedChanges,
    };
  });
  return { ...r, pin };
}

export interface PinCheck {
  family: string;
  scope: string;
  bundle: string;
  server: string;
  status: "verified" | "drift" | "error";
  changes: ToolChange[];
  servedChanges?: ServedChange[];
  error?: { code: string; message: string };
}

/**
 * `gjc plugin verify --mcp`: every pinned server of the installed bundles (optionally one
 * bundle) is probed and held to its pin. Servers without a pin are not started (a pin is made
 * by an explicit probe). Stale pins (the server changed) are skipped.
 */
export async function verifyMcpPins(ctx: Context, name?: string): Promise<{ ok: boolean; servers: PinCheck[] }> {
  const { scopeRoot } = await import("../families/gjc/layout.ts");
  const roots: { root: string; scope?: Scope }[] = [
    { root: scopeRoot(ctx, "user"), scope: "user" },
    { root: scopeRoot(ctx, "project"), scope: "project" },
    { root: c2DataDir(ctx) },
  ];
  const servers: PinCheck[] = [];
  for (const { root, scope } of roots) {
    let pinned: ServerPin[];
    try {
      pinned = Object.values(readPins(root).servers);
    } catch (error) {
      if (!isGjcError(error)) throw error;
      servers.push({
        family: scope ? "gjc" : "c2",
        scope: scope ?? "user",
        bundle: "(pin file)",
        server: root,
        status: "error",
        changes: [],
        error: { code: error.code, message: error.message },
      });
      continue;
    }
    for (const pin of pinned) {
      if (name !== undefined && pin.bundle !== name) continue;
      const row = { family: pin.family, scope: pin.scope, bundle: pin.bundle, server: pin.server };
      try {
        const r = await probeServer(ctx, `${pin.bundle}/${pin.server}`, {
          scope: pin.family === "gjc" ? scope : undefined,
        });
        const slot = await slotOf(ctx, r);
        if (slot.binding !== pin.binding) continue; // stale: the server changed since it was pinned
        await checkAgainstPin(ctx, r);
        servers.push({ ...row, status: "verified", changes: [] });
      } catch (error) {
        if (!isGjcError(error)) throw error;
        if (error.code === "tool_definition_drift") {
          const d = error.details as { changes: ToolChange[]; servedChanges?: ServedChange[] };
          servers.push({
            ...row,
            status: "drift",
            changes: d.changes,
            ...(d.servedChanges?.length ? { servedChanges: d.servedChanges } : {}),
          });
        } else if (error.code !== "not_installed")
          servers.push({ ...row, status: "error", changes: [], error: { code: error.code, message: error.message } });
      }
    }
  }
  // Drift and a damaged pin file fail the check; a server that could not be probed is reported only.
  return { ok: !servers.some((s) => s.status === "drift" || s.error?.code === "pins_corrupt"), servers };
}
