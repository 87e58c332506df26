import { hasControlChars } from "../../bundle/names.ts";

export type NameVerdict = { ok: true; path: string | null } | { ok: false; reason: string };

/**
 * Judges the effective name of an archive entry (after pax / GNU long-name overrides).
 * One leading `./` and one trailing `/` are tolerated (what `tar -C dir .` writes); `.` is the
 * root itself (`path: null`). Everything else must be a plain relative POSIX path.
 */
export function judgeEntryName(name: string): NameVerdict {
  if (name === "." || name === "./") return { ok: true, path: null };
  if (hasControlChars(name)) return { ok: false, reason: "contains a control character" };
  if (name.includes("\\")) return { ok: false, reason: "contains a backslash" };
  if (name.startsWith("/")) return { ok: false, reason: "is an absolute path" };
  if (/^[A-Za-z]:/.test(name)) return { ok: false, reason: "starts with a drive letter" };
  // Anywhere else a colon names an NTFS alternate data stream on Windows.
  if (name.includes(":")) return { ok: false, reason: "contains a colon" };
  let p = name.startsWith("./") ? name.slice(2) : name;
  if (p.endsWith("/")) p = p.slice(0, -1);
  if (p === "") return { ok: false, reason: "is empty" };
  for (const segment of p.split("/")) {
    if (segment === "") return { ok: false, reason: "has an empty path segment" };
    if (segment === "..") return { ok: false, reason: "climbs out with '..'" };
    if (segment === ".") return { ok: false, reason: "has a '.' segment" };
  }
  return { ok: true, path: p };
}
