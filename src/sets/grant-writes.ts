/**
 * Writes of the grants files under each store's own lock: what allow, uninstall and sync share.
 */
import type { Context } from "../core/context.ts";
import { LOCK_FILE, scopeLabel } from "../families/gjc/layout.ts";
import {
  bundleKey,
  grantsForeign,
  grantStore,
  readGrants,
  writeGrants,
  type GrantFamily,
  type GrantScope,
  type GrantSet,
} from "../store/grants.ts";
import { lockTimeout, withLock } from "../store/lock.ts";
import { gjcTrustedBase } from "../store/scope-path.ts";

/** The lock that guards a store's grants: the store's own (GJC scope lock, C2 lock). */
export async function withStoreLock<T>(
  ctx: Context,
  family: GrantFamily,
  scope: GrantScope,
  root: string,
  fn: () => T,
): Promise<T> {
  if (family === "c2") {
    const { withC2Lock } = await import("../c2store/lock.ts");
    return withC2Lock(ctx, "gjc plugin allow", fn) as Promise<T>;
  }
  return withLock(
    root,
    {
      command: "gjc plugin allow",
      file: LOCK_FILE,
      timeoutMs: lockTimeout(ctx),
      label: scopeLabel(scope),
      trustedBase: gjcTrustedBase(root, scope),
    },
    fn,
  );
}

/** Makes a bundle's recorded grants exactly `grants` (what sync does with a lock's). */
export async function setBundleGrants(
  ctx: Context,
  family: GrantFamily,
  scope: GrantScope,
  name: string,
  grants: { bundle: GrantSet; processes: Record<string, GrantSet> },
): Promise<void> {
  const store = grantStore(ctx, family, scope);
  await withStoreLock(ctx, family, scope, store.root, () => {
    const current = readGrants(ctx, store);
    if (current.state === "foreign") throw grantsForeign(current);
    writeGrants(ctx, store, { ...current.bundles, [bundleKey(family, name)]: grants });
  });
}

/** Takes back every grant of a bundle (uninstall). A foreign grants file is left as it is: nothing in it applies anyway. */
export async function dropBundleGrants(
  ctx: Context,
  family: GrantFamily,
  scope: GrantScope,
  name: string,
): Promise<void> {
  const store = grantStore(ctx, family, scope);
  const key = bundleKey(family, name);
  const first = readGrants(ctx, store);
  if (first.state !== "signed" || !first.bundles[key]) return;
  await withStoreLock(ctx, family, scope, store.root, () => {
    const current = readGrants(ctx, store);
    if (current.state !== "signed" || !current.bundles[key]) return;
    const { [key]: _dropped, ...rest } = current.bundles;
    writeGrants(ctx, store, rest);
  });
}
