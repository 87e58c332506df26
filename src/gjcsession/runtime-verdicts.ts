/**
 * Runtime-check verdicts kept per content digest, so the check that a tool factory or hook
 * registers exactly what it declares runs once per content, not at every session start. The
 * digest covers everything that can change the verdict: the harness version, the surface's
 * declaration (kind, name, event, module path) and the bundle's whole installed content (every
 * file's path and sha256 from the registry, which session start has just re-verified, hashed
 * once per bundle), since
 * a module may import any file of its bundle. A failed verdict stays failed for that content
 * (the surface is quarantined again even after a reinstall of the same bytes).
 *
 * File: `<scope root>/runtime-verdicts.json`, beside the registry (never inside it, so the
 * registry stays the single commit point of installs), its shape verdicts-schema.ts; a damaged
 * file is simply ignored and rebuilt, costing one more check.
 */
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import type { Static } from "typebox";
import { writeFileAtomic } from "../bundle/atomic-fs.ts";
import { sha256Hex } from "../bundle/hash.ts";
import type { RegistryEntry } from "../install/registry-types.ts";
import { RuntimeVerdicts } from "../store/disk-schemas.generated.ts";
import type { RuntimeCheckResult, RuntimeTarget } from "./runtime-check.ts";
import type * as Schema from "./verdicts-schema.ts";

/** Bump when the harness or the judge changes what a verdict means. */
export const HARNESS_VERSION = 2;
const FILE = "runtime-verdicts.json";
const MAX_ENTRIES = 4096;

export type Verdict = Static<typeof Schema.Verdict>;
type VerdictsFile = Static<typeof Schema.RuntimeVerdictsSchema>;

// One digest of a bundle's installed content, shared by all its targets (a bundle with many
// tools would otherwise sort and hash its whole file list once per tool).
const contentDigests = new WeakMap<RegistryEntry, string>();

function contentDigest(entry: RegistryEntry): string {
  let digest = contentDigests.get(entry);
  if (digest === undefined) {
    digest = sha256Hex(JSON.stringify(entry.copiedFiles.map((f) => `${f.relativePath}\u0000${f.sha256}`).sort()));
    contentDigests.set(entry, digest);
  }
  return digest;
}

export function targetDigest(target: RuntimeTarget, entry: RegistryEntry): string {
  const declaration = [HARNESS_VERSION, target.kind, target.name, target.event ?? null, relative(target.pluginRoot, target.module).split("\\").join("/")];
  return sha256Hex(JSON.stringify([declaration, contentDigest(entry)]));
}

export class VerdictStore {
  private readonly verdicts = new Map<string, Verdict>();
  private dirty = false;

  constructor(private readonly root: string) {
    try {
      const doc: unknown = JSON.parse(readFileSync(join(root, FILE), "utf8"));
      if (RuntimeVerdicts.check(doc)) for (const [k, v] of Object.entries((doc as VerdictsFile).verdicts)) this.verdicts.set(k, v);
    } catch {
      // missing or damaged: every target is checked again
    }
  }

  get(digest: string): Verdict | undefined {
    return this.verdicts.get(digest);
  }

  record(digest: string, r: RuntimeCheckResult, at: string): void {
    this.verdicts.delete(digest); // re-insert at the end: the oldest are dropped first
    this.verdicts.set(digest, { ok: r.ok, ...(r.ok ? {} : { code: r.code, message: r.message }), checkedAt: at });
    this.dirty = true;
  }

  /** Writes the file when something was recorded; a failure costs only a re-check later. */
  save(): void {
    if (!this.dirty) return;
    while (this.verdicts.size > MAX_ENTRIES) this.verdicts.delete(this.verdicts.keys().next().value as string);
    try {
      const doc: VerdictsFile = { format: 1, verdicts: Object.fromEntries(this.verdicts) };
      writeFileAtomic(join(this.root, FILE), `${JSON.stringify(doc)}\n`, { mode: 0o600, durable: false });
      this.dirty = false;
    } catch {
      // the scope root is read-only or gone; the next session start checks again
    }
  }
}
