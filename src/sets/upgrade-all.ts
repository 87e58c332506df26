/**
 * `gjc plugin upgrade --all`: every installed bundle of the scope(s) from its recorded source,
 * through the store's own upgrade of each family, one outcome per bundle (upgraded, unchanged,
 * failed with the reason); one bundle failing never stops the others. A scope that has a lock
 * gets its lock rewritten from the result (not on a dry run).
 *
 * The upgrades of a scope are one transaction across both families: under the scope's set lock
 * a journal names every bundle as it is now (journal.ts, the way back only, since each new
 * content is known only when its family fetches it), so a crash between two upgrades is undone
 * by the next command and the scope is the old set, not half of each.
 */
import { existsSync } from "node:fs";
import type { Context } from "../core/context.ts";
import type { SignaturePolicy } from "../signing/check.ts";
import type { Scope } from "../install/registry-types.ts";
import { crashPoint } from "../store/crash-hook.ts";
import { installedBundles, type InstalledBundle } from "./installed.ts";
import { commitJournaled, withSetTransaction } from "../store/journal.ts";
import { writeScopeLock } from "./lock.ts";
import { lockPath } from "../store/set-paths.ts";
import { rememberScope } from "./remember.ts";
import { reasonOf, type SetReason } from "../core/reason.ts";

export interface UpgradeOutcome {
  name: string;
  family: "gjc" | "c2";
  scope: Scope;
  outcome: "upgraded" | "unchanged" | "failed";
  from?: string;
  to?: string;
  /** Why it failed (one reason: the refusal's gjc error code and message); empty otherwise. */
  reasons: SetReason[];
}

export interface UpgradeAllResult {
  dryRun: boolean;
  ok: boolean;
  outcomes: UpgradeOutcome[];
  locksUpdated: string[];
}

const COMMAND = "gjc plugin upgrade --all";

export async function upgradeAll(
  ctx: Context,
  scopes: Scope[],
  o: { dryRun?: boolean } & SignaturePolicy = {},
): Promise<UpgradeAllResult> {
  const outcomes: UpgradeOutcome[] = [];
  const locksUpdated: string[] = [];
  for (const scope of scopes) {
    const { finishJournal, inSetTransaction, undoOnlyJournal } = await import("./sync.ts");
    // C2 bundles are user-wide: the user set upgrades them, a project's set only names them.
    const bundlesOf = async () =>
      (await installedBundles(ctx, scope)).filter((b) => scope === "user" || b.entry.family !== "c2");
    if (o.dryRun) {
      // A dry run changes nothing, an interrupted change included (it is only reported).
      await withSetTransaction(ctx, scope, COMMAND, undefined, async () => {
        outcomes.push(...(await upgradeEach(ctx, scope, await bundlesOf(), o)));
      });
      continue;
    }
    await inSetTransaction(ctx, scope, COMMAND, async () => {
      const bundles = await bundlesOf();
      await commitJournaled(
        ctx,
        scope,
        undoOnlyJournal(ctx, scope, COMMAND, "upgrade-all", bundles),
        (j, dir) => finishJournal(ctx, j, dir),
        () => crashPoint(ctx, "upgrade-all:journaled"),
        async () => {
          outcomes.push(...(await upgradeEach(ctx, scope, bundles, o)));
          crashPoint(ctx, "upgrade-all:upgraded");
        },
      );
    });
    await rememberScope(ctx, scope, COMMAND);
    if (existsSync(lockPath(ctx, scope)) && (await writeScopeLock(ctx, scope)).changed)
      locksUpdated.push(lockPath(ctx, scope));
  }
  return { dryRun: o.dryRun === true, ok: outcomes.every((x) => x.outcome !== "failed"), outcomes, locksUpdated };
}

async function upgradeEach(
  ctx: Context,
  scope: Scope,
  bundles: InstalledBundle[],
  o: { dryRun?: boolean } & SignaturePolicy,
): Promise<UpgradeOutcome[]> {
  // The signature policy holds for every bundle, as it does for one: --require-signed refuses
  // an unsigned upgrade and --accept-signer takes a new key, bundle by bundle.
  const signatures: SignaturePolicy = { requireSigned: o.requireSigned, acceptSigner: o.acceptSigner };
  const outcomes: UpgradeOutcome[] = [];
  for (const b of bundles) {
    const base = { name: b.entry.name, family: b.entry.family, scope, from: b.entry.version, reasons: [] };
    try {
      const r =
        b.entry.family === "gjc"
          ? await (await import("../install/upgrade.ts")).upgradeGjc(ctx, b.entry.name, scope, {
              dryRun: o.dryRun,
              onProgress: (m) => ctx.log.progress(m),
              ...signatures,
            })
          : await (await import("../c2store/lifecycle.ts")).upgradeC2(ctx, b.c2?.id ?? b.entry.name, {
              dryRun: o.dryRun,
              ...signatures,
            });
      outcomes.push({ ...base, to: r.version, outcome: r.status === "unchanged" ? "unchanged" : "upgraded" });
      if (r.status !== "unchanged" && !o.dryRun) crashPoint(ctx, "upgrade-all:one-upgraded");
    } catch (error) {
      outcomes.push({ ...base, outcome: "failed", reasons: [reasonOf(error)] });
    }
  }
  return outcomes;
}
