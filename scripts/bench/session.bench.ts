// GJC session start, side by side in one run (compiled binary):
//   gjc plugin session with 100 installed bundles of 20 files  vs  sha256sum -c of the same 2,000 files  (≤1.1x)
//   gjc plugin session with no bundle installed                vs  the bare compiled hello program       (≤1.17x)
// Targets of issue #12: no slowdown beyond 10 % of the ratios before the issue #11 restructuring
// (1.00x and 1.06x).
// The MCP probe row (SDK stdio server vs spawning it alone until its first line) is in mcp.bench.ts.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gjcBinary, helloBinary, printTable, timePair } from "./_lib.ts";

const gjc = await gjcBinary();
const hello = await helloBinary();
const runs = Number(process.env.BENCH_RUNS ?? 15);
const root = mkdtempSync(join(tmpdir(), "gjc-session-bench-"));

// (parent, phase) slots a sub-skill may take; each may be bound once across everything installed.
const SLOTS: [string, string][] = [
  ...["intake", "research", "verdict", "complete", "failed", "cancelled", "handoff"].map((p): [string, string] => ["autoresearch", p]),
  ...["interviewing", "handoff", "complete"].map((p): [string, string] => ["deep-interview", p]),
  ...["planner", "architect", "critic", "disposition", "revision", "post-interview", "adr", "final", "handoff"].map((p): [string, string] => ["ralplan", p]),
  ...["missing", "goal-planning", "pending", "active", "blocked", "failed", "complete", "handoff"].map((p): [string, string] => ["ultragoal", p]),
];

/**
 * Bundle `b`: the manifest plus 19 declared files of 1-16 KiB: 17 always-on tools, one system
 * appendix and one sub-skill (while there are (parent, phase) slots left, else an 18th tool).
 */
function bundle(dir: string, b: number): string {
  const name = `s${b}`;
  const size = (i: number) => 1024 + ((i * 7919 + b * 104729) % (15 * 1024));
  const filler = (n: number, head: string) => {
    const bytes = new Uint8Array(n).fill(0x61);
    bytes.set(new TextEncoder().encode(head));
    return bytes;
  };
  const write = (rel: string, data: Uint8Array | string) => {
    mkdirSync(join(dir, rel, ".."), { recursive: true });
    writeFileSync(join(dir, rel), data);
  };
  const manifest: Record<string, unknown> = { kind: "gajae-code-plugin", name, version: "1.0.0" };
  const slot = SLOTS[b];
  const toolCount = slot ? 17 : 18;
  manifest.tools = Array.from({ length: toolCount }, (_, i) => {
    write(`tools/t${i}.ts`, filler(size(i), `export default () => ({ name: "${name}_t${i}", execute() {} }); //`));
    return { name: `${name}_t${i}`, path: `tools/t${i}.ts`, description: `tool ${i} of ${name}` };
  });
  write("prompts/system.md", filler(size(100) % 2048 + 256, `# ${name} policy\n`));
  manifest.system_appendix = [{ name: "policy", path: "prompts/system.md" }];
  if (slot) {
    const head = `---\nname: sk${b}\ndescription: Sub-skill ${b}\nbinds_to: ${slot[0]}\nphase: ${slot[1]}\nactivation_arg: sk${b}\n---\n`;
    write("subskills/sk/SKILL.md", filler(size(200), head));
    manifest.subskills = ["subskills/sk/SKILL.md"];
  }
  writeFileSync(join(dir, "gajae-plugin.json"), JSON.stringify(manifest));
  return dir;
}

let ok = false;
try {
  const scope = join(root, "user-scope");
  const project = join(root, "project");
  mkdirSync(project, { recursive: true });
  const env = { HOME: root, GJC_USER_DIR: scope, GJC_C2_DATA_DIR: join(root, "c2") };
  for (let b = 0; b < 100; b++) {
    const src = bundle(join(root, "src", `b${b}`), b);
    const p = Bun.spawnSync([gjc, "plugin", "install", src, "--user"], { env: { ...process.env, ...env }, cwd: project, stdout: "ignore", stderr: "pipe" });
    if (p.exitCode !== 0) throw new Error(`setup install failed: ${p.stderr.toString()}`);
  }
  const registry = JSON.parse(readFileSync(join(scope, "registry.json"), "utf8"));
  const sums: string[] = registry.plugins.flatMap((p: { pluginRoot: string; copiedFiles: { relativePath: string; sha256: string }[] }) =>
    p.copiedFiles.map((f) => `${f.sha256}  ${join(p.pluginRoot, f.relativePath)}`),
  );
  if (sums.length !== 2000) throw new Error(`expected 2,000 installed files, found ${sums.length}`);
  const sumsFile = join(root, "SHA256SUMS");
  writeFileSync(sumsFile, `${sums.join("\n")}\n`);
  const bytes = registry.plugins.reduce((n: number, p: { copiedFiles: { bytes: number }[] }) => n + p.copiedFiles.reduce((m, f) => m + f.bytes, 0), 0);

  // A session that quarantined something would not be comparable: check the plan first.
  const check = Bun.spawnSync([gjc, "plugin", "session", "--json"], { env: { ...process.env, ...env }, cwd: project, stdout: "pipe", stderr: "pipe" });
  const plan = JSON.parse(check.stdout.toString());
  if (check.exitCode !== 0 || plan.bundles.some((x: { status: string }) => x.status !== "active")) throw new Error(`the session plan is not clean:\n${check.stdout}\n${check.stderr}`);

  const [full, fullBase] = await timePair([gjc, "plugin", "session", "--json"], ["sha256sum", "-c", "--quiet", sumsFile], { runs, env, cwd: project });

  const emptyEnv = { HOME: root, GJC_USER_DIR: join(root, "empty-user"), GJC_C2_DATA_DIR: join(root, "c2") };
  const emptyProject = join(root, "empty-project");
  mkdirSync(emptyProject, { recursive: true });
  const [empty, emptyBase] = await timePair([gjc, "plugin", "session", "--json"], [hello], { runs: Math.max(runs, 25), env: emptyEnv, cwd: emptyProject });

  ok = printTable("GJC session start (median of alternating runs)", [
    { name: `session, 100 bundles / 2,000 files (${(bytes / 1048576).toFixed(1)} MiB)`, oursMs: full.medianMs, baselineMs: fullBase.medianMs, baseline: "sha256sum -c", limit: 1.1, note: `min ${full.minMs.toFixed(1)} / ${fullBase.minMs.toFixed(1)} ms` },
    { name: "session, no bundle installed", oursMs: empty.medianMs, baselineMs: emptyBase.medianMs, baseline: "hello", limit: 1.17, note: `min ${empty.minMs.toFixed(1)} / ${emptyBase.minMs.toFixed(1)} ms` },
  ]);
} finally {
  rmSync(root, { recursive: true, force: true });
}
process.exit(ok ? 0 : 1);
