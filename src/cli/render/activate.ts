/** Human text of `gjc plugin activate`. */
import type { Style } from "../../core/style.ts";
import type { ActivationResult } from "../../gjcsession/activate.ts";

export function describeActivation(r: ActivationResult, s: Style): string {
  return r.activation
    ? [
        `${s.green("activated")} ${r.activation.plugin}/${r.activation.name} for ${r.skill} (${r.consumed})`,
        ...r.pack
          .filter((p) => p.surfaceId !== r.activation?.surfaceId)
          .map((p) => `  ${s.dim("pack")} ${p.surfaceId}`),
        `  ${s.dim("args")} ${r.cleanedArgs === "" ? "(none)" : r.cleanedArgs}`,
        r.inject === ""
          ? `  ${s.dim(`nothing to inject in phase ${r.phase}; the sub-skill binds to phase ${r.activation.phase}`)}`
          : r.inject.trimStart(),
      ].join("\n")
    : `No sub-skill flag for ${r.skill} in the arguments; nothing activated.`;
}
