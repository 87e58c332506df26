import { passCode, type Code } from "../core/codes.ts";
import { gjcProjectRoot, gjcUserRoot, type Context } from "../core/context.ts";
import { pluginId } from "../families/gjc/ids.ts";
import { tryReadRegistry } from "../install/registry.ts";
import type { QuarantineRecord, RegistryEntry, RegistrySurface, Scope } from "../install/registry-types.ts";
import { entrySurfaces } from "../install/registry-types.ts";
import type { BundleCheck } from "../store/verify.ts";
import { verifyInstalledBundle } from "../install/verify-entry.ts";
import { HOST_BUILTIN_TOOLS, resolveSessionCollisions, type CollisionCandidate } from "./collisions.ts";
import type { SessionDiagnostic } from "./diagnostics.ts";
import { textFilesOf } from "./surfaces.ts";

export type SurfaceStatus = "active" | "disabled" | "quarantined";
/**
 * A bundle's state for one session. `excluded`: left out because a surface collides with a
 * bundle that is already active (first wins, never shadowing); nothing is wrong with its files,
 * so it is not quarantined and nothing is persisted: the next session judges it again.
 */
export type BundleStatus = SurfaceStatus | "excluded";

/** Why something is quarantined; `persisted` tells a registry record from a session-only finding. */
export interface QuarantineReason {
  surfaceId: string;
  code: Code;
  message: string;
  persisted: boolean;
}

export interface SessionSurface {
  surface: RegistrySurface;
  status: SurfaceStatus;
  reasons: QuarantineReason[];
}

export interface SessionBundle {
  entry: RegistryEntry;
  status: BundleStatus;
  /** Why it is quarantined (drift, a persisted `plugin:<name>` record) or excluded (the collisions). */
  reasons: QuarantineReason[];
  /** When excluded: the active bundles it collides with (`name (scope)`), and on which surfaces. */
  collision?: { with: string[]; surfaceIds: string[] };
  surfaces: SessionSurface[];
  /** Verified bytes of appendix and sub-skill files of an active bundle, by relative path. */
  texts: Map<string, Uint8Array>;
}

export interface ScopeState {
  scope: Scope;
  root: string;
  ok: boolean;
  problem?: string;
  /** Read from a registry the GJC agent wrote: loaded, never written (no quarantine, no verdicts). */
  readOnly?: boolean;
}

export interface SessionState {
  projectDir: string;
  scopes: ScopeState[];
  /** Registry order: user before project, then name. */
  bundles: SessionBundle[];
  diagnostics: SessionDiagnostic[];
  /** Quarantine records this run persisted (drift found now). */
  persistedNow: number;
}

export interface LoadOptions {
  projectDir: string;
  /** Write new drift findings into the registries (default true). */
  persist?: boolean;
  /** Tool names a bundle tool may never take (default: the GJC agent's built-in tools). */
  hostToolNames?: readonly string[];
}

/** At most this many drift records per bundle; the rest are summed up in one more (as `verify` writes them). */
const MAX_DRIFT_RECORDS = 20;

function driftRecords(entry: RegistryEntry, messages: string[], at: string): QuarantineRecord[] {
  const id = pluginId(entry.name);
  const records = messages
    .slice(0, MAX_DRIFT_RECORDS)
    .map((message) => ({ surfaceId: id, code: "runtime_mismatch", message, detectedAt: at }));
  if (messages.length > MAX_DRIFT_RECORDS) {
    records.push({
      surfaceId: id,
      code: "runtime_mismatch",
      message: `…and ${messages.length - MAX_DRIFT_RECORDS} more problems`,
      detectedAt: at,
    });
  }
  return records;
}

/**
 * The first half of session start, shared by `session` and `activate`: both registries (user
 * before project), every enabled bundle re-verified (drift quarantines the bundle and is
 * persisted), persisted quarantine honoured, then session collisions (the earlier bundle wins,
 * the later one is excluded from this session). Never imports plugin code.
 */
