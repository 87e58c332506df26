/**
 * Runtime-check verdicts kept per bundle content, so the check that a tool factory or hook
 * registers exactly what it declares runs once per content, not at every session start. A
 * bundle's digest covers everything that can change a verdict: the harness version, the
 * declaration of every surface checked (surface id, kind, name, event, module path) and the
 * bundle's whole installed content (every file's path and sha256 from the registry, which
 * session start has just re-verified), since a module may import any file of its bundle. One
 * verdict per bundle rather than per surface: a session start of 100 bundles looks up 100
 * digests, not one per tool. A failed verdict stays failed for that content (the surface is
 * quarantined again even after a reinstall of the same bytes).
 *
 * File: `<scope root>/runtime-verdicts.json`, beside the registry (never inside it, so the
 * registry stays the single commit point of installs), its shape verdicts-schema.ts; a damaged
 * file, or one in the format of an older gjc (per surface), is simply ignored and rebuilt,
 * costing one more check.
 */
import { passCode } from "../core/codes.ts";
import { join } from "node:path";
import type { Static } from "typebox";
import { writeFileAtomic } from "../bundle/atomic-fs.ts";
import { sha256Hex } from "../bundle/hash.ts";
import type { Context } from "../core/context.ts";
import type { RegistryEntry, Scope } from "../install/registry-types.ts";
import { readStateJson, signedStateText, warnForeignState } from "../store/state-file.ts";
import { RuntimeVerdicts } from "./disk-schemas.generated.ts";
import type { RuntimeCheckResult, RuntimeTarget } from "./runtime-check.ts";
import type * as Schema from "./verdicts-schema.ts";

/** Bump when the harness or the judge changes what a verdict means. */
export const HARNESS_VERSION = 2;
const FILE = "runtime-verdicts.json";
const MAX_ENTRIES = 4096;

export type Verdict = Static<typeof Schema.Verdict>;
type VerdictsFile = Static<typeof Schema.RuntimeVerdictsSchema>;

/** The digest of one bundle's installed content and of the surfaces of it that are checked. */
export function bundleDigest(entry: RegistryEntry, targets: readonly RuntimeTarget[]): string {
  const content = entry.copiedFiles.map((f) => `${f.relativePath}\u0000${f.sha256}`).sort();
  const declarations = targets
    .map((t) => JSON.stringify([t.surfaceId, t.kind, t.name, t.event ?? null, t.path]))
    .sort();
  return sha256Hex(JSON.stringify([HARNESS_VERSION, declarations, content]));
}

/** The results a verdict gives for the targets its digest covers, in their order. */
export function resultsOf(verdict: Verdict, targets: readonly RuntimeTarget[]): RuntimeCheckResult[] {
  return targets.map((target) => {
    const failure = verdict.failed[target.surfaceId];
    return failure === undefined
      ? { target, ok: true }
      : { target, ok: false, code: passCode(failure.code), message: failure.message };
  });
}

export class VerdictStore {
  private readonly verdicts = new Map<string, Verdict>();
  private dirty = false;

  constructor(
    private readonly ctx: Context,
    private readonly root: string,
    private readonly scope: Scope,
  ) {
    // A verdict lets session start skip a check, so only one signed for this user counts: a
    // clone shipping runtime-verdicts.json beside its registry gets every tool checked again.
    const path = join(root, FILE);
    try {
      const read = readStateJson(ctx, path, { purpose: this.purpose });
      if (read.kind === "foreign") warnForeignState(ctx, "the runtime-check verdicts", path, read.problem);
      if (read.kind === "ok" && RuntimeVerdicts.check(read.value))
        for (const [k, v] of Object.entries((read.value as VerdictsFile).verdicts)) this.verdicts.set(k, v);
    } catch {
      // unreadable or damaged: every target is checked again
    }
  }

  private get purpose(): string {
    return `runtime-verdicts:${this.scope}`;
  }

  get(digest: string): Verdict | undefined {
    return this.verdicts.get(digest);
  }

  /** Records the results of all the targets one bundle digest covers. */
  record(digest: string, results: readonly RuntimeCheckResult[], at: string): void {
    const failed: Verdict["failed"] = {};
    for (const r of results)
      if (!r.ok) failed[r.target.surfaceId] = { code: r.code ?? "runtime_mismatch", message: r.message ?? "" };
    this.verdicts.delete(digest); // re-insert at the end: the oldest are dropped first
    this.verdicts.set(digest, { checkedAt: at, failed });
    this.dirty = true;
  }

  /** Writes the file when something was recorded; a failure costs only a re-check later. */
  save(): void {
    if (!this.dirty) return;
    while (this.verdicts.size > MAX_ENTRIES) this.verdicts.delete(this.verdicts.keys().next().value as string);
    try {
      const doc: VerdictsFile = { format: 2, verdicts: Object.fromEntries(this.verdicts) };
      writeFileAtomic(join(this.root, FILE), signedStateText(this.ctx, this.purpose, doc), {
        mode: 0o600,
        durable: false,
      });
      this.dirty = false;
    } catch {
      // the scope root is read-only or gone; the next session start checks again
    }
  }
}
