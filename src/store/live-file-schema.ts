/**
 * The TypeBox schema of a host's live file `<c2 data>/live/<pid>.json` (live-registry.ts). A
 * file that does not match was not written by a gjc host and is passed over, like one that is
 * not JSON. The check is generated into src/store/disk-schemas.generated.ts (no TypeBox at run time).
 */
import Type from "typebox";

export const LiveFileSchema = Type.Object(
  {
    pid: Type.Integer({ minimum: 1 }),
    // The host's kernel start time (src/process/process-identity.ts), null when the OS does not say.
    startTicks: Type.Union([Type.String(), Type.Null()]),
    // Installed ids with a runtime instance or a language server in that host.
    bundles: Type.Array(Type.String()),
    // Runtimes whose process failed in that host (a refused handshake, a lost connection), with why.
    failed: Type.Optional(
      Type.Array(
        Type.Object(
          { bundle: Type.String(), realm: Type.String(), code: Type.String(), message: Type.String() },
          { additionalProperties: false },
        ),
      ),
    ),
  },
  { additionalProperties: false },
);
