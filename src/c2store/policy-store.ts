import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { writeFileAtomic } from "../bundle/atomic-fs.ts";
import { GjcError } from "../core/errors.ts";
import type { C2Layout } from "./paths.ts";
import {
  emptyPolicy,
  parsePolicyDocument,
  samePolicyContent,
  serializePolicy,
  type PolicyDocument,
} from "./policy-doc.ts";
import { ExitCode } from "../core/exit-codes.ts";
import { readStateText } from "../store/state-file.ts";

/** How the store was opened (c2-notes §7.2); reported by every catalog. */
export type Recovery =
  | { kind: "normal" }
  | { kind: "restored-last-good"; error: string }
  | { kind: "safe-mode"; error: string };

export interface PolicyView {
  /** The policy in force: the primary, the last good copy, or empty in safe mode. */
  doc: PolicyDocument;
  recovery: Recovery;
}

const POLICY_MODE = 0o600;

function readIfPresent(path: string): string | undefined {
  const read = readStateText(path);
  if (read.kind === "missing") return undefined;
  // Another user's file, or a link, is damage of the policy file: its recovery path handles it.
  return read.kind === "text" ? read.text : "";
}

/**
 * Opens the policy without writing anything. A missing primary is an empty policy. A corrupt
 * primary is left exactly as it is (it is evidence) and the last good copy is used; when that
 * is missing or corrupt too, the store is in safe mode: no bundle runtime policy applies
 * until `policy reset` writes a valid primary again.
 */
export function openPolicy(layout: C2Layout): PolicyView {
  let primaryText: string | undefined;
  let primaryError: string | undefined;
  try {
    primaryText = readIfPresent(layout.policy);
  } catch (error) {
    primaryError = `the file could not be read (${(error as NodeJS.ErrnoException).code ?? "error"})`;
  }
  if (primaryText === undefined && primaryError === undefined)
    return { doc: emptyPolicy(), recovery: { kind: "normal" } };
  if (primaryText !== undefined) {
    const parsed = parsePolicyDocument(primaryText);
    if (parsed.ok) return { doc: parsed.doc, recovery: { kind: "normal" } };
    primaryError = parsed.error;
  }
  const error = `${layout.policy}: ${primaryError}`;
  let lastGood: string | undefined;
  try {
    lastGood = readIfPresent(layout.policyLastGood);
  } catch {
    lastGood = undefined;
  }
  if (lastGood !== undefined) {
    const parsed = parsePolicyDocument(lastGood);
    if (parsed.ok) return { doc: parsed.doc, recovery: { kind: "restored-last-good", error } };
  }
  return { doc: emptyPolicy(), recovery: { kind: "safe-mode", error } };
}

export interface CommitResult {
  doc: PolicyDocument;
  /** True when the primary file was written. */
  written: boolean;
  /** Where the corrupt primary was preserved, when leaving recovery rewrote it. */
  evidence?: string;
}

/**
 * Writes `next` as the primary. The revision goes up by exactly one when the intent changed
 * and stays when it did not; an unchanged document is not rewritten unless the store is in
 * recovery, where writing a valid primary is how it returns to normal (the corrupt bytes are
 * first copied aside, never lost).
 */
export function commitPolicy(layout: C2Layout, view: PolicyView, next: PolicyDocument, now: Date): CommitResult {
  const changed = !samePolicyContent(view.doc, next);
  const doc: PolicyDocument = { ...next, revision: changed ? view.doc.revision + 1 : view.doc.revision };
  if (!changed && view.recovery.kind === "normal") return { doc, written: false };
  mkdirSync(dirname(layout.policy), { recursive: true, mode: 0o755 });
  let evidence: string | undefined;
  if (view.recovery.kind !== "normal") evidence = preserveEvidence(layout, now);
  writeFileAtomic(layout.policy, serializePolicy(doc), POLICY_MODE);
  return { doc, written: true, evidence };
}

/** Restores exact primary bytes (rollback of a change that did not settle). */
export function restorePrimary(layout: C2Layout, previousBytes: string | undefined): void {
  if (previousBytes === undefined) {
    // There was no primary before: an empty document at revision 0 is what "missing" meant.
    writeFileAtomic(layout.policy, serializePolicy(emptyPolicy()), POLICY_MODE);
    return;
  }
  writeFileAtomic(layout.policy, previousBytes, POLICY_MODE);
}

export function readPrimaryBytes(layout: C2Layout): string | undefined {
  try {
    return readIfPresent(layout.policy);
  } catch {
    return undefined;
  }
}

/** Records `doc` as last-known-good; only a change that settled may call this. */
export function markLastGood(layout: C2Layout, doc: PolicyDocument): void {
  mkdirSync(dirname(layout.policyLastGood), { recursive: true, mode: 0o755 });
  writeFileAtomic(layout.policyLastGood, serializePolicy(doc), POLICY_MODE);
}

function preserveEvidence(layout: C2Layout, now: Date): string | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(layout.policy);
  } catch {
    return undefined;
  }
  const stamp = now.toISOString().replace(/[:.]/g, "-");
  let target = join(dirname(layout.policy), `plugin-config.corrupt-${stamp}.json`);
  for (let n = 1; existsSync(target); n++)
    target = join(dirname(layout.policy), `plugin-config.corrupt-${stamp}-${n}.json`);
  writeFileAtomic(target, bytes, POLICY_MODE);
  return target;
}

/** The error thrown when a change is asked for while the store is in recovery. */
export function recoveryError(view: PolicyView, plugin: string): GjcError {
  const mode = view.recovery.kind === "safe-mode" ? "safe mode" : "recovery from the last good copy";
  return new GjcError({
    code: "policy_recovery",
    message: `The C2 plugin policy is in ${mode}: ${view.recovery.kind === "normal" ? "" : view.recovery.error}.`,
    hint: `Run "gjc plugin policy reset ${plugin}" to write a valid policy again (the corrupt file is kept aside as evidence).`,
    exit: ExitCode.refused,
  });
}
