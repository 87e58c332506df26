import { lstatSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../bundle/atomic-fs.ts";
import { parseBoundedJson } from "../bundle/json.ts";

export const VALIDATE_SCRIPT_NAME = "plugin:validate";
export const VALIDATE_SCRIPT = "gjc plugin validate .";

/** `untouched`: the file is left as it is because writing it back would change what it says. */
export type PackageScriptOutcome = "added" | "kept" | "none" | "untouched";

/** Strings of valid JSON text, so what is left between them is structure and numbers. */
const JSON_STRING = /"(?:[^"\\]|\\.)*"/g;
const JSON_NUMBER = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;

/**
 * Whether JSON.parse then JSON.stringify would change a value of this (valid JSON) text: a
 * number JavaScript cannot hold exactly (an integer past 2^53, a long decimal) or would spell
 * differently (1.0, 1e3). A repeated key is refused before this, by the parse.
 */
function numbersWouldChange(text: string): boolean {
  for (const token of text.replace(JSON_STRING, '""').match(JSON_NUMBER) ?? []) {
    if (JSON.stringify(Number(token)) !== token) return true;
  }
  return false;
}

/**
 * The author's `package.json` at the bundle root, if there is one, gets
 * `"plugin:validate": "gjc plugin validate ."` so `npm run plugin:validate` / `bun run
 * plugin:validate` work with gjc from npm. An existing script of that name is kept as it is;
 * a package.json that is not a JSON object is left alone (validate says nothing about it, and
 * init must not turn a broken file into a different broken file). So is one that a rewrite
 * would change (`untouched`): a repeated key (JSON.parse keeps one of them), a number that does
 * not survive JSON.parse exactly. The rewrite keeps key order, the file's indentation and final
 * newline, and replaces the file atomically.
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
    JSON.parse(text);
  } catch {
    return { outcome: "none", path };
  }
  try {
    pkg = parseBoundedJson(text);
  } catch {
    return { outcome: "untouched", path };
  }
  if (numbersWouldChange(text)) return { outcome: "untouched", path };
  if (!pkg || typeof pkg !== "object" || Array.isArray(pkg)) return { outcome: "none", path };
  const record = pkg as Record<string, unknown>;
  const scripts = record.scripts;
  if (scripts !== undefined && (!scripts || typeof scripts !== "object" || Array.isArray(scripts)))
    return { outcome: "none", path };
  if (scripts && Object.hasOwn(scripts, VALIDATE_SCRIPT_NAME)) return { outcome: "kept", path };
  const indent = /^[ \t]+(?=")/m.exec(text)?.[0] ?? "  ";
  const next = {
    ...record,
    scripts: { ...((scripts as Record<string, unknown>) ?? {}), [VALIDATE_SCRIPT_NAME]: VALIDATE_SCRIPT },
  };
  const mode = lstatSync(path).mode & 0o777;
  const body = JSON.stringify(next, null, indent) + (text.endsWith("\n") ? "\n" : "");
  return { outcome: "added", path, write: () => writeFileAtomic(path, body, { mode }) };
}
