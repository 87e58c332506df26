/**
 * The C2 part of a project's set: the project's policy state for its C2 bundles (those with
 * explicit policy here, which are also entries of the project lock; C2 installs are user-wide,
 * so sync --project installs them for the user). The project lock keeps, per
 * bundle with explicit policy here, its state and per-component states, never its `config`
 * (any JSON, which may hold secrets). sync --project applies them through the policy plane's
 * own plan and apply (revision-bound, settle-checked); policy never grants trust.
 */
import { existsSync } from "node:fs";
import type { Context } from "../core/context.ts";
import type { LockPolicy } from "../store/plugins-lock-schema.ts";

const sortedComponents = (c: Record<string, string>) =>
  Object.fromEntries(
    Object.keys(c)
      .sort()
      .map((k) => [k, c[k]]),
  ) as LockPolicy["components"];

/** The explicit C2 policy of the current project, by bundle name (empty without a C2 store). */
export async function projectPolicy(ctx: Context): Promise<LockPolicy[]> {
  const { c2Layout } = await import("../c2store/paths.ts");
  if (!existsSync(c2Layout(ctx).plugins)) return [];
  const { policyCatalog } = await import("../c2store/policy-catalog.ts");
  const out: LockPolicy[] = [];
  for (const p of policyCatalog(ctx, { project: ctx.cwd }).plugins) {
    if (p.state === "inherit" && Object.keys(p.components).length === 0) continue;
    // Component keys carry the installed id (`bundle:<id>:ui:go`), which depends on where the
    // bundle was installed from; the lock keeps the bundle-relative id (`ui:go`), as plan takes it.
    const prefix = `${p.id}:`;
    const components: Record<string, string> = {};
    for (const [k, v] of Object.entries(p.components))
      components[k.startsWith(prefix) ? k.slice(prefix.length) : k] = v;
    out.push({ name: p.name, state: p.state, components: sortedComponents(components) });
  }
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** Equal state and components (absent = inherit everywhere); the name is not compared. */
export function samePolicy(a: LockPolicy | undefined, b: LockPolicy | undefined): boolean {
  const key = (p: LockPolicy | undefined) =>
    JSON.stringify([p?.state ?? "inherit", sortedComponents(p?.components ?? {})]);
  return key(a) === key(b);
}

export interface PolicyOutcome {
  name: string;
  /** applied: the project policy now equals the lock's; missing: the C2 bundle is not installed for this user. */
  action: "unchanged" | "applied" | "missing";
}

/** What applying the lock's policies would do (read-only). */
export async function planPolicies(ctx: Context, want: LockPolicy[]): Promise<PolicyOutcome[]> {
  const have = new Map((await projectPolicy(ctx)).map((p) => [p.name, p]));
  const installed = new Set<string>();
  if (want.length > 0) {
    const { listInstalledC2 } = await import("../c2store/records.ts");
    for (const r of listInstalledC2(ctx)) installed.add(r.name);
  }
  const out: PolicyOutcome[] = [];
  for (const w of want) {
    if (!installed.has(w.name)) out.push({ name: w.name, action: "missing" });
    else out.push({ name: w.name, action: samePolicy(have.get(w.name), w) ? "unchanged" : "applied" });
  }
  // Explicit policy here that the lock does not name goes back to inherit.
  for (const [name] of have) if (!want.some((w) => w.name === name)) out.push({ name, action: "applied" });
  return out;
}

/** Makes the project's policy for each bundle the lock's (plan + apply per state and component). */
export async function applyPolicies(ctx: Context, want: LockPolicy[], outcomes: PolicyOutcome[]): Promise<void> {
  const { planPolicyChange, applyPolicyPlan } = await import("../c2store/policy-plane.ts");
  const have = new Map((await projectPolicy(ctx)).map((p) => [p.name, p]));
  const change = async (plugin: string, state: "enabled" | "disabled" | "inherit", component?: string) => {
    const plan = await planPolicyChange(ctx, {
      plugin,
      state,
      project: ctx.cwd,
      ...(component !== undefined ? { component } : {}),
    });
    if (!plan.noop) await applyPolicyPlan(ctx, plan.token);
  };
  for (const o of outcomes) {
    if (o.action !== "applied") continue;
    const w = want.find((x) => x.name === o.name) ?? { name: o.name, state: "inherit" as const, components: {} };
    const h = have.get(o.name) ?? { name: o.name, state: "inherit" as const, components: {} };
    if (w.state !== h.state) await change(o.name, w.state);
    for (const id of new Set([...Object.keys(w.components), ...Object.keys(h.components)])) {
      const target = w.components[id] ?? "inherit";
      if (target !== (h.components[id] ?? "inherit")) await change(o.name, target, id);
    }
  }
}
