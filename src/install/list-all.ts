import { existsSync } from "node:fs";
import { join } from "node:path";
import { c2DataDir, gjcProjectRoot, gjcUserRoot, type Context } from "../core/context.ts";
import { readScopeSummaries } from "./list-index.ts";
import type { Scope } from "./registry-types.ts";
import type { BundleSummary } from "./summary.ts";

export interface GjcListing {
  bundles: BundleSummary[];
  /** Scopes that could not be read; their bundles are not listed (fail closed). */
  corrupt: { scope: Scope; path: string; problem: string }[];
}

/** Both scopes, user first; a damaged registry is reported, not trusted. */
export async function listGjc(ctx: Context): Promise<GjcListing> {
  const out: GjcListing = { bundles: [], corrupt: [] };
  for (const scope of ["user", "project"] as Scope[]) {
    const read = await readScopeSummaries(scope === "user" ? gjcUserRoot(ctx) : gjcProjectRoot(ctx.cwd), scope);
    if (!read.ok) out.corrupt.push({ scope, path: read.path, problem: read.problem });
    else out.bundles.push(...read.bundles);
  }
  return out;
}

/** A C2 row as the C2 lifecycle lists it (kept open: the C2 developer owns its fields). */
export interface C2ListItem {
  family: "c2";
  id: string;
  name: string;
  version: string;
  enabled: boolean;
  trusted: boolean;
  quarantine: unknown;
  [field: string]: unknown;
}

export interface ListReport {
  ok: boolean;
  gjc: BundleSummary[];
  c2: C2ListItem[];
  c2Broken: { id: string; problem: string }[];
  corrupt: { scope: string; path: string; problem: string }[];
  human: string;
}

/** C2 bundles, read only when the C2 store exists (keeps `list` as quick as a bare start). */
async function listC2(ctx: Context): Promise<{ plugins: C2ListItem[]; broken: { id: string; problem: string }[] }> {
  if (!existsSync(join(c2DataDir(ctx), "plugins"))) return { plugins: [], broken: [] };
  const { listC2: list } = await import("../c2store/lifecycle.ts");
  const r = list(ctx);
  return { plugins: r.plugins as unknown as C2ListItem[], broken: r.broken };
}

function gjcLine(b: BundleSummary): string {
  const state = b.quarantined ? "quarantined" : b.enabled ? "enabled" : "disabled";
  const c = b.counts;
  const counts = `${c.enabled} enabled, ${c.disabled} disabled, ${c.quarantined} quarantined`;
  return `  ${b.name} ${b.version}  [${b.scope}] ${state}  (${counts})  from ${b.source.display}`;
}

/** `gjc plugin list`: GJC bundles of both scopes and C2 bundles; a damaged registry is shown, not trusted. */
export async function listAll(ctx: Context): Promise<ListReport> {
  const gjc = await listGjc(ctx);
  const { plugins: c2, broken } = await listC2(ctx);
  const lines: string[] = [];
  lines.push(gjc.bundles.length ? `GJC bundles (${gjc.bundles.length}):` : "GJC bundles: none installed.");
  for (const b of gjc.bundles) lines.push(gjcLine(b));
  for (const c of gjc.corrupt) lines.push(`  ${c.scope} scope: registry ${c.path} is damaged (${c.problem}); run "gjc plugin doctor".`);
  lines.push(c2.length ? `C2 bundles (${c2.length}):` : "C2 bundles: none installed.");
  for (const b of c2) {
    const row = b as unknown as import("../c2store/lifecycle.ts").C2ListRow;
    // A runtime waiting for a service this host lacks is pending, never shown as enabled.
    const pending = b.enabled && !b.quarantine && row.missing_services.length > 0 ? `pending (this host lacks ${row.missing_services.join(", ")})` : undefined;
    lines.push(`  ${b.name} ${b.version}  ${b.quarantine ? "quarantined" : pending ?? (b.enabled ? "enabled" : "disabled")}${b.trust_state === "needs_retrust" ? ", needs re-trust" : b.trusted ? ", trusted" : ", not trusted"}  (${b.id})`);
    // Contribution counts, components waiting for trust or unsupported, diagnostics (C2 rows).
    const counts = Object.entries(row.contributions).filter(([, n]) => n > 0).map(([k, n]) => `${k} ${n}`).join(", ");
    const needsTrust = row.components.filter((c) => c.effective_status === "requires_trust").length;
    const unsupported = row.components.filter((c) => c.effective_status === "unsupported").length;
    const diagnostics = row.diagnostics.warnings + row.diagnostics.errors;
    lines.push(`    ${counts || "no contributions"}${needsTrust ? ` · ${needsTrust} need trust` : ""}${unsupported ? ` · ${unsupported} unsupported` : ""}${diagnostics ? ` · ${diagnostics} diagnostic${diagnostics === 1 ? "" : "s"}` : ""}`);
  }
  for (const b of broken) lines.push(`  ${b.id}: unusable record (${b.problem}); run "gjc plugin doctor".`);
  return { ok: gjc.corrupt.length === 0, gjc: gjc.bundles, c2, c2Broken: broken, corrupt: gjc.corrupt, human: lines.join("\n") };
}
