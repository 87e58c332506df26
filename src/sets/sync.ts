/**
 * `gjc plugin sync`: make a scope exactly its lock. Three phases:
 *
 *   1. plan (read-only): per lock entry, unchanged / choices / install / repair / replace;
 *      installed bundles the lock does not name are extras;
 *   2. acquire (nothing written to any scope): each entry that needs content gets it from the
 *      set archive, the cache, or (not --offline) its source at the pin; each is judged by its
 *      family and its recomputed integrity must equal the lock's, else lock_mismatch (exit 3)
 *      for the whole sync, listing every mismatch; offline misses are offline_miss (exit 4);
 *   3. commit, as one transaction of the scope across both families (journal.ts): the judged
 *      content goes into the content cache and the intent journal is written; then the GJC
 *      bundles of the scope as one transaction (gjc-commit.ts), the C2 bundles through the C2
 *      store, the project's C2 policy; then the journal is removed and a generation recorded.
 *      A crash anywhere after the journal is finished (or undone) by the next sets verb.
 *
 * A pin is never moved and the lock is never rewritten with other entries. Trust is never
 * raised: a C2 bundle the set expects trusted and that is not is reported as needs-trust (exit 3)
 * unless `--trust <name>` names it; one trusted here but untrusted in the set is untrusted.
 */
import type { Context } from "../core/context.ts";
import { GjcError, isGjcError } from "../core/errors.ts";
import { ExitCode, type ExitCodeValue } from "../core/exit-codes.ts";
import { toRegistrySource } from "../install/install.ts";
import type { Scope } from "../install/registry-types.ts";
import { readStateText } from "../store/state-file.ts";
import {
  bundleKey,
  clearJournal,
  commitJournaled,
  withSetTransaction,
  type Journal,
  type JournalTarget,
} from "../store/journal.ts";
import { crashPoint } from "../store/crash-hook.ts";
import type { SignatureCheck } from "../signing/check.ts";
import { needsSignatureCheck, syncSignature } from "./sync-signature.ts";
import { acquireContent, describeSource, localPath, type JudgedContent } from "./content.ts";
import type { CheckedRelease } from "../store/release-log-check.ts";
import { checkFetchedRelease, rememberSynced, verifyLockedReleases } from "./release-log-hook.ts";
import { putCacheEntry } from "../store/cache.ts";
import type { SetStep } from "../store/crash-points.ts";
import { diskProblems } from "../store/disk-check.ts";
import { applyPolicies, planPolicies, projectPolicy } from "./c2-policy.ts";
import { emptyChangeSet, type GjcChangeSet } from "../install/transaction.ts";
import { commitGjcChanges } from "./gjc-commit.ts";
import { recordGeneration } from "./history.ts";
import { installedBundles, type InstalledBundle } from "./installed.ts";
import { rememberProject } from "./known-projects.ts";
import { entryDifferences, noLock, pairWithInstalled } from "./lock.ts";
import { MAX_LOCK_BYTES, readLockFile, serializeLock, writeLockFile } from "./lock-file.ts";
import type { LockEntry, LockFile, LockPolicy } from "../store/plugins-lock-schema.ts";
import { lockPath } from "../store/set-paths.ts";
import type { SetReason } from "../core/reason.ts";

export type SyncAction =
  | "unchanged"
  | "choices"
  | "install"
  | "repair"
  | "replace"
  | "remove"
  | "extra"
  | "policy"
  | "unsettled";

export interface SyncItem {
  name: string;
  family: "gjc" | "c2";
  action: SyncAction;
  /** Where the content came from (install/repair/replace). */
  from?: "set" | "cache" | "source";
  version?: string;
  integrity?: string;
  /** What made this bundle need work (drifted files, fields that differ from the lock); empty when nothing did. */
  reasons: SetReason[];
  needsTrust?: boolean;
  /** Sandbox grants: applied as the lock says, or the lock grants more than is recorded and --grant did not confirm it. */
  grants?: "applied" | "needs-confirmation";
}

