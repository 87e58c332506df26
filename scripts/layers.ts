/**
 * The layering of src/ (DESIGN.md §3, the right-hand column), as a table and the check of
 * it. `bun scripts/layers.ts` prints every arrow that breaks it; test/unit/architecture/
 * layers.test.ts fails on any arrow not listed in KNOWN_UPWARD below.
 *
 * An arrow is a folder importing another: `src/<a>/…` names `src/<b>/…` in an import, an
 * export-from, a dynamic import() or a require(), type-only imports included (a type is a
 * dependency of the design even when the bundler erases it).
 *
 * Why a small script and not dependency-cruiser: dependency-cruiser reads TypeScript through
 * the TypeScript compiler API, which TypeScript 7 (our type checker) no longer ships, or through
 * @swc/core, whose visitor stops at the `using` declarations this code base relies on.
 */
import { Glob } from "bun";
import { dirname, join } from "node:path";

/**
 * Each row a layer, top first. A folder may import the rows below its own, never a row above,
 * and never a peer on its own row. `install/` and `c2store/` are still each a family's whole
 * lifecycle; they sit just above the engine until their layouts move into families/ and their
 * steps into the engine.
 */
export const LAYERS: readonly (readonly string[])[] = [
  ["cli"],
  ["app"],
  ["sets"],
  ["gjcsession", "c2session"],
  ["c2host"],
  ["mcp"],
  ["audit", "authoring", "scaffold", "explain"],
  ["install", "c2store"],
  ["store"],
  ["families"],
  ["sources"],
  ["policy", "process", "signing", "tlog"],
  ["bundle"],
  ["core"],
];

/**
 * Arrows that break the table today, each to be removed by moving code to the layer that owns
 * it. The test fails on an arrow missing here and on one listed here that no longer exists,
 * so the list only shrinks.
 */
export const KNOWN_UPWARD: readonly string[] = [];

/** Folders whose files may not reach each other even inside one folder's row. */
export const APART: readonly (readonly [string, string])[] = [["families/gjc", "families/c2"]];

/**
 * Outside cli/, code takes its environment, arguments and output streams from the Context.
 * The one exception is the stderr sink the CLI hands to the Context.
 */
export const PROCESS_GLOBALS = /\bprocess\.(env|argv|exit|stdout|stderr)\b|\bconsole\.(log|error|warn|info|debug)\b/;
export const PROCESS_GLOBALS_ALLOWED: Readonly<Record<string, string>> = {
  "src/core/logger.ts": "the stderr sink the CLI hands to the Context",
  "src/gjcsession/runtime-harness.mjs": "a program of its own, run in the isolated child that checks a GJC runtime",
  "src/authoring/templates.ts": "the text of a scaffolded bundle's runtime, not code gjc runs",
  "src/process/sandbox/forwarder.ts":
    "the network forwarder the launcher stage runs inside the sandbox's namespace, a program of its own",
};

const SOURCE = "src/**/*.{ts,mts,mjs}";
const GENERATED_OR_TEMPLATE = /\.generated\.ts$/;

export interface Arrow {
  from: string;
  to: string;
  /** Every import that draws it: `file -> specifier`. */
  via: string[];
}

/** The folder a path under src/ belongs to: its first segment (src/cli.ts is the CLI's). */
export function folderOf(path: string): string {
  const rest = path.slice("src/".length);
  const slash = rest.indexOf("/");
  if (slash < 0) return rest === "cli.ts" ? "cli" : "(src)";
  return rest.slice(0, slash);
}

