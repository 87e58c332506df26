import { existsSync } from "node:fs";
import { join } from "node:path";
import { c2DataDir, type Context } from "../core/context.ts";
import { isGjcError } from "../core/errors.ts";
import { notInstalled } from "./not-installed.ts";
import { verifyGjc, type VerifyReport } from "./verify-scopes.ts";

export interface C2VerifyPart {
  ok: boolean;
  bundles: { id: string; name: string; ok: boolean; checked: number; problems: { kind: string; path: string; message: string }[]; quarantined: boolean }[];
}

export interface VerifyAllReport extends VerifyReport {
  c2: C2VerifyPart;
}

/**
 * `gjc plugin verify [<name>]` over both families: GJC bundles of both scopes, and C2 bundles
 * when a C2 store exists. A name may match in either family; it must match somewhere.
 */
export async function verifyAll(ctx: Context, name?: string): Promise<VerifyAllReport> {
  let gjc: VerifyReport;
  let gjcMissing = false;
  try {
    gjc = await verifyGjc(ctx, name);
  } catch (error) {
    if (!(isGjcError(error) && error.code === "not_installed")) throw error;
    gjc = { ok: true, bundles: [], corrupt: [] };
    gjcMissing = true;
  }
  let c2: C2VerifyPart = { ok: true, bundles: [] };
  if (existsSync(join(c2DataDir(ctx), "plugins"))) {
    const { findInstalledC2 } = await import("../c2store/records.ts");
    if (name === undefined || findInstalledC2(ctx, name)) {
      const { verifyC2 } = await import("../c2store/lifecycle.ts");
      c2 = await verifyC2(ctx, name);
    }
  }
  if (name !== undefined && gjcMissing && c2.bundles.length === 0) throw notInstalled(name);
  return { ...gjc, ok: gjc.ok && c2.ok, c2 };
}
