import type { Context } from "../core/context.ts";
import type { RuntimeCheckSummary } from "../gjcsession/session.ts";
import type { PinCheck } from "./mcp-probe.ts";
import type { VerifyResult } from "../store/documents.ts";
import type { StoreSelection } from "../store/resolve.ts";
import { resolveInstalled, selectedStores } from "./stores.ts";

/** What `gjc plugin verify` checks besides the installed files. */
export interface VerifyOptions extends StoreSelection {
  /** Load each active GJC tool and hook module in an isolated child and hold it to its declaration. */
  runtime?: boolean;
  /** Probe every pinned MCP server and hold its tool definitions to the pins. */
  mcp?: boolean;
}

/** The `gjc/verify@1` document (minus `schema`), with the --runtime and --mcp parts typed. */
export type VerifyReport = Omit<VerifyResult, "runtime" | "mcp"> & {
  runtime?: RuntimeCheckSummary;
  mcp?: { ok: boolean; servers: PinCheck[] };
};

/**
 * `gjc plugin verify [<name>] [--runtime] [--mcp]`: re-hash every installed file (drift
 * quarantines, a clean check clears), then what was asked for; `ok` only when everything holds.
 * The runtime and MCP checkers are loaded only when asked for.
 */
export async function verifyBundles(
  ctx: Context,
  name: string | undefined,
  opts: VerifyOptions = {},
): Promise<VerifyReport> {
  const files = await verifyFiles(ctx, name, opts);
  const runtime = opts.runtime
    ? await (await import("../gjcsession/runtime-verify.ts")).verifyRuntime(ctx, name)
    : undefined;
  const pins = opts.mcp ? await import("./mcp-probe.ts") : undefined;
  const mcp = pins ? await pins.verifyMcpPins(ctx, name) : undefined;
  const ok = files.ok && (runtime?.failed ?? 0) === 0 && (mcp?.ok ?? true);
  const report = { ...files, ok, ...(runtime ? { runtime } : {}), ...(mcp ? { mcp } : {}) };
  // A drifted server is refused with the code probe gives it; the whole report rides along.
  const drifted = mcp?.servers.filter((s) => s.status === "drift") ?? [];
  if (pins && drifted.length > 0) throw pins.verifyDriftError(drifted, report);
  return report;
}

async function verifyFiles(ctx: Context, name: string | undefined, sel: StoreSelection): Promise<VerifyReport> {
  const targets = name === undefined ? await selectedStores(sel) : [await resolveInstalled(ctx, name, sel)];
  const out: VerifyReport = { ok: true, bundles: [], problems: [] };
  for (const t of targets) {
    const r = await t.adapter.verify(ctx, t.scope, name);
    out.bundles.push(...r.bundles);
    out.problems.push(...r.problems);
  }
  out.ok = out.problems.length === 0 && out.bundles.every((b) => b.ok);
  return out;
}
