import { existsSync, readFileSync } from "node:fs";
import { writeFileAtomic } from "../bundle/atomic-fs.ts";
import { parsePolicyDocument } from "./policy-doc.ts";
import type { Context } from "../core/context.ts";
import type { DoctorFinding, DoctorStore } from "../store/documents.ts";
import { inspectLock } from "../store/lock.ts";
import { removeLeftover, sweep } from "../store/leftovers.ts";
import { scanC2Leftovers } from "./leftovers.ts";
import { withC2Lock } from "./lock.ts";
import { bundleHome, C2_LOCK_FILE, c2Layout } from "./paths.ts";
import { openPolicy } from "./policy-store.ts";
import { scanRecords } from "./records.ts";
import { refreshRecordsIndex } from "./records-index.ts";

type C2Finding = DoctorFinding & { family: "c2" };

/**
 * `gjc plugin doctor [--fix]` for the C2 store: the lock, leftovers of interrupted commands
 * (put back or removed as the next mutation would), bundle directories whose record is unusable,
 * a corrupt policy file or one missing beside its last good copy, and quarantined bundles.
 * Each finding says what --fix does and which command fixes it. --fix works under the C2 lock
 * (taking it over is the fix for a stale one).
 */
export async function doctorC2(ctx: Context, fix: boolean): Promise<{ store: DoctorStore; findings: DoctorFinding[] }> {
  const layout = c2Layout(ctx);
  const exists = existsSync(layout.root);
  const findings: C2Finding[] = [];
  const store: DoctorStore = { family: "c2", scope: "user", root: layout.root, exists, state: "missing", bundles: 0 };
  if (!exists) return { store, findings };
  const base = { family: "c2" as const, scope: "user" as const };
  const lock = inspectLock(layout.root, C2_LOCK_FILE);
  if (lock.state === "stale")
    findings.push({
      ...base,
      kind: "stale_lock",
      severity: "warning",
      path: lock.path,
      message: `Stale lock: ${lock.reason} (it was running ${lock.holder.command ?? "an unknown command"}).`,
      fix: "take over and remove the lock",
      fixable: true,
      command: "gjc plugin doctor --fix",
    });
  if (lock.state === "held")
    findings.push({
      ...base,
      kind: "busy_lock",
      severity: "info",
      path: lock.path,
      message: `In use by process ${lock.holder.pid} on ${lock.holder.host} (${lock.holder.command ?? "unknown command"}, since ${lock.holder.startedAt ?? "an unknown time"}).`,
      fix: "nothing; wait for it to finish",
      fixable: false,
    });
  if (lock.state === "unreadable")
    findings.push({
      ...base,
      kind: "unreadable_lock",
      severity: "error",
      path: lock.path,
      message: "The lock file is unreadable, so its holder is unknown.",
      fix: "nothing; if no gjc command is running, remove it by hand",
      fixable: false,
    });

  const diagnose = (): C2Finding[] => {
    const list: C2Finding[] = [];
    for (const l of scanC2Leftovers(layout)) {
      const what =
        l.kind === "backup"
          ? l.restoreTo
            ? "Bundle set aside by an update that was interrupted before its commit."
            : "Previous copy of an updated bundle."
          : `Leftover ${l.kind} ${l.kind === "temp" ? "file" : "directory"} of an interrupted command.`;
      list.push({
        ...base,
        kind: "leftover",
        severity: "warning",
        path: l.path,
        message: what,
        fix: l.restoreTo ? `put it back as ${l.restoreTo}` : "remove it",
        fixable: true,
        command: "gjc plugin doctor --fix",
      });
    }
    const { records, broken, foreign } = scanRecords(layout);
    store.bundles = records.length;
    for (const f of foreign) {
      const what =
        f.writer === "c2-app"
          ? `${f.name} ${f.version} was installed by the C2 app (its record format, schema ${f.schemaVersion})`
          : `${f.id} holds a record (schema ${f.schemaVersion}) that gjc did not write`;
      list.push({
        ...base,
        kind: "foreign_entry",
        severity: "info",
        path: bundleHome(layout, f.id),
        message: `${what}; gjc shows it and never changes or deletes it.`,
        fix: "nothing; gjc never removes what it did not create",
        fixable: false,
      });
    }
    for (const b of broken) {
      list.push({
        ...base,
        kind: "broken_record",
        severity: "error",
        path: bundleHome(layout, b.id),
        message: `The installed record of ${b.id} is unusable (${b.problem}); the bundle is not loaded.`,
        fix: "remove the bundle directory (its data directory is kept); install the bundle again afterwards",
        fixable: true,
        command: "gjc plugin doctor --fix",
      });
    }
    for (const r of records) {
      if (r.quarantine)
        list.push({
          ...base,
          kind: "quarantined",
          severity: "warning",
          path: bundleHome(layout, r.id),
          message: `${r.name} is quarantined (${r.quarantine.reason}: ${r.quarantine.files.slice(0, 3).join(", ")}).`,
          fix: "nothing; verify it again once the files are restored, or reinstall it",
          fixable: false,
          command: `gjc plugin verify ${r.name}`,
        });
    }
    const policy = openPolicy(layout);
    store.state = policy.recovery.kind === "normal" ? (existsSync(layout.policy) ? "ok" : "missing") : "corrupt";
    if (policy.recovery.kind !== "normal") {
      const restored = policy.recovery.kind === "restored-last-good";
      list.push({
        ...base,
        kind: "corrupt_policy",
        severity: "error",
        path: layout.policy,
        message: `The policy file is unusable (${policy.recovery.error}); ${restored ? "the last good copy is in force" : "every C2 bundle runs in safe mode (disabled)"}.`,
        fix: "nothing automatic; reset the policy of a bundle, which writes a fresh policy file and keeps the unusable one as evidence",
        fixable: false,
        command: `gjc plugin policy reset ${records[0]?.name ?? "<plugin>"}`,
      });
    }
    // A primary that is gone while its last good copy is there lost every policy decision
    // silently (a missing primary reads as "no policy yet"): the last good copy brings them back.
    const lastGood = !existsSync(layout.policy) ? usableLastGoodPolicy(layout) : undefined;
    if (lastGood !== undefined) {
      list.push({
        ...base,
        kind: "missing_policy",
        severity: "warning",
        path: layout.policy,
        message:
          "The policy file is missing while its last good copy is there; every bundle runs with the default policy.",
        fix: `restore it from ${layout.policyLastGood}`,
        fixable: true,
        command: "gjc plugin doctor --fix",
      });
    }
    return list;
  };
  if (!fix) return { store, findings: [...findings, ...diagnose()] };
  return withC2Lock(ctx, "gjc plugin doctor --fix", () => {
    for (const f of findings) if (f.fixable) f.fixed = true;
    const list = diagnose();
    sweep(scanC2Leftovers(layout));
    let removed = false;
    for (const f of list) {
      if (f.kind === "leftover") f.fixed = true;
      if (f.kind === "missing_policy") {
        const text = usableLastGoodPolicy(layout);
        if (text !== undefined && !existsSync(layout.policy)) writeFileAtomic(layout.policy, text);
        f.fixed = true;
      }
      if (f.kind === "broken_record") {
        removeLeftover({ path: f.path });
        f.fixed = true;
        removed = true;
      }
    }
    if (removed) refreshRecordsIndex(layout);
    return { store, findings: [...findings, ...list] };
  });
}

/** The last good policy copy's text when it parses, else undefined. */
function usableLastGoodPolicy(layout: ReturnType<typeof c2Layout>): string | undefined {
  try {
    const text = readFileSync(layout.policyLastGood, "utf8");
    return parsePolicyDocument(text).ok ? text : undefined;
  } catch {
    return undefined;
  }
}
