// `gjc plugin validate` of a GJC bundle declaring 200 files (tools, hooks, sub-skills,
// appendices, sub-skill tools, stdio MCP scripts) against a bare compiled program: the
// compiler reads and hashes only declared files, so it should stay close to start-up cost.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { gjcBinary, helloBinary, peakRssMiB, printTable, timePair } from "./_lib.ts";

/** Every (parent, phase) a sub-skill may bind to, so ten sub-skills never collide. */
const BINDINGS: [string, string][] = [
  ["ralplan", "planner"], ["ralplan", "architect"], ["ralplan", "critic"], ["deep-interview", "interviewing"], ["ultragoal", "active"],
  ["autoresearch", "research"], ["executor", "prompt"], ["architect", "prompt"], ["planner", "prompt"], ["critic", "prompt"],
];

function makeBundle(): { root: string; dir: string; declared: number } {
  const root = mkdtempSync(join(tmpdir(), "gjc-bench-gjc-"));
  const dir = join(root, "bundle");
  const put = (rel: string, text: string, mode = 0o644) => {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text, { mode });
  };
  const body = (i: number) => `// module ${i}\n${"export const filler = 'x';\n".repeat(40)}`;
  const tools = Array.from({ length: 120 }, (_, i) => ({ name: `tool_${i}`, path: `tools/t${i}.ts`, description: `Tool number ${i}` }));
  const scoped = Array.from({ length: 15 }, (_, i) => `scoped/s${i}.ts`);
  const hooks = Array.from({ length: 40 }, (_, i) => ({ name: `hook-${i}`, event: i % 2 ? "tool_call" : "tool_result", target: `tool${i}`, phase: i % 2 ? "before" : "after", path: `hooks/h${i}.ts` }));
  const subskills = BINDINGS.map((_, i) => `subskills/s${i}/SKILL.md`);
  const appendices = Array.from({ length: 5 }, (_, i) => ({ name: `sys-${i}`, path: `prompts/sys${i}.md` }));
  const agentAppendices = Array.from({ length: 5 }, (_, i) => ({ agent: ["executor", "architect", "planner", "critic", "executor"][i], name: `ag-${i}`, path: `prompts/agent${i}.md` }));
  const mcps = Array.from({ length: 5 }, (_, i) => ({ name: `mcp_${i}`, transport: "stdio", command: "bun", args: [`mcp/server${i}.ts`] }));
  for (const t of tools) put(t.path, body(1));
  for (const s of scoped) put(s, body(2));
  for (const h of hooks) put(h.path, body(3));
  BINDINGS.forEach(([parent, phase], i) => put(subskills[i], `---\nname: sub-${i}\ndescription: Sub-skill ${i}\nbinds_to: ${parent}\nphase: ${phase}\nactivation_arg: arg${i}\n---\n${"Guidance line.\n".repeat(50)}`));
  for (const a of [...appendices, ...agentAppendices]) put(a.path, "Appendix text.\n".repeat(100));
  for (const m of mcps) put(m.args[0], body(4));
  put(
    "gajae-plugin.json",
    JSON.stringify({ kind: "gajae-code-plugin", name: "bench-bundle", version: "1.0.0", subskills, tools: [...tools, ...scoped], hooks, mcps, system_appendix: appendices, "agent-appendix": agentAppendices }, null, 2),
  );
  const declared = tools.length + scoped.length + hooks.length + subskills.length + appendices.length + agentAppendices.length + mcps.length;
  return { root, dir, declared };
}

const gjc = await gjcBinary();
const hello = await helloBinary();
const runs = Number(process.env.BENCH_RUNS ?? 15);
const { root, dir, declared } = makeBundle();
let ok: boolean;
try {
  // Fail loudly if the bundle is not valid: timing a refusal would measure the wrong thing.
  const check = Bun.spawnSync([gjc, "plugin", "validate", dir, "--json"], { stdout: "pipe", stderr: "pipe" });
  const report = JSON.parse(check.stdout.toString());
  if (check.exitCode !== 0 || report.files.length !== declared + 1) throw new Error(`bench bundle is not valid:\n${check.stdout.toString()}`);
  const validateCmd = [gjc, "plugin", "validate", dir, "--json"];
  const [validate, helloT] = await timePair(validateCmd, [hello], { runs });
  const [validate2, version] = await timePair(validateCmd, [gjc, "--version"], { runs });
  const rss = await peakRssMiB([gjc, "plugin", "validate", dir, "--json"]);
  const rssHello = await peakRssMiB([hello]);
  ok = printTable("gjc plugin validate, GJC bundle (median of alternating runs)", [
    // The ratio the issue asks for; most of it is the binary's own start-up, shared by every verb.
    { name: `validate GJC bundle (${declared} declared files)`, oursMs: validate.medianMs, baselineMs: helloT.medianMs, baseline: "compiled hello", note: `peak ${rss.toFixed(1)} MiB (hello ${rssHello.toFixed(1)} MiB)` },
    // What the GJC compiler itself adds on top of starting gjc: reading, hashing and checking 200 files.
    { name: `validate GJC bundle (${declared} declared files)`, oursMs: validate2.medianMs, baselineMs: version.medianMs, baseline: "gjc --version", limit: 2 },
  ]);
} finally {
  rmSync(root, { recursive: true, force: true });
}
process.exit(ok ? 0 : 1);