export interface SyncOptions {
  frozen?: boolean;
  offline?: boolean;
  prune?: boolean;
  dryRun?: boolean;
  /** C2 bundles the caller allows sync to trust (by name). */
  trust?: string[];
  /** Bundles whose grants the caller allows sync to raise to the lock's (by name). */
  grant?: string[];
  /** `--from <set.tgz>`: content by integrity from an unpacked set archive. */
  setDir?: (integrity: string) => string | undefined;
  /** `--from`: the lock comes from the archive instead of the scope. */
  lock?: LockFile;
  command?: string;
  /** Refuse unsigned content (also when the lock says `requireSigned: true`). */
  requireSigned?: boolean;
  /** Accept content signed by another key than the lock's or the installed copy's (not with --frozen). */
  acceptSigner?: boolean;
}

/** What rollback and the journal's recovery add: a change limited to some bundles. */
interface ApplyOptions extends SyncOptions {
  /** `family:name` of the bundles to act on; the rest of the scope is left as it is. */
  only?: string[];
  /** `family:name` of installed bundles (not in the lock) to remove. */
  remove?: string[];
  /** Whether the project's C2 policy is made the lock's (project sync: yes; rollback: no). */
  policies?: boolean;
  /** Crash-point prefix of the GJC transaction (sync, rollback). */
  step?: SetStep;
  /** Finishing this journal: it is on disk already; trust is exactly `trust`. */
  resume?: Journal;
  /** Record a generation (and, not frozen, write the lock) afterwards. */
  generation?: boolean;
  /** The lock is gjc's own record (rollback, journal recovery): signers are kept as recorded, not re-verified. */
  recorded?: boolean;
}

export interface SyncResult {
  scope: Scope;
  lockPath: string;
  dryRun: boolean;
  ok: boolean;
  items: SyncItem[];
  needsTrust: string[];
  /** Bundles whose lock grants more than is recorded here (sync --grant <name> confirms). */
  needsGrants?: string[];
  exit: ExitCodeValue;
}

interface Planned {
  item: SyncItem;
  want?: LockEntry;
  have?: InstalledBundle;
}

function plan(lock: LockFile, installed: InstalledBundle[], only?: Set<string>): Planned[] {
  const { pairs: allPairs, extra: allExtra } = pairWithInstalled(lock, installed);
  const pairs = only ? allPairs.filter((p) => only.has(bundleKey(p.want))) : allPairs;
  const extra = only ? allExtra.filter((b) => only.has(bundleKey(b.entry))) : allExtra;
  const out: Planned[] = [];
  for (const { want, have: b } of pairs) {
    const base = { name: want.name, family: want.family, version: want.version, integrity: want.integrity };
    if (!b) {
      out.push({ item: { ...base, action: "install", reasons: [] }, want });
      continue;
    }
    const problems = diskProblems(b);
    const quarantined = (b.gjc?.quarantine?.length ?? 0) > 0 || (b.c2?.quarantine ?? null) !== null;
    if (b.entry.integrity !== want.integrity)
      out.push({
        item: { ...base, action: "replace", reasons: differsFromLock(entryDifferences(want, b.entry)) },
        want,
        have: b,
      });
    else if (problems.length > 0 || quarantined) {
      const reasons: SetReason[] =
        problems.length > 0
          ? problems.map((p) => ({ code: "runtime_mismatch", message: p.message }))
          : [{ code: "quarantined", message: `${b.entry.name} is quarantined` }];
      out.push({ item: { ...base, action: "repair", reasons }, want, have: b });
    } else {
      // A C2 bundle's enablement and trust are this user's, for every folder: a project lock
      // (a repository file) does not compare them, so it never flips them either way.
      const userWide = lock.scope === "project" && want.family === "c2";
      const fields = entryDifferences(want, b.entry).filter(
        (f) => !userWide && (f === "enabled" || f === "disabledSurfaces" || f === "c2"),
      );
      out.push({
        item: { ...base, action: fields.length > 0 ? "choices" : "unchanged", reasons: differsFromLock(fields) },
        want,
        have: b,
      });
    }
  }
  for (const b of extra)
    out.push({
      item: {
        name: b.entry.name,
        family: b.entry.family,
        version: b.entry.version,
        integrity: b.entry.integrity,
        action: "extra",
        reasons: [],
      },
      have: b,
    });
  return out;
}

/** One reason per lock field whose value the installed bundle does not have (the field names are the lock's keys). */
const differsFromLock = (fields: string[]): SetReason[] =>
  fields.map((f) => ({ code: "differs_from_lock", message: `${f} is not the lock's` }));

