/**
 * `gjc plugin history` and `gjc plugin rollback`: a scope's retained generations, and putting
 * one bundle back as a generation had it, files and choices together, from the content cache
 * only (offline). It is a sync of that one bundle (sync.ts applySet): one journaled transaction
 * of the scope across both families (crash points rollback:*). A rollback never raises trust:
 * a C2 bundle trusted in the target generation stays as it is now if it is not trusted now.
 */
import type { Context } from "../core/context.ts";
import { GjcError } from "../core/errors.ts";
import { ExitCode } from "../core/exit-codes.ts";
import type { Scope } from "../install/registry-types.ts";
import { hasCacheEntry } from "../store/cache.ts";
import { readHistory, type Generation } from "./history.ts";
import { installedBundles } from "./installed.ts";
import type { LockEntry } from "../store/plugins-lock-schema.ts";

export interface HistoryRow {
  generation: number;
  at: string;
  command: string;
  /** The bundle as that generation had it (undefined: not installed then). With no name: every bundle. */
  bundles: LockEntry[];
}

export function scopeHistory(ctx: Context, scope: Scope, name?: string): { scope: Scope; generations: HistoryRow[] } {
  const h = readHistory(ctx, scope);
  const generations = [...h.generations].reverse().map((g) => ({
    generation: g.generation,
    at: g.at,
    command: g.command,
    bundles: name === undefined ? g.bundles : g.bundles.filter((b) => b.name === name),
  }));
  return { scope, generations };
}

export interface RollbackResult {
  scope: Scope;
  name: string;
  family: "gjc" | "c2";
  generation: number;
  status: "restored" | "removed" | "unchanged";
  from?: { version: string; integrity: string };
  to?: { version: string; integrity: string; enabled: boolean };
  /** C2: the target generation had it trusted, it is not trusted now, and rollback does not raise trust. */
  trustNotRaised?: boolean;
}

const sameEntry = (a: LockEntry | undefined, b: LockEntry | undefined) => Bun.deepEquals(a ?? null, b ?? null);

function noGeneration(name: string, scope: Scope, to?: number): GjcError {
  return new GjcError({
    code: "no_generation",
    message:
      to === undefined
        ? `No earlier generation of the ${scope} scope differs for ${name}; there is nothing to roll back to.`
        : `The ${scope} scope keeps no generation ${to}.`,
    hint: `See the retained generations with "gjc plugin history ${name} --${scope}".`,
    exit: ExitCode.failed,
  });
}

/**
 * What rollback would make of a generation's entry: everything it had, except that a C2 bundle
 * is trusted only if it was trusted then AND is trusted now (rollback never raises trust).
 */
function restorable(want: LockEntry | undefined, now: LockEntry | undefined): LockEntry | undefined {
  if (!want || want.family !== "c2") return want;
  return { ...want, c2: { trusted: want.c2?.trusted === true && now?.c2?.trusted === true } };
}

/**
 * The generation to restore: --to, or the newest one rollback can actually restore — it differs
 * from now in bytes or in a choice rollback may restore (a difference in trust alone does not
 * count), and its content is still in the cache. Undefined when no generation can change anything.
 */
function target(
  ctx: Context,
  gens: Generation[],
  name: string,
  now: LockEntry | undefined,
  scope: Scope,
  to?: number,
): Generation | undefined {
  if (to !== undefined) {
    const g = gens.find((x) => x.generation === to);
    if (!g) throw noGeneration(name, scope, to);
    return g;
  }
  for (let i = gens.length - 1; i >= 0; i--) {
    const g = gens[i];
    const want = restorable(
      g.bundles.find((b) => b.name === name),
      now,
    );
    if (sameEntry(want, now)) continue;
    if (want && want.integrity !== now?.integrity && !hasCacheEntry(ctx, want.integrity)) continue;
    return g;
  }
  return undefined;
}

export async function rollback(
  ctx: Context,
  scope: Scope,
  name: string,
  o: { to?: number } = {},
): Promise<RollbackResult> {
  const { applySet, inSetTransaction } = await import("./sync.ts");
  return inSetTransaction(ctx, scope, "gjc plugin rollback", async () => {
    const installed = await installedBundles(ctx, scope);
    const current = installed.find((b) => b.entry.name === name);
    const gens = readHistory(ctx, scope).generations;
    if (!current && !gens.some((g) => g.bundles.some((b) => b.name === name))) {
      throw new GjcError({
        code: "not_installed",
        message: `${name} is not installed in the ${scope} scope and no retained generation has it.`,
        hint: `See gjc plugin history --${scope}.`,
        exit: ExitCode.failed,
      });
    }
    const g = target(ctx, gens, name, current?.entry, scope, o.to);
    const from = current ? { from: { version: current.entry.version, integrity: current.entry.integrity } } : {};
    if (!g) {
      // Nothing any retained generation holds would change the bundle: said, not refused.
      if (!current) throw noGeneration(name, scope);
      const newest = gens.at(-1)?.generation ?? 1;
      return {
        scope,
        name,
        family: current.entry.family,
        generation: newest,
        status: "unchanged",
        ...from,
        to: { version: current.entry.version, integrity: current.entry.integrity, enabled: current.entry.enabled },
      };
    }
    const want = g.bundles.find((b) => b.name === name);
    const family = want?.family ?? current!.entry.family;
    const result: RollbackResult = { scope, name, family, generation: g.generation, status: "unchanged", ...from };
    if (want) result.to = { version: want.version, integrity: want.integrity, enabled: want.enabled };
    // Trusted only if it was trusted in the target generation AND is trusted now; never more.
    const trustedNow = current?.entry.c2?.trusted === true;
    const entry = restorable(want, current?.entry);
    const keep = entry?.c2?.trusted === true;
    if (sameEntry(entry, current?.entry)) {
      if (family === "c2" && want) result.trustNotRaised = want.c2?.trusted === true && !trustedNow;
      return result;
    }
    if (want && want.integrity !== current?.entry.integrity && !hasCacheEntry(ctx, want.integrity))
      throw cacheMiss(name, want, g.generation);

    const key = `${family}:${name}`;
    // One bundle of the scope, offline from the cache, as one journaled transaction (sync.ts).
    await applySet(ctx, scope, {
      lock: { lockfileVersion: 1, scope, bundles: entry ? [entry] : [] },
      only: [key],
      remove: entry ? [] : [key],
      trust: keep ? [name] : [],
      offline: true,
      frozen: true,
      step: "rollback",
      recorded: true,
      generation: true,
      command: `gjc plugin rollback ${name} --to ${g.generation}`,
    }).catch((error) => {
      if ((error as { code?: string }).code === "offline_miss" && want) throw cacheMiss(name, want, g.generation);
      throw error;
    });
    result.status = want ? "restored" : "removed";
    if (family === "c2" && want) result.trustNotRaised = want.c2?.trusted === true && !trustedNow;
    return result;
  });
}

function cacheMiss(name: string, want: LockEntry, generation: number): GjcError {
  return new GjcError({
    code: "offline_miss",
    message: `The content of ${name} ${want.version} from generation ${generation} (${want.integrity.slice(0, 19)}…) is no longer in the content cache; rollback never uses the network.`,
    hint: `Reinstall that version from its source (gjc plugin install …), or sync a lock that pins it.`,
    details: { missing: [{ name, family: want.family, integrity: want.integrity }] },
    exit: ExitCode.unreachable,
  });
}
