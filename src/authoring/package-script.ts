import { lstatSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../bundle/atomic-fs.ts";

export const VALIDATE_SCRIPT_NAME = "plugin:validate";
export const VALIDATE_SCRIPT = "gjc plugin validate .";

export type PackageScriptOutcome = "added" | "kept" | "none";

/**
 * The author's `package.json` at the bundle root, if there is one, gets
 * `"plugin:validate": "gjc plugin validate ."` so `npm run plugin:validate` / `bun run
 * plugin:validate` work with gjc from npm. An existing script of that name is kept as it is;
 * a package.json that is not a JSON object is left alone (validate says nothing about it, and
 * init must not turn a broken file into a different broken file). The rewrite keeps key order,
 * the file's indentation and final newline, and replaces the file atomically.
 */
export function planPackageScript(dir: string): { outcome: PackageScriptOutcome; path: string; write?: () => void } {
  const path = join(dir, "package.json");
  let text: string;
  try {
    if (!lstatSync(path).isFile()) return { outcome: "none", path };
    text = readFileSync(path, "utf8");
  } catch {
    return { outcome: "none", path };
  }
  let pkg: unknown;
  try {
    pkg = JSON.parse(text);
  } catch {
    return { outcome: "none", path };
  }
  if (!pkg || typeof pkg !== "object" || Array.isArray(pkg)) return { outcome: "none", path };
  const record = pkg as Record<string, unknown>;
  const scripts = record.scripts;
  if (scripts !== undefined && (!scripts || typeof scripts !== "object" || Array.isArray(scripts))) return { outcome: "none", path };
  if (scripts && Object.hasOwn(scripts, VALIDATE_SCRIPT_NAME)) return { outcome: "kept", path };
  const indent = /^[ \t]+(?=")/m.exec(text)?.[0] ?? "  ";
  const next = { ...record, scripts: { ...((scripts as Record<string, unknown>) ?? {}), [VALIDATE_SCRIPT_NAME]: VALIDATE_SCRIPT } };
  const mode = lstatSync(path).mode & 0o777;
  const body = JSON.stringify(next, null, indent) + (text.endsWith("\n") ? "\n" : "");
  return { outcome: "added", path, write: () => writeFileAtomic(path, body, { mode }) };
}
