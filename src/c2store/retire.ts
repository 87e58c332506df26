import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { liveProcessesNotice } from "../store/live-registry.ts";
import type { Context } from "../core/context.ts";
import type { Diagnostic } from "../core/diagnostics.ts";
import { GjcError } from "../core/errors.ts";
import { ExitCode } from "../core/exit-codes.ts";
import { retireDir } from "../store/commit.ts";
import { crashPoint } from "../store/crash-hook.ts";
import { runBeforeUninstall } from "./hooks.ts";
import { uniqueSuffix } from "./leftovers.ts";
import { bundleHome, policyKey, userDataDir, type C2Layout } from "./paths.ts";
import { clonePolicy, parsePolicyDocument } from "./policy-doc.ts";
import { commitPolicy, markLastGood, openPolicy } from "./policy-store.ts";
import type { InstalledRecord } from "./record.ts";
import { toInstalled } from "./records.ts";

/**
 * Removes one installed bundle under the C2 lock the caller holds: its runtime is stopped, its
 * policy forgotten, its home renamed aside (the commit point) and deleted, and its data
 * directory removed unless kept. Uninstall and a --force install from another source use it.
 * Returns whether any policy was forgotten.
 */
export async function retireC2Bundle(
  ctx: Context,
  layout: C2Layout,
  record: InstalledRecord,
  opts: { keepData?: boolean; warnings?: Diagnostic[] } = {},
): Promise<boolean> {
  // Another gjc host running it stops its processes when it sees the bundle go (store/live-registry.ts).
  const notice = liveProcessesNotice(layout.root, record.id, record.name, "uninstall");
  if (notice) opts.warnings?.push(notice);
  await runBeforeUninstall(ctx, toInstalled(layout, record));
  const forgotten = forgetPolicy(ctx, layout, record.id, opts.warnings ?? []);
  crashPoint(ctx, "c2uninstall:policy-forgotten");
  // The rename aside is the commit point: the bundle home carries its record.
  if (
    !retireDir(bundleHome(layout, record.id), join(layout.plugins, `.${record.id}.trash-${uniqueSuffix()}`), () =>
      crashPoint(ctx, "c2uninstall:trashed"),
    )
  ) {
    throw new GjcError({
      code: "not_installed",
      message: `${record.name} (${record.id}) was removed while the uninstall ran.`,
      hint: 'Run "gjc plugin list" to see what is installed.',
      exit: ExitCode.failed,
    });
  }
  if (!opts.keepData) rmSync(userDataDir(layout, record.id), { recursive: true, force: true });
  return forgotten;
}

function forgetPolicy(ctx: Context, layout: C2Layout, id: string, warnings: Diagnostic[]): boolean {
  const key = policyKey(id);
  const view = openPolicy(layout);
  if (view.recovery.kind !== "normal") {
    warnings.push({
      code: "policy_recovery",
      severity: "warning",
      path: layout.policy,
      message: `The policy file is in ${view.recovery.kind}; the policy of ${key} was left for "gjc plugin policy reset" to clear.`,
    });
    return false;
  }
  const strip = (doc: ReturnType<typeof clonePolicy>) => {
    const next = clonePolicy(doc);
    let had = key in next.user;
    delete next.user[key];
    for (const map of Object.values(next.projects)) {
      if (key in map) had = true;
      delete map[key];
    }
    return { next, had };
  };
  const { next, had } = strip(view.doc);
  if (had) commitPolicy(layout, view, next, ctx.now());
  // The last good copy must not bring the policy back if the primary is ever restored from it.
  let lastGoodText: string | undefined;
  try {
    lastGoodText = readFileSync(layout.policyLastGood, "utf8");
  } catch {}
  const lastGood = parseOptional(lastGoodText);
  if (lastGood) {
    const cleaned = strip(lastGood);
    if (cleaned.had) markLastGood(layout, cleaned.next);
  }
  return had;
}

function parseOptional(docText: string | undefined) {
  if (docText === undefined) return undefined;
  const parsed = parsePolicyDocument(docText);
  return parsed.ok ? parsed.doc : undefined;
}
