import { relativePathProblem } from "../../bundle/path-safety.ts";

export type NameVerdict = { ok: true; path: string | null } | { ok: false; reason: string };

/**
 * Judges the effective name of an archive entry (after pax / GNU long-name overrides).
 * One leading `./` and one trailing `/` are tolerated (what `tar -C dir .` writes); `.` is the
 * root itself (`path: null`). Everything else must be a plain relative POSIX path.
 */
export function judgeEntryName(name: string): NameVerdict {
  if (name === "." || name === "./") return { ok: true, path: null };
  let p = name.startsWith("./") ? name.slice(2) : name;
  if (p.endsWith("/")) p = p.slice(0, -1);
  // The one relative-path judge: controls, backslashes, colons (drive letters, NTFS streams),
  // absolute names, empty, "." and ".." segments.
  const problem = relativePathProblem(p);
  return problem === undefined ? { ok: true, path: p } : { ok: false, reason: problem };
}
