import type { C2FlagResult } from "../../c2store/lifecycle.ts";
import type { Context } from "../../core/context.ts";
import type { VerbOutcome } from "../define-verb.ts";
import { describeTrustDiff } from "./capability-diff.ts";

/** Output of a C2 enable/disable/trust/untrust: one line, notices on stderr. */
export function flagOutcome(ctx: Context, schema: string, result: C2FlagResult): VerbOutcome {
  for (const n of result.notices) (n.code === "runtime.requires_trust" ? ctx.log.warn : ctx.log.info)(n.message);
  const word =
    result.field === "trusted" ? (result.value ? "trusted" : "untrusted") : result.value ? "enabled" : "disabled";
  const human = result.changed
    ? `${ctx.out.bold(result.name)} (${result.id}) is now ${word}. enabled: ${result.enabled ? "yes" : "no"}, trusted: ${result.trusted ? "yes" : "no"}.`
    : `${ctx.out.bold(result.name)} (${result.id}) was already ${word}; nothing changed.`;
  const diff = result.capabilityDiff ? describeTrustDiff(result.capabilityDiff) : [];
  return { json: { schema, ok: true, ...result }, human: [human, ...diff].join("\n") };
}
