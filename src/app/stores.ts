import type { Context } from "../core/context.ts";
import { GjcError, usageError } from "../core/errors.ts";
import { ExitCode } from "../core/exit-codes.ts";
import type { Family, Scope } from "../store/documents.ts";
import type { FamilyAdapter } from "../store/family.ts";
import { selectedScopes, type StoreSelection } from "../store/resolve.ts";
import { families } from "./families.ts";

export interface StoreTarget {
  adapter: FamilyAdapter;
  scope: Scope;
}

const flag = (scope: Scope) => (scope === "user" ? "--user" : "--project");

/** Every (family, scope) store the selection names, in the order the verbs report them. */
export async function selectedStores(sel: StoreSelection): Promise<StoreTarget[]> {
  if (sel.family !== undefined && sel.family !== "gjc" && sel.family !== "c2") {
    throw usageError(
      `--family must be gjc or c2, not ${JSON.stringify(sel.family)}.`,
      "gjc: bundles with gajae-plugin.json; c2: bundles with plugin.json.",
      "invalid_option_value",
    );
  }
  const scopes = selectedScopes(sel);
  return (await families())
    .filter((a) => sel.family === undefined || a.family === (sel.family as Family))
    .flatMap((adapter) => adapter.scopes.filter((s) => scopes.includes(s)).map((scope) => ({ adapter, scope })));
}

/**
 * The one name resolver of the store verbs: `<name>` is looked up in every family and scope
 * the selection allows. One match is the target; none is `not_installed` (naming where the
 * bundle is, when a flag excluded it); several is `ambiguous_plugin` (exit 2), listing every
 * match with the flag that picks it. A store that cannot be read fails closed when the name
 * is found nowhere else.
 */
export async function resolveInstalled(ctx: Context, name: string, sel: StoreSelection): Promise<StoreTarget> {
  const selected = await selectedStores(sel);
  const hits: StoreTarget[] = [];
  let unreadable: Error | undefined;
  for (const t of selected) {
    const held = await t.adapter.holds(ctx, name, t.scope);
    if (held.found) hits.push(t);
    else if (held.problem) unreadable ??= held.problem;
  }
  if (hits.length === 1) return hits[0];
  if (hits.length > 1) {
    const choices = hits.map((h) => `${h.adapter.family} ${h.scope}`);
    const families = new Set(hits.map((h) => h.adapter.family));
    const pick = hits.map((h) =>
      families.size > 1
        ? `--family ${h.adapter.family}${hits.filter((x) => x.adapter.family === h.adapter.family).length > 1 ? ` ${flag(h.scope)}` : ""}`
        : flag(h.scope),
    );
    throw new GjcError({
      code: "ambiguous_plugin",
      message: `${name} is installed in several places: ${choices.join(", ")}.`,
      hint: `Say which one: ${[...new Set(pick)].join(" or ")}.`,
      details: { name, matches: hits.map((h) => ({ family: h.adapter.family, scope: h.scope })) },
      exit: ExitCode.usage,
    });
  }
  if (unreadable) throw unreadable;
  const all = await selectedStores({});
  const elsewhere: StoreTarget[] = [];
  for (const t of all)
    if (
      !selected.some((s) => s.adapter === t.adapter && s.scope === t.scope) &&
      (await t.adapter.holds(ctx, name, t.scope)).found
    )
      elsewhere.push(t);
  throw new GjcError({
    code: "not_installed",
    message: `No bundle named ${JSON.stringify(name)} is installed${sel.user || sel.project || sel.family ? " where you looked" : ""}.`,
    hint: elsewhere.length
      ? `It is installed as ${elsewhere.map((t) => `${t.adapter.family} in the ${t.scope} scope`).join(" and ")}; drop or change the flags.`
      : 'Run "gjc plugin list" to see what is installed, and in which scope.',
    details: { name },
    exit: ExitCode.failed,
  });
}