export async function loadSession(ctx: Context, options: LoadOptions): Promise<SessionState> {
  const roots: Record<Scope, string> = { user: gjcUserRoot(ctx), project: gjcProjectRoot(options.projectDir) };
  const scopes: ScopeState[] = [];
  const diagnostics: SessionDiagnostic[] = [];
  const bundles: SessionBundle[] = [];
  const detectedAt = ctx.now().toISOString();
  const newDrift: Record<Scope, { name: string; pluginRoot: string; records: QuarantineRecord[] }[]> = {
    user: [],
    project: [],
  };

  // Scopes read from a registry the GJC agent wrote: loaded, but nothing is ever written back.
  const readOnly = new Set<Scope>();
  for (const scope of ["user", "project"] as const) {
    const read = tryReadRegistry(roots[scope], scope, ctx);
    if (!read.ok && read.reference) {
      const { readReferenceRegistry } = await import("../install/reference-registry.ts");
      const registry = await readReferenceRegistry(ctx, roots[scope], scope, read.reference);
      readOnly.add(scope);
      scopes.push({ scope, root: roots[scope], ok: true, readOnly: true });
      diagnostics.push({
        scope,
        code: "reference_registry",
        severity: "warning",
        message: `The GJC ${scope} registry ${read.path} was written by the GJC agent in its own shape; its bundles are loaded after gjc's own checks, and gjc changes nothing in that scope.`,
        hint: "Manage those bundles with the GJC agent, or move the scope away and install them again with gjc.",
      });
      for (const entry of registry.plugins) bundles.push(judgeEntry(entry));
      continue;
    }
    if (!read.ok && read.foreign) {
      scopes.push({ scope, root: roots[scope], ok: false, problem: read.problem });
      diagnostics.push({
        scope,
        code: "foreign_scope",
        severity: "error",
        message: `The GJC ${scope} scope ${roots[scope]} was not written by gjc for you (${read.problem}); none of its bundles is loaded.`,
        hint:
          scope === "project"
            ? 'Delete .gjc/gjc-plugins, then install again or run "gjc plugin sync --project" to install what the project\'s lock names; if an older gjc wrote it for you, "gjc plugin doctor --fix --adopt".'
            : 'If an older gjc wrote it for you, run "gjc plugin doctor --fix --adopt".',
      });
      continue;
    }
    if (!read.ok) {
      scopes.push({ scope, root: roots[scope], ok: false, problem: read.problem });
      diagnostics.push({
        scope,
        code: "registry_corrupt",
        severity: "error",
        message: `The GJC ${scope} registry ${read.path} is corrupt or was edited (${read.problem}); no bundle of the ${scope} scope is loaded.`,
        hint: 'Run "gjc plugin doctor" to see the damage, and "gjc plugin doctor --fix" to restore the last good copy.',
      });
      continue;
    }
    scopes.push({ scope, root: roots[scope], ok: true });
    for (const entry of read.registry.plugins) bundles.push(judgeEntry(entry));
  }

  // Every enabled bundle not already quarantined as a whole is re-hashed; the texts it renders
  // come from that same read, so the bytes that reach a prompt are the bytes that were checked.
  for (const b of bundles) {
    if (b.status !== "active") continue;
    const texts = textFilesOf(b.surfaces.filter((s) => s.status === "active").map((s) => s.surface));
    applyCheck(
      b,
      verifyInstalledBundle(b.entry, texts),
      texts,
      detectedAt,
      readOnly.has(b.entry.scope) ? [] : newDrift[b.entry.scope],
    );
  }

  // Session collisions among the bundles still standing.
  const standing = bundles.filter((b) => b.status === "active");
  const candidates: CollisionCandidate[] = standing.map((b) => ({
    owner: `${b.entry.name} (${b.entry.scope})`,
    surfaces: b.surfaces.filter((s) => s.status === "active").map((s) => s.surface),
  }));
  for (const [index, losses] of resolveSessionCollisions(candidates, options.hostToolNames ?? HOST_BUILTIN_TOOLS)) {
    const b = standing[index];
    b.status = "excluded";
    b.texts = new Map();
    b.reasons = losses.map((l) => ({
      surfaceId: l.surfaceId,
      code: "session_collision",
      message: l.message,
      persisted: false,
    }));
    b.collision = { with: [...new Set(losses.map((l) => l.heldBy))], surfaceIds: losses.map((l) => l.surfaceId) };
  }

  for (const b of bundles) {
    for (const r of b.status === "quarantined" || b.status === "excluded" ? b.reasons : []) {
      diagnostics.push({
        scope: b.entry.scope,
        bundle: b.entry.name,
        surfaceId: r.surfaceId,
        code: r.code,
        severity: "error",
        message: r.message,
        hint: quarantineHint(b.entry, r.code),
      });
    }
    if (b.status !== "active") continue;
    for (const s of b.surfaces) {
      for (const r of s.status === "quarantined" ? s.reasons : []) {
        diagnostics.push({
          scope: b.entry.scope,
          bundle: b.entry.name,
          surfaceId: r.surfaceId,
          code: r.code,
          severity: "error",
          message: r.message,
          hint: quarantineHint(b.entry, r.code),
        });
      }
    }
  }

  let persistedNow = 0;
  if (options.persist !== false && (newDrift.user.length > 0 || newDrift.project.length > 0)) {
    const { persistOrReport } = await import("./quarantine-store.ts");
    for (const scope of ["user", "project"] as const) {
      const written = await persistOrReport(ctx, scope, roots[scope], newDrift[scope], diagnostics);
      if (written !== undefined) persistedNow += written;
      else
        for (const b of bundles)
          if (b.entry.scope === scope)
            for (const r of b.reasons)
              if (r.code === "runtime_mismatch" && newDrift[scope].some((d) => d.name === b.entry.name))
                r.persisted = false;
    }
  }
  return { projectDir: options.projectDir, scopes, bundles, diagnostics, persistedNow };
}

