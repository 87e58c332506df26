import { gjcTrustedBase, unsafeGjcScope } from "../store/scope-path.ts";
import { existsSync, readFileSync } from "node:fs";
import type { Context } from "../core/context.ts";
import type { DoctorFinding, DoctorStore } from "../store/documents.ts";
import { acquireLock, inspectLock, type LockInspection } from "../store/lock.ts";
import {
  lastGoodPath,
  LOCK_FILE,
  MAX_REGISTRY_BYTES,
  registryPath,
  scopeLabel,
  scopeRoot,
} from "../families/gjc/layout.ts";
import { readRegularFile } from "../bundle/read-file.ts";
import { scanLeftovers } from "./leftovers.ts";
import { removeLeftover, type Leftover } from "../store/leftovers.ts";
import { foreignProblem, parseRegistry, tryReadRegistry, writeRegistry } from "./registry.ts";
import type { Scope, ScopeRegistry } from "./registry-types.ts";
import { lockTimeout } from "../store/lock.ts";

type GjcFinding = DoctorFinding & { family: "gjc" };

function lockFinding(scope: Scope, lock: LockInspection): GjcFinding | undefined {
  if (lock.state === "stale") {
    return {
      family: "gjc",
      scope,
      kind: "stale_lock",
      severity: "warning",
      path: lock.path,
      message: `Stale lock: ${lock.reason} (it was running ${lock.holder.command ?? "an unknown command"}).`,
      fix: "take over and remove the lock",
      fixable: true,
    };
  }
  if (lock.state === "held") {
    return {
      family: "gjc",
      scope,
      kind: "busy_lock",
      severity: "info",
      path: lock.path,
      message: `In use by process ${lock.holder.pid} on ${lock.holder.host} (${lock.holder.command ?? "unknown command"}, since ${lock.holder.startedAt ?? "an unknown time"}).`,
      fix: "nothing; wait for it to finish",
      fixable: false,
    };
  }
  if (lock.state === "unreadable") {
    return {
      family: "gjc",
      scope,
      kind: "unreadable_lock",
      severity: "error",
      path: lock.path,
      message: "The lock file is unreadable, so its holder is unknown.",
      fix: "nothing; if no gjc command is running, remove it by hand",
      fixable: false,
    };
  }
  return undefined;
}

function leftoverFinding(scope: Scope, l: Leftover): GjcFinding {
  switch (l.kind) {
    case "staging":
    case "trash":
    case "temp":
    case "backup":
      return {
        family: "gjc",
        scope,
        kind: "leftover",
        severity: "warning",
        path: l.path,
        message: `Leftover ${l.kind} ${l.kind === "temp" ? "file" : "directory"} of an interrupted command.`,
        fix: "remove it",
        fixable: true,
      };
    case "orphan":
      return {
        family: "gjc",
        scope,
        kind: "orphan_dir",
        severity: "warning",
        path: l.path,
        message: "Installed content directory that no registry entry uses.",
        fix: "remove it",
        fixable: true,
      };
    case "foreign":
      return {
        family: "gjc",
        scope,
        kind: "foreign_entry",
        severity: "info",
        path: l.path,
        message: "Not created by gjc and not registered.",
        fix: "nothing; gjc never removes what it did not create",
        fixable: false,
      };
    case "missing":
      return {
        family: "gjc",
        scope,
        kind: "missing_dir",
        severity: "error",
        path: l.path,
        message: `${l.name} is registered but its directory is gone.`,
        fix: `drop ${l.name} from the registry (install it again afterwards)`,
        fixable: true,
      };
  }
}

