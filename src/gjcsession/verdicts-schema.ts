/**
 * The TypeBox schema of `<scope root>/runtime-verdicts.json` (runtime-verdicts.ts): runtime-check
 * verdicts by bundle digest. A file that does not match is ignored as a whole and rebuilt (it
 * is a cache: the cost is one more check of each target). The check is generated into
 * src/gjcsession/disk-schemas.generated.ts, so session start never loads TypeBox for it.
 */
import Type from "typebox";
import { closed } from "../core/schema-kit.ts";

/** Why one surface failed its check: the refusal code and message of the check. */
export const Failure = Type.Object({ code: Type.String(), message: Type.String() }, closed);

/**
 * The verdict on every checked surface of one bundle content: the surfaces named in `failed`
 * failed, every other surface the digest covers passed.
 */
export const Verdict = Type.Object(
  {
    checkedAt: Type.String(),
    failed: Type.Record(Type.String({ minLength: 1 }), Failure, closed),
  },
  closed,
);

/** `mac`: the state-key MAC (src/store/state-file.ts); a file without this user's is ignored. */
export const RuntimeVerdictsSchema = Type.Object(
  {
    format: Type.Literal(2),
    verdicts: Type.Record(Type.String({ pattern: "^[0-9a-f]{64}$" }), Verdict, closed),
    mac: Type.Optional(Type.String({ pattern: "^hmac-sha256:[0-9a-f]{64}$" })),
  },
  closed,
);
