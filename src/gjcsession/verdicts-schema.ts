/**
 * The TypeBox schema of `<scope root>/runtime-verdicts.json` (runtime-verdicts.ts): runtime-check
 * verdicts by target digest. A file that does not match is ignored as a whole and rebuilt (it
 * is a cache: the cost is one more check of each target). The check is generated into
 * src/store/disk-schemas.generated.ts, so session start never loads TypeBox for it.
 */
import Type from "typebox";

const closed = { additionalProperties: false } as const;

export const Verdict = Type.Object(
  {
    ok: Type.Boolean(),
    // Only for a failed verdict: the refusal code and message of the check.
    code: Type.Optional(Type.String()),
    message: Type.Optional(Type.String()),
    checkedAt: Type.String(),
  },
  closed,
);

export const RuntimeVerdictsSchema = Type.Object({ format: Type.Literal(1), verdicts: Type.Record(Type.String({ pattern: "^[0-9a-f]{64}$" }), Verdict, closed) }, closed);
