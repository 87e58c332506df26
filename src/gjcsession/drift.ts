import { lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { GJC_LIMITS } from "../bundle/limits.ts";
import { readRegularFile } from "../bundle/read-file.ts";
import { isGjcError } from "../core/errors.ts";
import type { RegistryEntry } from "../install/registry-types.ts";

export type DriftProblem = "missing" | "changed" | "extra" | "mode" | "symlink" | "special" | "unreadable";

export interface DriftFinding {
  relativePath: string;
  problem: DriftProblem;
  message: string;
}

export interface DriftReport {
  findings: DriftFinding[];
  /** Bytes of the files asked for in `keep`, exactly the bytes that were hashed. */
  kept: Map<string, Uint8Array>;
}

type EntryType = "file" | "dir" | "symlink" | "other";

/** Lists the installed tree without following links (dirent types, no stat per file). */
function listTree(root: string): Map<string, EntryType> {
  const out = new Map<string, EntryType>();
  const walk = (dir: string, rel: string) => {
    for (const d of readdirSync(dir, { withFileTypes: true })) {
      const r = rel === "" ? d.name : `${rel}/${d.name}`;
      if (d.isDirectory()) {
        out.set(r, "dir");
        walk(join(dir, d.name), r);
      } else if (d.isFile()) out.set(r, "file");
      else if (d.isSymbolicLink()) out.set(r, "symlink");
      else out.set(r, "other");
    }
  };
  walk(root, "");
  return out;
}

const MESSAGES: Record<DriftProblem, (rel: string) => string> = {
  missing: (r) => `Installed file missing: ${r}`,
  changed: (r) => `Installed file hash drift: ${r}`,
  extra: (r) => `Unexpected file in the installed bundle: ${r}`,
  mode: (r) => `Installed file mode changed: ${r}`,
  symlink: (r) => `A symbolic link replaced the installed file: ${r}`,
  special: (r) => `Installed path is no longer a regular file: ${r}`,
  unreadable: (r) => `Installed file could not be read: ${r}`,
};

const finding = (relativePath: string, problem: DriftProblem): DriftFinding => ({ relativePath, problem, message: MESSAGES[problem](relativePath) });

/**
 * Re-hashes an installed bundle against its registry entry: every recorded file must be a
 * regular file (opened without following links) with the recorded SHA-256 and mode, and no
 * other file may be there. Bun's native SHA-256 keeps this cheap enough for every session.
 */
export function verifyInstalledFiles(entry: RegistryEntry, keep: ReadonlySet<string> = new Set()): DriftReport {
  const kept = new Map<string, Uint8Array>();
  const findings: DriftFinding[] = [];
  let tree: Map<string, EntryType>;
  try {
    const st = lstatSync(entry.pluginRoot);
    if (st.isSymbolicLink()) return { kept, findings: [finding(".", "symlink")] };
    if (!st.isDirectory()) return { kept, findings: [finding(".", "special")] };
    tree = listTree(entry.pluginRoot);
  } catch {
    return { kept, findings: [{ relativePath: ".", problem: "missing", message: "The installed bundle directory is missing." }] };
  }
  const recorded = new Set<string>();
  for (const file of entry.copiedFiles) {
    recorded.add(file.relativePath);
    const type = tree.get(file.relativePath);
    if (type === undefined) {
      findings.push(finding(file.relativePath, "missing"));
      continue;
    }
    if (type === "symlink") {
      findings.push(finding(file.relativePath, "symlink"));
      continue;
    }
    if (type !== "file") {
      findings.push(finding(file.relativePath, "special"));
      continue;
    }
    let opened;
    try {
      opened = readRegularFile(join(entry.pluginRoot, file.relativePath), GJC_LIMITS.maxFileBytes, file.relativePath);
    } catch (error) {
      const code = isGjcError(error) ? error.code : "";
      findings.push(finding(file.relativePath, code === "missing_file" ? "missing" : code === "unsafe_path" ? "symlink" : code === "special_file" ? "special" : code === "file_too_large" ? "changed" : "unreadable"));
      continue;
    }
    if (opened.size !== file.bytes || new Bun.CryptoHasher("sha256").update(opened.bytes).digest("hex") !== file.sha256) {
      findings.push(finding(file.relativePath, "changed"));
      continue;
    }
    if (typeof file.mode === "number" && opened.mode !== file.mode) {
      findings.push(finding(file.relativePath, "mode"));
      continue;
    }
    if (keep.has(file.relativePath)) kept.set(file.relativePath, opened.bytes);
  }
  for (const [rel, type] of tree) {
    if (type !== "dir" && !recorded.has(rel)) findings.push(finding(rel, type === "symlink" ? "symlink" : "extra"));
  }
  return { findings, kept };
}
