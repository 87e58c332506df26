import type { Context } from "../core/context.ts";
import type { DoctorResult } from "../store/documents.ts";
import type { StoreSelection } from "../store/resolve.ts";
import { selectedStores } from "./stores.ts";

/** `gjc plugin doctor [--fix]` over the selected stores of both families. */
export async function doctorStores(
  ctx: Context,
  sel: StoreSelection,
  fix: boolean,
  adopt = false,
): Promise<DoctorResult> {
  const out: DoctorResult = { ok: true, fix, stores: [], findings: [] };
  const stores = await selectedStores(sel);
  // A pending set transaction first (src/sets/doctor.ts): --fix finishes it before the stores
  // are examined, so their findings are those of the whole old or new set. It is reported with
  // the GJC store of its scope, beside which its journal lives.
  const { setDoctor } = await import("../sets/doctor.ts");
  const pending = await setDoctor(
    ctx,
    stores.filter((t) => t.adapter.family === "gjc").map((t) => t.scope),
    fix,
  );
  out.findings.push(...pending.map((f) => (f.fixable ? { ...f, command: `gjc plugin doctor --fix --${f.scope}` } : f)));
  for (const t of stores) {
    const r = await t.adapter.doctor(ctx, t.scope, fix, { adopt });
    out.stores.push(r.store);
    // Every finding names the command that fixes it: its own, or doctor --fix for what that repairs.
    out.findings.push(
      ...r.findings.map((f) =>
        f.command === undefined && f.fixable
          ? { ...f, command: `gjc plugin doctor --fix${t.adapter.scopes.length > 1 ? ` --${f.scope}` : ""}` }
          : f,
      ),
    );
    const grants = (await import("../store/grants.ts")).grantsFinding(ctx, t.adapter.family, t.scope);
    if (grants) out.findings.push(grants);
  }
  out.ok = out.findings.every((f) => f.severity === "info" || f.fixed === true);
  // Which mechanisms confine plugin processes here (src/process/sandbox/).
  out.sandbox = (await import("../process/sandbox/status.ts")).sandboxStatus(ctx.env);
  return out;
}
