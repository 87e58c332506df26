/** Human text of the authoring verbs: `gjc plugin init`, `pack` and `test`. */
import type { ConformanceReport } from "../../authoring/conformance-types.ts";
import type { PackResult } from "../../authoring/pack.ts";
import type { ScaffoldResult } from "../../authoring/scaffold.ts";
import type { Style } from "../../core/style.ts";

/** `dir` is the directory as the user typed it, so the "Next:" line can be pasted back. */
export function describeInit(result: ScaffoldResult, dir: string, s: Style): string {
  return [
    `Created ${result.family === "c2" ? "C2" : "GJC"} bundle ${s.bold(result.name)} in ${result.dir}:`,
    ...result.files.map((f) => `  ${f.path}`),
    ...(result.subskill
      ? [
          `The sub-skill binds to ${result.subskill.parent}'s ${result.subskill.phase} phase; activate it with --${result.subskill.activationArg}.`,
        ]
      : []),
    ...(result.packageScript === "added"
      ? ['Added "plugin:validate": "gjc plugin validate ." to package.json.']
      : result.packageScript === "kept"
        ? ['package.json already has a "plugin:validate" script; it was kept.']
        : result.packageScript === "untouched"
          ? [
              'package.json was left as it is: it repeats a key or holds a number that rewriting would change. Add "plugin:validate": "gjc plugin validate ." to its scripts by hand.',
            ]
          : []),
    "",
    `Next: gjc plugin validate ${dir}`,
  ].join("\n");
}

export function describePack(r: PackResult, s: Style): string {
  return [
    `Packed ${r.family === "c2" ? "C2" : "GJC"} bundle ${s.bold(`${r.name} ${r.version}`)}: ${r.entries.length} files, ${r.bytes} bytes`,
    `  ${r.file}`,
    `  sha256 ${r.sha256}`,
    ...(r.signature ? [`  signed by ${r.signature.fingerprint} (${r.signature.keyType}): ${r.signature.file}`] : []),
    "",
    `Install it with: gjc plugin install ${r.file} --sha256 ${r.sha256}${r.family === "gjc" ? " --user" : ""}`,
  ].join("\n");
}

export function describeConformance(r: ConformanceReport, s: Style): string {
  const lines = [
    `${r.ok ? s.green("✓ conformant") : s.red("✗ not conformant")} ${r.family} bundle ${s.bold(`${r.name ?? "?"} ${r.version ?? ""}`.trim())}`,
  ];
  for (const c of r.checks) {
    const mark = c.skipped ? s.dim("-") : c.ok ? s.green("✓") : s.red("✗");
    const latency = c.latencyMs !== undefined ? s.dim(` (${c.latencyMs} ms)`) : "";
    lines.push(`  ${mark} ${c.rule}${latency}${c.code && !c.ok ? s.dim(` [${c.code}]`) : ""}: ${c.message}`);
    if (c.hint && (!c.ok || c.skipped)) lines.push(`      ${s.cyan("hint")}: ${c.hint}`);
  }
  return lines.join("\n");
}