interface Mismatch {
  entry: LockEntry;
  /** What was compared: the content integrity, or the pin itself (the source served another commit or archive). */
  what: "integrity" | "pin" | "identity";
  expected: string;
  actual: string;
  origin: "set" | "cache" | "source";
}

function lockMismatch(bad: Mismatch[]): GjcError {
  const first = bad[0];
  const label =
    first.what === "integrity"
      ? "integrity"
      : first.what === "identity"
        ? "name@version"
        : first.entry.pin.commit
          ? "commit"
          : "archive sha256";
  return new GjcError({
    code: "lock_mismatch",
    message: `${first.entry.name}: the content from ${describeSource(first.entry)} has ${label} ${first.actual}, but the lock expects ${first.expected}${bad.length > 1 ? ` (and ${bad.length - 1} more bundle${bad.length > 2 ? "s" : ""})` : ""}. Nothing was changed.`,
    hint: "The source no longer serves the locked content (a force-push, a replaced archive, or an edited lock). Find out why before you trust it; if the new content is wanted, install it and run gjc plugin lock again.",
    details: {
      mismatches: bad.map((m) => ({
        name: m.entry.name,
        family: m.entry.family,
        what: m.what,
        expected: m.expected,
        actual: m.actual,
        source: describeSource(m.entry),
        origin: m.origin,
      })),
    },
    exit: ExitCode.refused,
  });
}

function offlineMiss(names: LockEntry[]): GjcError {
  return new GjcError({
    code: "offline_miss",
    message: `The content cache does not hold ${names.map((e) => `${e.name} (${e.integrity.slice(0, 19)}…)`).join(", ")}, and --offline forbids fetching it. Nothing was changed.`,
    hint: "Run the sync once with network access (or from a set archive: gjc plugin sync --from <set.tgz>) to fill the cache.",
    details: {
      missing: names.map((e) => ({
        name: e.name,
        family: e.family,
        integrity: e.integrity,
        source: describeSource(e),
      })),
    },
    exit: ExitCode.unreachable,
  });
}

function frozenError(items: SyncItem[]): GjcError {
  const why = (i: SyncItem) =>
    i.action === "unsettled"
      ? "its project policy is locked, the bundle is not installed"
      : "installed, not in the lock";
  return new GjcError({
    code: "lock_unsettled",
    message: `--frozen: the lock does not settle ${items.map((i) => `${i.name} [${i.family}] (${why(i)})`).join(", ")}. Nothing was changed.`,
    hint: "Add --prune to remove what the lock does not name, or record it with gjc plugin lock.",
    details: { unsettled: items.map((i) => ({ name: i.name, family: i.family })) },
    exit: ExitCode.failed,
  });
}

export async function syncScope(ctx: Context, scope: Scope, o: SyncOptions = {}): Promise<SyncResult> {
  const command = o.command ?? "gjc plugin sync";
  const body = async () => {
    const lock = o.lock ?? readLockFile(lockPath(ctx, scope), scope);
    if (!lock) throw noLock(lockPath(ctx, scope), scope);
    const { checkGrantConfirmations, syncGrants } = await import("./grants.ts");
    const allowedGrants = new Set(o.grant ?? []);
    checkGrantConfirmations(lock, allowedGrants);
    const result = await applySet(ctx, scope, { ...o, lock, policies: scope === "project", generation: true });
    // Grants follow the set once its bundles are in place: lowered to the lock's, raised only when confirmed.
    const grants = await syncGrants(ctx, scope, lock, allowedGrants, result.dryRun);
    const needsGrants = grants.filter((g) => g.action === "needs-confirmation").map((g) => g.name);
    for (const g of grants) {
      const item = result.items.find((i) => i.name === g.name && i.family === g.family);
      if (item) item.grants = g.action;
    }
    const ok = result.ok && needsGrants.length === 0;
    return { ...result, needsGrants, ok, exit: ok ? result.exit : ExitCode.refused };
  };
  // A dry run finishes no interrupted change either: it changes nothing.
  if (o.dryRun) return withSetTransaction(ctx, scope, command, undefined, body);
  return inSetTransaction(ctx, scope, command, body);
}

