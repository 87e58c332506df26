/**
 * Seams for the C2 runtime (src/c2host). The store never starts or stops processes itself;
 * whoever owns running runtimes registers here, and the store calls in at the right moments:
 *
 *  - beforeUninstall: stop every realm of the bundle (all projects) and reap its processes
 *    before its files are removed. Throwing aborts the uninstall with nothing removed.
 *  - recordChanging: the bundle is being disabled or untrusted (the record passed is the new
 *    one); stop what may no longer run. Throwing leaves the record unchanged.
 *  - settle: after a policy change is written, bring the runtime to the requested state, or
 *    throw to say it could not be reached; the store then rolls the policy back and does not
 *    advance last-known-good.
 *  - activeResources: what a change would stop right now (listed in a plan's impact): everything
 *    of the bundle in that scope for a disable ("all"), only its runtime processes for a config
 *    change ("runtime").
 *
 * Hooks run in the process that runs the command; a long-running host (`gjc host --stdio`)
 * registers its own at start-up.
 */
import type { Context } from "../core/context.ts";
import type { EffectivePolicy } from "./policy.ts";
import type { InstalledC2 } from "./records.ts";

export interface SettleRequest {
  installed: InstalledC2;
  /** Normalized project path, or undefined for the user scope. */
  projectPath?: string;
  /** The policy now in force for that scope (already written). */
  effective: EffectivePolicy;
}

export interface ActiveResource {
  plugin: string;
  kind: "plugin-scope" | "service" | "process";
  id: string;
  label: string;
}

export type ResourceSelection = "all" | "runtime";

type Hook<A extends unknown[], R> = (ctx: Context, ...args: A) => R | Promise<R>;

export const c2StoreHooks = {
  beforeUninstall: [] as Hook<[InstalledC2], void>[],
  recordChanging: [] as Hook<[InstalledC2], void>[],
  settle: [] as Hook<[SettleRequest], void>[],
  activeResources: [] as Hook<[InstalledC2, string | undefined, ResourceSelection], ActiveResource[]>[],
};

export async function runBeforeUninstall(ctx: Context, installed: InstalledC2): Promise<void> {
  for (const hook of c2StoreHooks.beforeUninstall) await hook(ctx, installed);
}

export async function runRecordChanging(ctx: Context, installed: InstalledC2): Promise<void> {
  for (const hook of c2StoreHooks.recordChanging) await hook(ctx, installed);
}

export async function runSettle(ctx: Context, request: SettleRequest): Promise<void> {
  for (const hook of c2StoreHooks.settle) await hook(ctx, request);
}

export async function collectActiveResources(
  ctx: Context,
  installed: InstalledC2,
  projectPath: string | undefined,
  which: ResourceSelection,
): Promise<ActiveResource[]> {
  const out: ActiveResource[] = [];
  for (const hook of c2StoreHooks.activeResources) out.push(...(await hook(ctx, installed, projectPath, which)));
  return out;
}