/** What a file imports, by specifier: statements, export-from, import(), require(). */
export function specifiersOf(text: string): string[] {
  const found: string[] = [];
  const statement = /^\s*(?:import|export)\b[^;'"`]*?\bfrom\s*["']([^"']+)["']/gm;
  const bare = /^\s*import\s*["']([^"']+)["']/gm;
  const call = /\b(?:import|require)\(\s*["']([^"']+)["']\s*\)/g;
  for (const pattern of [statement, bare, call]) for (const m of text.matchAll(pattern)) found.push(m[1]);
  return found;
}

export interface SourceFile {
  path: string;
  text: string;
}

export async function sourceFiles(root: string): Promise<SourceFile[]> {
  const files: SourceFile[] = [];
  for await (const path of new Glob(SOURCE).scan({ cwd: root }))
    files.push({ path, text: await Bun.file(join(root, path)).text() });
  return files.sort((a, b) => a.path.localeCompare(b.path));
}

/** Folder-to-folder arrows, and file-to-file imports for the apart rule. */
export function arrowsOf(files: SourceFile[]): { arrows: Arrow[]; imports: [string, string][] } {
  const byKey = new Map<string, Arrow>();
  const imports: [string, string][] = [];
  for (const file of files) {
    const from = folderOf(file.path);
    for (const spec of specifiersOf(file.text)) {
      if (!spec.startsWith(".")) continue;
      const target = join(dirname(file.path), spec);
      if (!target.startsWith("src/")) continue;
      imports.push([file.path, target]);
      const to = folderOf(target);
      if (to === from) continue;
      const key = `${from} -> ${to}`;
      const arrow = byKey.get(key) ?? { from, to, via: [] };
      arrow.via.push(`${file.path} -> ${spec}`);
      byKey.set(key, arrow);
    }
  }
  return {
    arrows: [...byKey.values()].sort((a, b) => `${a.from} ${a.to}`.localeCompare(`${b.from} ${b.to}`)),
    imports,
  };
}

export function rowOf(folder: string): number {
  return LAYERS.findIndex((row) => row.includes(folder));
}

/** An arrow that points up a row or across one. */
export function breaksLayers(arrow: Arrow): boolean {
  return rowOf(arrow.to) <= rowOf(arrow.from);
}

/** Strongly connected sets of folders (Tarjan): each set of two or more is an import cycle. */
export function folderCycles(arrows: Arrow[]): string[][] {
  const next = new Map<string, string[]>();
  for (const a of arrows) next.set(a.from, [...(next.get(a.from) ?? []), a.to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  let counter = 0;
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const set: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      set.push(w);
    } while (w !== v);
    if (set.length > 1) cycles.push(set.sort());
  };
  for (const v of new Set(arrows.flatMap((a) => [a.from, a.to]))) if (!index.has(v)) visit(v);
  return cycles;
}

export interface LayerReport {
  unplaced: string[];
  upward: Arrow[];
  cycles: string[][];
  apart: string[];
  processGlobals: string[];
}

export async function layerReport(root: string): Promise<LayerReport> {
  const files = await sourceFiles(root);
  const { arrows, imports } = arrowsOf(files);
  const folders = new Set(files.map((f) => folderOf(f.path)));
  const apart = imports
    .filter(([from, to]) =>
      APART.some(
        ([a, b]) =>
          (from.startsWith(`src/${a}/`) && to.startsWith(`src/${b}/`)) ||
          (from.startsWith(`src/${b}/`) && to.startsWith(`src/${a}/`)),
      ),
    )
    .map(([from, to]) => `${from} -> ${to}`);
  const processGlobals = files
    .filter(
      (f) => folderOf(f.path) !== "cli" && !GENERATED_OR_TEMPLATE.test(f.path) && !(f.path in PROCESS_GLOBALS_ALLOWED),
    )
    .flatMap((f) =>
      codeLines(f.text)
        .filter((l) => PROCESS_GLOBALS.test(l.text))
        .map((l) => `${f.path}:${l.line}`),
    );
  return {
    unplaced: [...folders].filter((f) => rowOf(f) < 0).sort(),
    upward: arrows.filter((a) => rowOf(a.from) >= 0 && rowOf(a.to) >= 0 && breaksLayers(a)),
    cycles: folderCycles(arrows),
    apart,
    processGlobals,
  };
}

/** Lines of code outside comments (a line-level cut: enough for names that stand in code). */
function codeLines(text: string): { line: number; text: string }[] {
  return text
    .split("\n")
    .map((t, i) => ({ line: i + 1, text: t.replace(/\/\/.*$/, "") }))
    .filter((l) => !/^\s*(\*|\/\*)/.test(l.text));
}

if (import.meta.main) {
  const report = await layerReport(process.cwd());
  for (const f of report.unplaced) console.log(`unplaced folder: src/${f}/ (add it to a row of LAYERS)`);
  for (const a of report.upward)
    console.log(
      `${KNOWN_UPWARD.includes(`${a.from} -> ${a.to}`) ? "known " : ""}upward: ${a.from} -> ${a.to}\n  ${a.via.join("\n  ")}`,
    );
  for (const c of report.cycles) console.log(`cycle: ${c.join(", ")}`);
  for (const a of report.apart) console.log(`families import each other: ${a}`);
  for (const p of report.processGlobals) console.log(`process global outside cli/: ${p}`);
}
