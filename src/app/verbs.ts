/**
 * The store verbs as core functions, one per verb, for both families: each resolves its target
 * through the name resolver, calls the family adapter, and returns the verb's document (minus
 * `schema`). Commands parse, call one of these, and render. Hosts and other modules use them
 * as the store's public entry points.
 */
import type { Context } from "../core/context.ts";
import type { DoctorResult, EnablementResult, InspectBundle, InstallResult, ListDocument, UninstallResult, VerifyResult } from "../store/documents.ts";
import type { RuntimeCheckSummary } from "../gjcsession/session.ts";
import type { PinCheck } from "../mcp/pins-probe.ts";
import type { C2FlagResult } from "../c2store/lifecycle.ts";
import type { StoreSelection } from "../store/resolve.ts";
import { resolveInstalled, selectedStores } from "./stores.ts";

// The mutating verbs load the plugin-set layer (sets/remember.ts: finish a pending set change,
// then record a generation) only when they run, so list, inspect and verify never load it.

export type { StoreSelection } from "../store/resolve.ts";

/** `gjc plugin list`: every bundle of the selected stores as one array of rows of one shape. */
export async function listBundles(ctx: Context, sel: StoreSelection = {}): Promise<Omit<ListDocument, "schema">> {
  const out: Omit<ListDocument, "schema"> = { ok: true, bundles: [], problems: [] };
  for (const t of await selectedStores(sel)) {
    const r = await t.adapter.list(ctx, t.scope);
    out.bundles.push(...r.bundles);
    out.problems.push(...r.problems);
  }
  out.ok = out.problems.length === 0;
  return out;
}

/** `gjc plugin inspect <name>`: one bundle, wherever the resolver finds it. */
export async function inspectBundle(ctx: Context, name: string, sel: StoreSelection = {}): Promise<InspectBundle> {
  const t = await resolveInstalled(ctx, name, sel);
  return t.adapter.inspect(ctx, name, t.scope);
}

/** `gjc plugin uninstall <name>`. */
export async function uninstallBundle(ctx: Context, name: string, sel: StoreSelection, opts: { dryRun?: boolean; keepData?: boolean } = {}): Promise<UninstallResult> {
  const { storeChange } = await import("../sets/remember.ts");
  return storeChange(ctx, "gjc plugin uninstall", opts.dryRun, async () => {
    const t = await resolveInstalled(ctx, name, sel);
    return t.adapter.uninstall(ctx, name, t.scope, opts);
  });
}

/** `gjc plugin enable|disable <name> [--surface <id>]`. */
export async function setBundleEnabled(ctx: Context, name: string, enabled: boolean, sel: StoreSelection, surface?: string): Promise<EnablementResult> {
  const { storeChange } = await import("../sets/remember.ts");
  return storeChange(ctx, `gjc plugin ${enabled ? "enable" : "disable"}`, false, async () => {
    const t = await resolveInstalled(ctx, name, sel);
    return t.adapter.setEnabled(ctx, name, t.scope, enabled, surface);
  });
}

/**
 * `gjc plugin trust|untrust <name>` (C2 only: GJC bundles have no trust switch). A sync or
 * rollback killed half-way is finished first (src/sets/journal.ts), so trust is decided on
 * the set that change left, never on a half-changed one; then a generation is recorded.
 */
export async function setBundleTrusted(ctx: Context, name: string, trusted: boolean, passEnv?: string[]): Promise<C2FlagResult> {
  const [{ storeChange }, { setC2Trusted }] = await Promise.all([import("../sets/remember.ts"), import("../c2store/lifecycle.ts")]);
  return storeChange(ctx, `gjc plugin ${trusted ? "trust" : "untrust"}`, false, () => setC2Trusted(ctx, name, trusted, passEnv));
}

/** `gjc plugin upgrade <name>`: re-fetch the recorded source and install it over the bundle. */
export async function upgradeBundle(ctx: Context, name: string, sel: StoreSelection, opts: { dryRun?: boolean } = {}): Promise<InstallResult> {
  const { storeChange } = await import("../sets/remember.ts");
  return storeChange(ctx, "gjc plugin upgrade", opts.dryRun, async () => {
    const t = await resolveInstalled(ctx, name, sel);
    return t.adapter.upgrade(ctx, name, t.scope, opts);
  });
}

/** What `gjc plugin verify` checks besides the installed files. */
export interface VerifyOptions extends StoreSelection {
  /** Load each active GJC tool and hook module in an isolated child and hold it to its declaration. */
  runtime?: boolean;
  /** Probe every pinned MCP server and hold its tool definitions to the pins. */
  mcp?: boolean;
}

/** The `gjc/verify@1` document (minus `schema`), with the --runtime and --mcp parts typed. */
export type VerifyReport = Omit<VerifyResult, "runtime" | "mcp"> & { runtime?: RuntimeCheckSummary; mcp?: { ok: boolean; servers: PinCheck[] } };

/**
 * `gjc plugin verify [<name>] [--runtime] [--mcp]`: re-hash every installed file (drift
 * quarantines, a clean check clears), then what was asked for; `ok` only when everything holds.
 * The runtime and MCP checkers are loaded only when asked for.
 */
export async function verifyBundles(ctx: Context, name: string | undefined, opts: VerifyOptions = {}): Promise<VerifyReport> {
  const files = await verifyFiles(ctx, name, opts);
  const runtime = opts.runtime ? await (await import("../gjcsession/runtime-verify.ts")).verifyRuntime(ctx, name) : undefined;
  const mcp = opts.mcp ? await (await import("../mcp/pins-probe.ts")).verifyMcpPins(ctx, name) : undefined;
  const ok = files.ok && (runtime?.failed ?? 0) === 0 && (mcp?.ok ?? true);
  return { ...files, ok, ...(runtime ? { runtime } : {}), ...(mcp ? { mcp } : {}) };
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

/** `gjc plugin doctor [--fix]` over the selected stores of both families. */
export async function doctorStores(ctx: Context, sel: StoreSelection, fix: boolean, adopt = false): Promise<DoctorResult> {
  const out: DoctorResult = { ok: true, fix, stores: [], findings: [] };
  const stores = await selectedStores(sel);
  // A pending set transaction first (src/sets/doctor.ts): --fix finishes it before the stores
  // are examined, so their findings are those of the whole old or new set. It is reported with
  // the GJC store of its scope, beside which its journal lives.
  const { setDoctor } = await import("../sets/doctor.ts");
  const pending = await setDoctor(ctx, stores.filter((t) => t.adapter.family === "gjc").map((t) => t.scope), fix);
  out.findings.push(...pending.map((f) => (f.fixable ? { ...f, command: `gjc plugin doctor --fix --${f.scope}` } : f)));
  for (const t of stores) {
    const r = await t.adapter.doctor(ctx, t.scope, fix, { adopt });
    out.stores.push(r.store);
    // Every finding names the command that fixes it: its own, or doctor --fix for what that repairs.
    out.findings.push(...r.findings.map((f) => (f.command === undefined && f.fixable ? { ...f, command: `gjc plugin doctor --fix${t.adapter.scopes.length > 1 ? ` --${f.scope}` : ""}` } : f)));
  }
  out.ok = out.findings.every((f) => f.severity === "info" || f.fixed === true);
  return out;
}
