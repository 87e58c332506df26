import type { Context } from "../core/context.ts";
import type { C2FlagResult } from "../c2store/lifecycle.ts";

/**
 * `gjc plugin trust|untrust <name>` (C2 only: GJC bundles have no trust switch). A sync or
 * rollback killed half-way is finished first (src/sets/journal.ts), so trust is decided on
 * the set that change left, never on a half-changed one; then a generation is recorded.
 */
export async function setBundleTrusted(
  ctx: Context,
  name: string,
  trusted: boolean,
  passEnv?: string[],
): Promise<C2FlagResult> {
  const [{ storeChange }, { setC2Trusted }] = await Promise.all([
    import("../sets/remember.ts"),
    import("../c2store/lifecycle.ts"),
  ]);
  return storeChange(ctx, `gjc plugin ${trusted ? "trust" : "untrust"}`, false, () =>
    setC2Trusted(ctx, name, trusted, passEnv),
  );
}
