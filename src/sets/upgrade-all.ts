/**
 * `gjc plugin upgrade --all`: every installed bundle of the scope(s) from its recorded source,
 * through the store's own upgrade of each family, one outcome per bundle (upgraded, unchanged,
 * failed with the reason); one bundle failing never stops the others. A scope that has a lock
 * gets its lock rewritten from the result (not on a dry run).
 */
import { existsSync } from "node:fs";
import type { Context } from "../core/context.ts";
import type { SignaturePolicy } from "../signing/check.ts";
import type { Scope } from "../install/registry-types.ts";
import { installedBundles } from "./installed.ts";
import { writeScopeLock } from "./lock.ts";
import { lockPath } from "./paths.ts";
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

export async function upgradeAll(
  ctx: Context,
  scopes: Scope[],
  o: { dryRun?: boolean } & SignaturePolicy = {},
): Promise<UpgradeAllResult> {
  // The signature policy holds for every bundle, as it does for one: --require-signed refuses
  // an unsigned upgrade and --accept-signer takes a new key, bundle by bundle.
  const signatures: SignaturePolicy = { requireSigned: o.requireSigned, acceptSigner: o.acceptSigner };
  const { upgradeGjc } = await import("../install/upgrade.ts");
  const outcomes: UpgradeOutcome[] = [];
  const locksUpdated: string[] = [];
  for (const scope of scopes) {
    for (const b of await installedBundles(ctx, scope)) {
      // C2 bundles are user-wide: the user set upgrades them, a project's set only names them.
      if (scope === "project" && b.entry.family === "c2") continue;
      const base = { name: b.entry.name, family: b.entry.family, scope, from: b.entry.version, reasons: [] };
      try {
        if (b.entry.family === "gjc") {
          const r = await upgradeGjc(ctx, b.entry.name, scope, {
            dryRun: o.dryRun,
            onProgress: (m) => ctx.log.progress(m),
            ...signatures,
          });
          outcomes.push({ ...base, to: r.version, outcome: r.status === "unchanged" ? "unchanged" : "upgraded" });
        } else {
          const { upgradeC2 } = await import("../c2store/lifecycle.ts");
          const r = await upgradeC2(ctx, b.c2?.id ?? b.entry.name, { dryRun: o.dryRun, ...signatures });
          outcomes.push({ ...base, to: r.version, outcome: r.status === "unchanged" ? "unchanged" : "upgraded" });
        }
      } catch (error) {
        outcomes.push({ ...base, outcome: "failed", reasons: [reasonOf(error)] });
      }
    }
    if (!o.dryRun) {
      await rememberScope(ctx, scope, "gjc plugin upgrade --all");
      if (existsSync(lockPath(ctx, scope)) && (await writeScopeLock(ctx, scope)).changed)
        locksUpdated.push(lockPath(ctx, scope));
    }
  }
  return { dryRun: o.dryRun === true, ok: outcomes.every((x) => x.outcome !== "failed"), outcomes, locksUpdated };
}