/** A last good copy that itself parses and checks out, or undefined. */
function usableLastGood(ctx: Context, root: string, scope: Scope): { registry: ScopeRegistry } | undefined {
  try {
    const text = new TextDecoder().decode(readRegularFile(lastGoodPath(root), MAX_REGISTRY_BYTES).bytes);
    const parsed = parseRegistry(text, root, scope);
    // A last good copy is restored only if we wrote it for this user too.
    return "registry" in parsed && foreignProblem(ctx, parsed, scope) === undefined
      ? { registry: parsed.registry }
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `gjc plugin doctor [--fix]` for one GJC scope: the lock, the registry (and its last good
 * copy), leftovers of interrupted commands, unregistered directories, registered bundles whose
 * directory is gone, and quarantined bundles; each finding says what --fix does about it.
 * --fix works under the scope lock and never removes anything gjc did not create.
 */
export async function doctorGjcScope(
  ctx: Context,
  scope: Scope,
  fix: boolean,
  adopt = false,
): Promise<{ store: DoctorStore; findings: DoctorFinding[] }> {
  const findings: DoctorFinding[] = [];
  const store = await doctorScope(ctx, scope, fix, findings, fix && adopt);
  return { store, findings };
}

/** A foreign registry that still parses: what --adopt would sign. */
function adoptable(root: string, scope: Scope): ScopeRegistry | undefined {
  try {
    const parsed = parseRegistry(
      new TextDecoder().decode(readRegularFile(registryPath(root), MAX_REGISTRY_BYTES).bytes),
      root,
      scope,
    );
    return "registry" in parsed ? parsed.registry : undefined;
  } catch {
    return undefined;
  }
}

async function doctorScope(
  ctx: Context,
  scope: Scope,
  fix: boolean,
  findings: DoctorFinding[],
  adopt = false,
): Promise<DoctorStore> {
  const root = scopeRoot(ctx, scope);
  // A project's .gjc or .gjc/gjc-plugins that is a link: reported, never followed or fixed.
  const unsafe = unsafeGjcScope(root, scope);
  if (unsafe !== undefined) {
    findings.push({
      family: "gjc",
      scope,
      kind: "unsafe_scope_path",
      severity: "error",
      path: root,
      message: `${unsafe}.`,
      fix: "nothing; remove the link, or give the directory back to its user and stop others writing it (gjc makes the directory itself)",
      fixable: false,
    });
    return { family: "gjc", scope, root, exists: true, state: "corrupt", bundles: 0 };
  }
  const exists = existsSync(root);
  const out: DoctorStore = { family: "gjc", scope, root, exists, state: "missing", bundles: 0 };
  if (!exists) return out;
  const lockF = lockFinding(scope, inspectLock(root, LOCK_FILE));
  const diagnose = (): { registry?: ScopeRegistry; list: DoctorFinding[] } => {
    const list: DoctorFinding[] = [];
    const read = tryReadRegistry(root, scope, ctx);
    let registry: ScopeRegistry | undefined;
    if (!read.ok && read.reference) {
      // The GJC agent's own registry: nothing is wrong with it, and nothing here is gjc's to
      // repair, restore over or sign (a last good copy of ours would overwrite the agent's state).
      out.state = "foreign";
      out.bundles = read.reference.plugins.length;
      list.push({
        family: "gjc",
        scope,
        kind: "foreign_scope",
        severity: "info",
        path: read.path,
        message: `This scope's registry was written by the GJC agent in its own shape (${read.reference.plugins.length} bundle${read.reference.plugins.length === 1 ? "" : "s"}): list and session read it after gjc's own checks; gjc never changes, sweeps or adopts it.`,
        fix: "nothing; manage those bundles with the GJC agent, or move the scope away and install them again with gjc",
        fixable: false,
      });
      return { list };
    }
    if (!read.ok && read.foreign) {
      // Not written by gjc for this user (issue #12, class 2): shown, never acted on, except
      // replaced by a last good copy we did sign (a hand edit of our own scope), or signed by
      // an explicit --adopt (the user says an older gjc wrote it for them).
      out.state = "foreign";
      const good = usableLastGood(ctx, root, scope);
      const way =
        scope === "project"
          ? 'delete .gjc/gjc-plugins, then install again or run "gjc plugin sync --project" from the project\'s lock; only if an older gjc wrote it for you, --fix --adopt signs it'
          : "only if an older gjc wrote it for you: --fix --adopt signs it";
      list.push({
        family: "gjc",
        scope,
        kind: "foreign_scope",
        severity: "error",
        path: read.path,
        message: `This scope was not written by gjc for you: ${read.problem}. Nothing in it is loaded, run, upgraded or deleted.`,
        fix: good
          ? `restore the last good copy, which you wrote (${good.registry.plugins.length} bundle${good.registry.plugins.length === 1 ? "" : "s"})`
          : adopt
            ? "sign it as it is (--adopt)"
            : `nothing; ${way}`,
        fixable: Boolean(good) || (adopt && adoptable(root, scope) !== undefined),
      });
      return { list };
    }
    if (!read.ok) {
      out.state = "corrupt";
      const good = usableLastGood(ctx, root, scope);
      list.push({
        family: "gjc",
        scope,
        kind: "corrupt_registry",
        severity: "error",
        path: read.path,
        message: `The registry is corrupt or was edited: ${read.problem}.`,
        fix: good
          ? `restore the last good copy (${good.registry.plugins.length} bundle${good.registry.plugins.length === 1 ? "" : "s"})`
          : "nothing; there is no usable last good copy (move the file away to start the scope afresh)",
        fixable: Boolean(good),
      });
    } else {
      registry = read.registry;
      out.state = read.exists ? "ok" : "missing";
      out.bundles = registry.plugins.length;
      for (const p of registry.plugins) {
        for (const q of (p.quarantine ?? []).slice(0, 1)) {
          list.push({
            family: "gjc",
            scope,
            kind: "quarantined",
            severity: "warning",
            path: p.pluginRoot,
            message: `${p.name} is quarantined (${q.code}: ${q.message}).`,
            fix: `nothing; run "gjc plugin verify ${p.name}" or reinstall it`,
            fixable: false,
            command: `gjc plugin verify ${p.name} --${scope}`,
          });
        }
      }
    }
    for (const l of scanLeftovers(root, registry)) list.push(leftoverFinding(scope, l));
    return { registry, list };
  };

  if (!fix) {
    if (lockF) findings.push(lockF);
    findings.push(...diagnose().list);
    return out;
  }
  // --fix: taking the lock is itself the fix for a stale one (a dead holder is taken over).
  const lock = await acquireLock(root, {
    command: "gjc plugin doctor --fix",
    timeoutMs: lockTimeout(ctx),
    file: LOCK_FILE,
    label: scopeLabel(scope),
    trustedBase: gjcTrustedBase(root, scope),
  });
  try {
    if (lockF) findings.push({ ...lockF, ...(lockF.fixable ? { fixed: true } : {}) });
    let first = diagnose();
    const foreign = first.list.find((f) => f.kind === "foreign_scope");
    if (foreign) {
      const good = foreign.fixable ? usableLastGood(ctx, root, scope) : undefined;
      const registry = foreign.fixable && !good ? adoptable(root, scope) : undefined;
      if (!good && !registry) {
        // A foreign scope is never swept or repaired: nothing in it is touched.
        findings.push(...first.list);
        return out;
      }
      writeRegistry(root, good?.registry ?? (registry as ScopeRegistry), ctx);
      foreign.fixed = true;
      findings.push(foreign);
      first = diagnose();
    }
    const corrupt = first.list.find((f) => f.kind === "corrupt_registry");
    if (corrupt?.fixable) {
      const good = usableLastGood(ctx, root, scope);
      if (good) {
        writeRegistry(root, good.registry, ctx);
        corrupt.fixed = true;
      }
    }
    findings.push(...first.list.filter((f) => f.kind === "corrupt_registry"));
    // Re-diagnose against the (possibly restored) registry, then repair what is safe.
    const again = corrupt?.fixed ? diagnose() : first;
    const rest = again.list.filter((f) => f.kind !== "corrupt_registry");
    const missing = new Set<string>();
    for (const f of rest) {
      if (!f.fixable) continue;
      if (f.kind === "missing_dir") missing.add(f.path);
      else removeLeftover({ path: f.path });
      f.fixed = true;
    }
    if (missing.size > 0 && again.registry) {
      writeRegistry(
        root,
        { version: 1, scope, plugins: again.registry.plugins.filter((p) => !missing.has(p.pluginRoot)) },
        ctx,
      );
    }
    findings.push(...rest);
    if (again.registry) {
      out.state = "ok";
      out.bundles = again.registry.plugins.length - missing.size;
    }
  } finally {
    lock.release();
  }
  return out;
}