/**
 * Runs `fn` under the scope's set lock, after finishing (or undoing) a change a killed command
 * left (journal.ts). Every sets verb that reads or changes the installed set goes through here.
 */
export function inSetTransaction<T>(ctx: Context, scope: Scope, command: string, fn: () => Promise<T>): Promise<T> {
  return withSetTransaction(ctx, scope, command, (j, dir) => finishJournal(ctx, j, dir), fn);
}

/** Applies one direction of a journal: offline, from the cache, exactly its bundles and trust. */
export async function finishJournal(ctx: Context, j: Journal, dir: "forward" | "backward"): Promise<void> {
  const t = j[dir];
  if (t === undefined) throw new Error("its journal names only the way back");
  const lock: LockFile = {
    lockfileVersion: 1,
    scope: j.scope,
    bundles: t.bundles,
    ...(t.policies ? { c2Policy: t.policies } : {}),
  };
  await applySet(ctx, j.scope, {
    lock,
    only: t.only,
    remove: t.remove,
    trust: t.trust,
    offline: true,
    frozen: true,
    policies: t.policies !== undefined,
    step: j.step === "rollback" ? "rollback" : "sync",
    resume: j,
    recorded: true,
    generation: true,
    command: `${j.command} (${dir === "forward" ? "finished" : "undone"} after an interruption)`,
  });
  // What the killed command's own commits left behind (a content dir it had not retired yet, its
  // dead store locks) is swept now too, even when nothing was left to commit in that store.
  const { withScopes } = await import("../install/scope-session.ts");
  await withScopes(ctx, j.scope, j.command, false, () => undefined);
  if (t.only.some((k) => k.startsWith("c2:"))) {
    const [{ withC2Lock }, { cleanLeftovers }, { c2Layout }] = await Promise.all([
      import("../c2store/lock.ts"),
      import("../c2store/leftovers.ts"),
      import("../c2store/paths.ts"),
    ]);
    await withC2Lock(ctx, j.command, () => cleanLeftovers(c2Layout(ctx)));
  }
}

/**
 * The sync itself, under the set lock: plan, acquire, then commit as one journaled transaction.
 * Rollback and the journal's recovery use it with `only` (a few bundles) and `remove`.
 */
