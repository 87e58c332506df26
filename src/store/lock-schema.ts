/**
 * The TypeBox schema of a lock file's holder record (`registry.lock`, `c2.lock`, …; see
 * lock.ts), the one definition of its shape. Unlike gjc's other documents it stays open and
 * asks only for what judging the lock needs (pid, host, token): any gjc version may be the
 * holder, and a lock whose holder cannot be read is never broken, so a stricter reader would
 * leave a dead newer or older gjc's lock in place for good. The JSON form is generated into
 * disk-schemas.generated.ts, so taking a lock never loads TypeBox.
 */
import Type from "typebox";

export const LockHolderSchema = Type.Object({
  pid: Type.Integer({ minimum: 1 }),
  host: Type.String(),
  // When the lock was taken (ISO).
  startedAt: Type.Optional(Type.String()),
  // The holder's kernel start time (process-identity.ts), when the OS tells us.
  processStart: Type.Optional(Type.String()),
  // What the holder is doing, shown to whoever waits (`gjc plugin install`).
  command: Type.Optional(Type.String()),
  // Random per acquisition, so release only ever removes its own lock.
  token: Type.String(),
});
