import { existsSync } from "node:fs";
import { join } from "node:path";
import { c2DataDir, type Context } from "../core/context.ts";
import { listGjc } from "./query.ts";
import type { BundleSummary } from "./summary.ts";

export interface C2ListItem {
  family: "c2";
  id: string;
  name: string;
  version: string;
  enabled: boolean;
  trusted: boolean;
  quarantined: boolean;
}

export interface ListReport {
  ok: boolean;
  gjc: BundleSummary[];
  c2: C2ListItem[];
  corrupt: { scope: string; path: string; problem: string }[];
  human: string;
}

/** C2 bundles, read only when the C2 store exists (keeps `list` as quick as a bare start). */
async function listC2(ctx: Context): Promise<C2ListItem[]> {
  if (!existsSync(join(c2DataDir(ctx), "plugins"))) return [];
  const { listInstalledC2 } = await import("../c2store/records.ts");
  return listInstalledC2(ctx).map((b) => ({ family: "c2", id: b.id, name: b.name, version: b.version, enabled: b.enabled, trusted: b.trusted, quarantined: b.quarantine !== null }));
}

function gjcLine(b: BundleSummary): string {
  const state = b.quarantined ? "quarantined" : b.enabled ? "enabled" : "disabled";
  const c = b.counts;
  const counts = `${c.enabled} enabled, ${c.disabled} disabled, ${c.quarantined} quarantined`;
  return `  ${b.name} ${b.version}  [${b.scope}] ${state}  (${counts})  from ${b.source.display}`;
}

/** `gjc plugin list`: GJC bundles of both scopes and C2 bundles; a damaged registry is shown, not trusted. */
export async function listAll(ctx: Context): Promise<ListReport> {
  const gjc = listGjc(ctx);
  const c2 = await listC2(ctx);
  const lines: string[] = [];
  lines.push(gjc.bundles.length ? `GJC bundles (${gjc.bundles.length}):` : "GJC bundles: none installed.");
  for (const b of gjc.bundles) lines.push(gjcLine(b));
  for (const c of gjc.corrupt) lines.push(`  ${c.scope} scope: registry ${c.path} is damaged (${c.problem}); run "gjc plugin doctor".`);
  lines.push(c2.length ? `C2 bundles (${c2.length}):` : "C2 bundles: none installed.");
  for (const b of c2) lines.push(`  ${b.name} ${b.version}  ${b.quarantined ? "quarantined" : b.enabled ? "enabled" : "disabled"}${b.trusted ? ", trusted" : ", not trusted"}  (${b.id})`);
  return { ok: gjc.corrupt.length === 0, gjc: gjc.bundles, c2, corrupt: gjc.corrupt, human: lines.join("\n") };
}