export async function applySet(ctx: Context, scope: Scope, o: ApplyOptions): Promise<SyncResult> {
  const path = lockPath(ctx, scope);
  const command = o.command ?? "gjc plugin sync";
  const step = o.step ?? "sync";
  const lock = o.lock ?? readLockFile(path, scope);
  if (!lock) throw noLock(path, scope);
  // Release logs: the lock's recorded proofs hold before anything is fetched or written.
  await verifyLockedReleases(ctx, lock.bundles);
  const only = o.only ? new Set(o.only) : undefined;
  const planned = plan(lock, await installedBundles(ctx, scope, { allC2: true }), only);
  const removeNamed = new Set(o.remove ?? []);
  for (const p of planned)
    if (p.item.action === "extra" && removeNamed.has(bundleKey(p.item))) p.item.action = "remove";
  const extras = planned.filter((p) => p.item.action === "extra");
  // Project locks: the project's C2 policy, for C2 bundles of the lock (installed by this sync
  // when missing) or already installed for this user; any other is not settled by the lock.
  const policies = o.policies ? await planPolicies(ctx, lock.c2Policy ?? []) : [];
  const c2InLock = new Set(lock.bundles.filter((e) => e.family === "c2").map((e) => e.name));
  for (const p of policies) if (p.action === "missing" && c2InLock.has(p.name)) p.action = "applied";
  const unsettled = policies
    .filter((p) => p.action === "missing")
    .map(
      (p): SyncItem => ({
        name: p.name,
        family: "c2",
        action: "unsettled",
        reasons: [
          {
            code: "lock_unsettled",
            message: "c2Policy names a C2 bundle that is not installed (sync the user set first)",
          },
        ],
      }),
    );
  if (o.frozen && ((!o.prune && extras.length > 0) || unsettled.length > 0))
    throw frozenError([...(o.prune ? [] : extras.map((p) => p.item)), ...unsettled]);
  if (o.prune) for (const p of extras) p.item.action = "remove";
  const allowed = new Set(o.trust ?? []);
  const unknownTrust = [...allowed].filter(
    (n) => !lock.bundles.some((e) => e.family === "c2" && e.name === n && e.c2?.trusted),
  );
  if (unknownTrust.length > 0) {
    throw new GjcError({
      code: "invalid_option_value",
      message: `--trust ${unknownTrust.join(", ")}: the set does not expect ${unknownTrust.length === 1 ? "that bundle" : "those bundles"} trusted.`,
      hint: "--trust only confirms a C2 bundle the lock marks trusted.",
      exit: ExitCode.usage,
    });
  }
  // A project lock does not compare user-wide trust (plan), but --trust is the user's own word.
  for (const p of planned) {
    if (
      lock.scope !== "project" ||
      p.item.action !== "unchanged" ||
      p.want?.family !== "c2" ||
      p.want.c2?.trusted !== true
    )
      continue;
    if (p.have?.c2?.trusted !== true && allowed.has(p.want.name))
      Object.assign(p.item, { action: "choices", reasons: differsFromLock(["c2"]) });
  }

  // Acquire and judge everything before any write.
  const needed = planned.filter(
    (p) => p.item.action === "install" || p.item.action === "repair" || p.item.action === "replace",
  );
  const acquired: JudgedContent[] = [];
  const signatures = new Map<string, SignatureCheck>();
  const requireSigned = o.requireSigned === true || lock.requireSigned === true;
  const misses: LockEntry[] = [];
  const bad: Mismatch[] = [];
  const logged: CheckedRelease[] = [];
  try {
    for (const p of needed) {
      const want = p.want as LockEntry;
      let got;
      try {
        got = await acquireContent(ctx, scope, want, {
          offline: o.offline,
          setDir: o.setDir,
          fromSource: !o.recorded && needsSignatureCheck(want, requireSigned),
        });
      } catch (error) {
        // The sources layer checks the pin itself (commit checked out, archive bytes) first.
        if (!isGjcError(error) || error.code !== "hash_mismatch") throw error;
        const d = (error.details ?? {}) as { expected?: string; actual?: string };
        bad.push({ entry: want, what: "pin", expected: d.expected ?? "", actual: d.actual ?? "", origin: "source" });
        continue;
      }
      if (!got.ok) misses.push(want);
      else {
        acquired.push(got.content);
        const checked =
          got.content.origin === "source" ? await checkFetchedRelease(ctx, got.content.dir, want) : undefined;
        if (checked) logged.push(checked);
        p.item.from = got.content.origin;
        if (got.content.integrity !== want.integrity)
          bad.push({
            entry: want,
            what: "integrity",
            expected: want.integrity,
            actual: got.content.integrity,
            origin: got.content.origin,
          });
        // The digest covers the manifest, but a lock entry must also name what it holds.
        else if (got.content.name !== want.name || got.content.version !== want.version)
          bad.push({
            entry: want,
            what: "identity",
            expected: `${want.name}@${want.version}`,
            actual: `${got.content.name}@${got.content.version}`,
            origin: got.content.origin,
          });
        else {
          const signature = await syncSignature(ctx, scope, want, got.content, p.have, {
            frozen: o.frozen,
            requireSigned,
            acceptSigner: o.acceptSigner && !o.frozen,
            recorded: o.recorded,
          });
          // The fetched log's line names who signed the release; the bytes must carry that key.
          if (checked)
            (await import("../store/release-log-check.ts")).holdSourceSigner(
              want,
              checked,
              signature.signer?.fingerprint,
            );
          signatures.set(`${want.family}:${want.name}`, signature);
        }
      }
    }
    if (bad.length > 0) throw lockMismatch(bad);
    if (misses.length > 0) throw offlineMiss(misses);

    // Trust is never raised unasked.
    const needsTrust: string[] = [];
    for (const p of planned) {
      if (p.want?.family !== "c2" || !p.want.c2?.trusted) continue;
      // Trust given to other content does not carry over to the set's content.
      const trustedNow = p.have?.c2?.trusted === true && p.item.action !== "install" && p.item.action !== "replace";
      if (!trustedNow && !allowed.has(p.want.name)) {
        p.item.needsTrust = true;
        needsTrust.push(p.want.name);
      }
    }
    const policyItems = policies
      .filter((p) => p.action === "applied")
      .map((p): SyncItem => ({ name: p.name, family: "c2", action: "policy", reasons: [] }));
    const result: SyncResult = {
      scope,
      lockPath: path,
      dryRun: o.dryRun === true,
      ok: needsTrust.length === 0,
      items: [...planned.map((p) => p.item), ...policyItems, ...unsettled],
      needsTrust,
      exit: needsTrust.length > 0 ? ExitCode.refused : ExitCode.ok,
    };
    if (o.dryRun) return result;
    const touched = planned.filter((p) => p.item.action !== "unchanged" && p.item.action !== "extra");
    if (touched.length === 0 && policyItems.length === 0) {
      if (o.resume) clearJournal(ctx, scope);
      return result;
    }

    crashPoint(ctx, `${step}:planned`);
    // Before the first commit point: every piece of content either direction needs is in the
    // cache (what is about to be replaced, too), and the journal names the whole change.
    for (const c of acquired)
      putCacheEntry(
        ctx,
        { name: c.entry.name, family: c.entry.family, version: c.entry.version, files: c.files },
        c.dir,
      );
    for (const p of touched) if (p.have) cacheForUndo(ctx, p.have);
    const journal = o.resume
      ? undefined
      : await journalOf(
          ctx,
          scope,
          command,
          step,
          touched,
          allowedAfter(touched, allowed),
          o.policies ? (lock.c2Policy ?? []) : undefined,
        );
    // A refusal half-way (a live runtime, a name conflict in the C2 store) undoes what was committed.
    await commitJournaled(
      ctx,
      scope,
      journal,
      (j, dir) => finishJournal(ctx, j, dir),
      () => crashPoint(ctx, `${step}:journaled`),
      async () => {
        // Commit: GJC of the scope as one transaction.
        const byName = new Map(acquired.map((c) => [`${c.entry.family}:${c.entry.name}`, c]));
        const { changes, expect } = gjcChangesOf(ctx, planned, byName, signatures);
        if (!emptyChangeSet(changes)) await commitGjcChanges(ctx, scope, command, changes, expect, step);
        crashPoint(ctx, `${step}:gjc-done`);
        await applyC2(ctx, scope, planned, byName, allowed, o.resume !== undefined, signatures);
        crashPoint(ctx, `${step}:c2-done`);
        // Planned again now that the lock's C2 bundles are installed (their policy keys need the id).
        if (policyItems.length > 0)
          await applyPolicies(ctx, lock.c2Policy ?? [], await planPolicies(ctx, lock.c2Policy ?? []));
      },
    );
    await rememberSynced(ctx, lock.bundles, logged);

    if (o.generation) {
      const after = await installedBundles(ctx, scope);
      recordGeneration(
        ctx,
        scope,
        command,
        after.map((b) => b.entry),
      );
    }
    if (scope === "project") rememberProject(ctx, ctx.cwd);
    // Not frozen: the scope's lock is the set just synced (from a set archive), in canonical form.
    if (!o.frozen && serializeLock(lock) !== readLockText(path)) writeLockFile(path, lock);
    return result;
  } finally {
    for (const c of acquired) await c.cleanup();
  }
}