function quarantineHint(entry: RegistryEntry, code: string): string {
  const flag = entry.scope === "user" ? "--user" : "--project";
  if (code === "session_collision")
    return `Disable or uninstall one of the two bundles (gjc plugin disable ${entry.name} ${flag}).`;
  if (code === "runtime_mismatch")
    return `Run "gjc plugin verify ${entry.name}" once the files are restored, or reinstall with gjc plugin install <source> ${flag} --force.`;
  return `Inspect it with "gjc plugin inspect ${entry.name}"; reinstalling a fixed version clears the quarantine.`;
}

/** A bundle's state from its registry entry alone: disabled, quarantined as a whole, or to be verified. */
function judgeEntry(entry: RegistryEntry): SessionBundle {
  const all = entrySurfaces(entry);
  const persisted = entry.quarantine ?? [];
  const whole = persisted.filter((q) => q.surfaceId === pluginId(entry.name));
  const disabled = new Set(entry.disabledSurfaceIds);
  const surfaces: SessionSurface[] = all.map((surface) => {
    const reasons =
      persisted.length === 0
        ? []
        : persisted
            .filter((q) => q.surfaceId === surface.extensionId)
            .map((q) => ({ surfaceId: q.surfaceId, code: passCode(q.code), message: q.message, persisted: true }));
    const status: SurfaceStatus = disabled.has(surface.extensionId)
      ? "disabled"
      : reasons.length > 0
        ? "quarantined"
        : "active";
    return { surface, status, reasons };
  });
  const bundle: SessionBundle = { entry, status: "active", reasons: [], surfaces, texts: new Map() };
  if (!entry.enabled) {
    bundle.status = "disabled";
    // Disabled and quarantined: both are shown (the quarantine still blocks enabling it).
    bundle.reasons = whole.map((q) => ({
      surfaceId: q.surfaceId,
      code: q.code as Code,
      message: q.message,
      persisted: true,
    }));
    return bundle;
  }
  if (whole.length > 0) {
    bundle.status = "quarantined";
    bundle.reasons = whole.map((q) => ({
      surfaceId: q.surfaceId,
      code: passCode(q.code),
      message: q.message,
      persisted: true,
    }));
    return bundle;
  }
  // Only installed (and so verified) files may be loaded or rendered: a surface naming any
  // other path (a registry edited by hand, `../` included) fails the bundle closed.
  const installed = new Set(entry.copiedFiles.map((f) => f.relativePath));
  const strays = all.filter(
    (s) =>
      (s.path !== undefined && s.path !== null && !(typeof s.path === "string" && installed.has(s.path))) ||
      (Array.isArray(s.toolPaths) && s.toolPaths.some((t) => typeof t !== "string" || !installed.has(t))),
  );
  if (strays.length > 0) {
    bundle.status = "quarantined";
    bundle.reasons = strays.map((s) => ({
      surfaceId: s.extensionId,
      code: "runtime_mismatch",
      message: `The registry entry of ${s.extensionId} names ${JSON.stringify(String(s.path)).slice(0, 200)}, which is not an installed file of the bundle.`,
      persisted: false,
    }));
  }
  return bundle;
}

/** Applies the file check: drift quarantines the whole bundle; a clean bundle keeps its verified texts. */
function applyCheck(
  bundle: SessionBundle,
  check: BundleCheck,
  texts: Set<string>,
  detectedAt: string,
  drift: { name: string; pluginRoot: string; records: QuarantineRecord[] }[],
): void {
  const { entry } = bundle;
  const problems = check.problems.map((p) => p.message);
  // judgeEntry quarantined any surface path that is not an installed file, so a clean check kept every text.
  if (problems.length === 0)
    for (const rel of texts) if (!check.kept.has(rel)) problems.push(`Installed file missing: ${rel}`);
  if (problems.length === 0) bundle.texts = check.kept;
  if (problems.length > 0) {
    const records = driftRecords(entry, problems, detectedAt);
    drift.push({ name: entry.name, pluginRoot: entry.pluginRoot, records });
    bundle.status = "quarantined";
    bundle.texts = new Map();
    bundle.reasons = records.map((r) => ({
      surfaceId: r.surfaceId,
      code: passCode(r.code),
      message: r.message,
      persisted: true,
    }));
  }
}
