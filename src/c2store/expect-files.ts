import { GjcError } from "../core/errors.ts";
import { ExitCode } from "../core/exit-codes.ts";

/**
 * What a C2 install checks against what was judged before it: the files of an earlier
 * judgement (a sync from the cache, an `--integrity` install) and the identity of the record
 * its id points at.
 */
interface FileFact {
  path: string;
  sha256: string;
  mode: number;
}

const key = (f: FileFact) => `${f.path}\u0000${f.sha256}\u0000${(f.mode & 0o777).toString(8)}`;

/** Whether two file lists name the same paths with the same bytes and permission bits. */
export function sameFiles(a: readonly FileFact[], b: readonly FileFact[]): boolean {
  if (a.length !== b.length) return false;
  const want = new Set(b.map(key));
  return a.every((f) => want.has(key(f)));
}

export function contentChanged(name: string, source: string): GjcError {
  return new GjcError({
    code: "integrity_mismatch",
    message: `${name} from ${source} is not the content that was judged: a file changed between the check and the install. Nothing was written.`,
    hint: "Something is writing to the source (or the cache) while gjc reads it; find out what, then run the command again.",
    details: { name, source },
    exit: ExitCode.refused,
  });
}

export function identityCollision(id: string, installedIdentity: string, identity: string, name: string): GjcError {
  return new GjcError({
    code: "identity_collision",
    message: `${name} from ${identity} gets the installed id ${id}, which is already the id of the bundle from ${installedIdentity}: another source, so another bundle. Nothing was written; it inherits neither the trust nor the data of ${id}.`,
    hint: `If ${id} is no longer wanted, uninstall it (gjc plugin uninstall ${id}) and install again; otherwise install the new bundle from a source with another path or name.`,
    details: { id, installedIdentity, identity },
    exit: ExitCode.refused,
  });
}
