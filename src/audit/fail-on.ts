/**
 * `--fail-on <ruleId|level>[,…]`: which findings make the audit exit 3. A level is a threshold
 * (`warning` also matches errors, `note` matches everything), a rule id matches that rule only.
 */
import { usageError } from "../core/errors.ts";
import type { AuditFinding } from "./findings.ts";
import { AUDIT_LEVELS, AUDIT_RULES, isAuditRuleId, type AuditLevel } from "./rules.ts";

const RANK: Record<AuditLevel, number> = { error: 3, warning: 2, note: 1 };

export function parseFailOn(value: string | undefined): ((f: AuditFinding) => boolean) | undefined {
  if (value === undefined) return undefined;
  const items = value
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
  const levels: AuditLevel[] = [];
  const rules = new Set<string>();
  for (const item of items) {
    if ((AUDIT_LEVELS as readonly string[]).includes(item)) levels.push(item as AuditLevel);
    else if (isAuditRuleId(item)) rules.add(item);
    else {
      throw usageError(
        `--fail-on ${JSON.stringify(item)} is neither a level nor an audit rule id.`,
        `Use one of ${AUDIT_LEVELS.join(", ")}, or a rule id: ${AUDIT_RULES.map((r) => r.id).join(", ")}.`,
        "invalid_option_value",
      );
    }
  }
  if (items.length === 0)
    throw usageError(
      "--fail-on needs a level or a rule id.",
      `Use one of ${AUDIT_LEVELS.join(", ")}, or a rule id.`,
      "invalid_option_value",
    );
  const threshold = levels.length ? Math.min(...levels.map((l) => RANK[l])) : Infinity;
  return (f) => rules.has(f.ruleId) || RANK[f.level] >= threshold;
}
