/**
 * Findings about what the user granted an installed bundle (src/store/grants.ts): a path grant
 * that reaches credentials or gjc's own state, or that covers the whole home. They point into
 * the grants file (`grants.json`), which is where the grant lives.
 */
import type { Context } from "../core/context.ts";
import { classOfRecorded } from "../store/grant-values.ts";
import { bundleKey, GRANTS_FILE, processKey } from "../store/grants.ts";
import type { RecordedGrants } from "../store/grants-recorded.ts";
import type { AuditFinding } from "./findings.ts";
import { auditRule } from "./rules.ts";

const escapePointer = (s: string) => s.replaceAll("~", "~0").replaceAll("/", "~1");

export function grantFindings(
  ctx: Context,
  family: "gjc" | "c2",
  name: string,
  grants: RecordedGrants,
): AuditFinding[] {
  if (grants.state !== "signed") return [];
  const out: AuditFinding[] = [];
  const base = `/bundles/${escapePointer(bundleKey(family, name))}`;
  const entries = [
    { subject: `grant:${name}`, pointer: `${base}/bundle`, set: grants.bundle },
    ...grants.processes.map((p) => ({
      subject: `grant:${processKey(p.process)}`,
      pointer: `${base}/processes/${escapePointer(processKey(p.process)!)}`,
      set: p.grants,
    })),
  ];
  for (const e of entries) {
    for (const access of ["read", "write"] as const) {
      e.set[access].forEach((path, i) => {
        const judged = classOfRecorded(ctx, path);
        if (judged.class === "ordinary") return;
        const ruleId = judged.class === "too-broad" ? "sandbox-grant-broad" : "sandbox-grant-sensitive";
        const rule = auditRule(ruleId);
        const message =
          judged.class === "too-broad"
            ? `${e.subject} lets it ${access} ${path}, which holds the whole home.`
            : `${e.subject} lets it ${access} ${path}, which reaches ${judged.sensitive}.`;
        out.push({
          ruleId,
          level: rule.level,
          subject: e.subject,
          message,
          hint: rule.help,
          at: { file: GRANTS_FILE, pointer: `${e.pointer}/${access}/${i}` },
        });
      });
    }
  }
  return out;
}