/** The GJC half of a set change as one change set of the scope, and the registry state it was planned against. */
function gjcChangesOf(
  ctx: Context,
  planned: Planned[],
  byName: Map<string, JudgedContent>,
  signatures: Map<string, SignatureCheck>,
): { changes: GjcChangeSet; expect: Map<string, string | undefined> } {
  const changes: GjcChangeSet = { put: [], choices: [], remove: [] };
  const expect = new Map<string, string | undefined>();
  for (const p of planned) {
    if (p.item.family !== "gjc") continue;
    expect.set(p.item.name, p.have?.gjc?.dir);
    const want = p.want;
    if (p.item.action === "remove") changes.remove.push(p.item.name);
    else if (want && p.item.action === "choices")
      changes.choices.push({ name: want.name, enabled: want.enabled, disabledSurfaceIds: want.disabledSurfaces });
    else if (want && (p.item.action === "install" || p.item.action === "repair" || p.item.action === "replace")) {
      const c = byName.get(`gjc:${want.name}`) as JudgedContent;
      changes.put.push({
        bundle: c.gjc!,
        source: toRegistrySource(ctx, c.record),
        enabled: want.enabled,
        disabledSurfaceIds: want.disabledSurfaces,
        signer: signatures.get(`gjc:${want.name}`)?.signer,
      });
    }
  }
  return { changes, expect };
}

/**
 * The content a bundle has now, for the journal's way back. A drifted copy (a repair) cannot be
 * cached, and need not be: its way back would restore the drift; recovery then goes forward.
 */
function cacheForUndo(ctx: Context, b: InstalledBundle): boolean {
  try {
    putCacheEntry(
      ctx,
      { name: b.entry.name, family: b.entry.family, version: b.entry.version, files: b.files },
      b.root,
    );
    return true;
  } catch {
    return false;
  }
}

/**
 * Journals a change that learns its new content only while each family commits it (upgrade
 * --all): the way back alone, every bundle as it is now with its content in the cache. A
 * bundle whose copy cannot be cached (its files drifted) is left out: there is no old content
 * to go back to, and the change repairs it either way. Made under the set lock.
 */
export function undoOnlyJournal(
  ctx: Context,
  scope: Scope,
  command: string,
  step: string,
  bundles: InstalledBundle[],
): Journal {
  const kept = bundles.filter((b) => cacheForUndo(ctx, b));
  const backward: JournalTarget = {
    bundles: kept.map((b) => b.entry),
    only: kept.map((b) => bundleKey(b.entry)).sort(),
    remove: [],
    trust: kept
      .filter((b) => b.c2?.trusted === true)
      .map((b) => b.entry.name)
      .sort(),
  };
  return { version: 1, scope, command, startedAt: ctx.now().toISOString(), step, backward };
}

function readLockText(path: string): string {
  try {
    const read = readStateText(path, { owned: false, maxBytes: MAX_LOCK_BYTES });
    return read.kind === "text" ? read.text : "";
  } catch {
    return "";
  }
}

/** The C2 bundles of the user set, through the C2 store (its own lock and commit per bundle). */
async function applyC2(
  ctx: Context,
  scope: Scope,
  planned: Planned[],
  content: Map<string, JudgedContent>,
  allowed: Set<string>,
  exactTrust: boolean,
  signatures: Map<string, SignatureCheck>,
): Promise<void> {
  const c2 = planned.filter((p) => p.item.family === "c2");
  if (c2.length === 0) return;
  const { installFetched } = await import("../c2store/install.ts");
  const { setC2Enabled, setC2Trusted, uninstallC2, verifyC2 } = await import("../c2store/lifecycle.ts");
  for (const p of c2) {
    const want = p.want;
    if (p.item.action === "remove") {
      // A project's set drops a C2 bundle by forgetting its project policy (the policy step);
      // the bundle itself stays installed for this user.
      if (scope === "user") await uninstallC2(ctx, p.item.name);
      continue;
    }
    if (!want || p.item.action === "extra") continue;
    const c = content.get(`c2:${want.name}`);
    // The C2 store reinstalls identical content only over a quarantined record: its verify
    // quarantines the drifted copy first (the same thing a user would run).
    if (c && p.item.action === "repair") await verifyC2(ctx, p.have?.c2?.id ?? want.name);
    // expectFiles: what the install writes is what was judged and hashed here, or nothing.
    if (c)
      await installFetched(ctx, {
        fetched: { dir: c.dir, record: c.record, identity: c.identity, display: c.display, cleanup: async () => {} },
        force: true,
        expectFiles: c.files,
        signature: signatures.get(`c2:${want.name}`) ?? { status: "unsigned" },
        ...sameInstall(ctx, p.have?.c2, want),
      });
    const now = (await installedBundles(ctx, "user")).find(
      (b) => b.entry.family === "c2" && b.entry.name === want.name,
    )?.entry;
    const trusted = now?.c2?.trusted === true;
    if (scope === "project") {
      // User-wide enable and trust never follow from a repository file: a project sync enables
      // or disables nothing, trusts only what --trust names, and untrusts only content it replaced.
      if (trusted && p.item.action === "replace" && !allowed.has(want.name)) await setC2Trusted(ctx, want.name, false);
      if (!trusted && now && want.c2?.trusted === true && allowed.has(want.name))
        await setC2Trusted(ctx, want.name, true);
      continue;
    }
    if (now && now.enabled !== want.enabled) await setC2Enabled(ctx, want.name, want.enabled);
    const wantTrusted = want.c2?.trusted === true;
    // The C2 store keeps trust across a content change; sync does not (new content, new decision).
    // Finishing a journal, the trust decision was made by the interrupted command: exactly `allowed`.
    const keep = wantTrusted && (allowed.has(want.name) || (!exactTrust && trusted && p.item.action !== "replace"));
    if (trusted && !keep) await setC2Trusted(ctx, want.name, false);
    if (!trusted && keep) await setC2Trusted(ctx, want.name, true);
  }
}

/** The C2 bundles that end trusted: the set expects it, and --trust names it or it is trusted now for the same content. */
function allowedAfter(touched: Planned[], allowed: Set<string>): string[] {
  const out = new Set<string>();
  for (const p of touched) {
    if (p.want?.family !== "c2" || p.want.c2?.trusted !== true) continue;
    if (
      allowed.has(p.want.name) ||
      (p.have?.c2?.trusted === true && p.item.action !== "replace" && p.item.action !== "install")
    )
      out.add(p.want.name);
  }
  return [...out].sort();
}

/** The journal of a change: the touched bundles as the lock wants them (forward) and as they are now (backward). */
async function journalOf(
  ctx: Context,
  scope: Scope,
  command: string,
  step: string,
  touched: Planned[],
  trustAfter: string[],
  policiesAfter: LockPolicy[] | undefined,
): Promise<Journal> {
  const only = touched.map((p) => bundleKey(p.item)).sort();
  const forward: JournalTarget = {
    bundles: touched.flatMap((p) => (p.want && p.item.action !== "remove" ? [p.want] : [])),
    only,
    remove: touched.filter((p) => p.item.action === "remove").map((p) => bundleKey(p.item)),
    trust: trustAfter,
  };
  const backward: JournalTarget = {
    bundles: touched.flatMap((p) => (p.have ? [p.have.entry] : [])),
    only,
    remove: touched.filter((p) => !p.have).map((p) => bundleKey(p.item)),
    trust: touched
      .filter((p) => p.have?.c2?.trusted === true)
      .map((p) => p.item.name)
      .sort(),
  };
  if (policiesAfter !== undefined) {
    forward.policies = policiesAfter;
    backward.policies = await projectPolicy(ctx);
  }
  return { version: 1, scope, command, startedAt: ctx.now().toISOString(), step, forward, backward };
}

/**
 * A fresh install of a catalog entry (a new machine): under the lock's catalog link, so the
 * record and its installed id are the ones the catalog install made. A local entry's identity is
 * the catalog file and the entry name (c2-notes §4.3); any other entry's is its fetched source.
 */
function freshCatalogInstall(ctx: Context, want: LockEntry): ReturnType<typeof sameInstall> {
  const cat = want.source.catalog;
  if (!cat) return {};
  const path = localPath(ctx, cat.path);
  const name = cat.name ?? cat.entry;
  return {
    catalog: {
      path,
      name,
      displayName: name,
      entry: cat.entry,
      ...(want.source.kind === "path" ? { identity: `${path}:${cat.entry}` } : {}),
      defaultEnabled: want.enabled,
      expectVersion: want.version,
    },
  };
}

/**
 * A repair or replace keeps the installed bundle's id, and its catalog link when it came from a
 * catalog (the identity a catalog install was made under is not derivable from the fetched
 * source). A fresh install (nothing of that name here) is made from the resolved source.
 */
export function sameInstall(
  ctx: Context,
  have: InstalledBundle["c2"],
  want: LockEntry,
): {
  expectId?: string;
  catalog?: NonNullable<Parameters<typeof import("../c2store/install.ts").installFetched>[1]["catalog"]>;
} {
  if (!have) return freshCatalogInstall(ctx, want);
  const cat = have.source.catalog;
  if (!cat) return { expectId: have.id };
  return {
    expectId: have.id,
    catalog: {
      path: cat.path,
      name: cat.name,
      displayName: cat.name,
      entry: cat.entry,
      identity: have.source.identity,
      defaultEnabled: want.enabled,
      expectVersion: want.version,
    },
  };
}
