// `gjc plugin audit` of a 2,000-file bundle against `gjc plugin validate` of the same bundle, side
// by side (issue 15: at most 1.5x). Audit runs validate's plan/compile, then builds the capability
// model, the findings and their manifest locations; the ratio is what that costs. One C2 bundle
// (the whole tree is collected and hashed: 2,000 files, a runtime, an mcp.json with three servers)
// and one GJC bundle (2,000 declared files: 1,997 tools, a hook and a stdio MCP server).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gjcBinary, printTable, timePair } from "./_lib.ts";

const gjc = await gjcBinary();
const FILES = 2000;

function c2Bundle(root: string): string {
  const dir = join(root, "c2");
  mkdirSync(join(dir, "skills", "bench"), { recursive: true });
  writeFileSync(
    join(dir, "plugin.json"),
    JSON.stringify({
      $schema: "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json",
      name: "bench-c2",
      version: "1.0.0",
      extensions: {
        "dev.codetwo": {
          standardVersion: "1.2.0",
          commands: [{ id: "bench.run", title: "Run" }],
          runtime: { command: "node", args: ["runtime.js"], env: { MODE: "bench" } },
        },
      },
    }),
  );
  writeFileSync(
    join(dir, "mcp.json"),
    JSON.stringify({
      $schema: "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json",
      mcpServers: {
        github: {
          type: "stdio",
          command: "npx",
          args: ["-y", "@modelcontextprotocol/server-github"],
          env: { GITHUB_TOKEN: "${GITHUB_TOKEN}" },
        },
        local: { type: "stdio", command: "node", args: ["${PLUGIN_ROOT}/runtime.js"] },
        remote: { type: "streamable-http", url: "https://mcp.example.com/mcp" },
      },
    }),
  );
  writeFileSync(join(dir, "runtime.js"), "// runtime\n");
  writeFileSync(join(dir, "skills", "bench", "SKILL.md"), "---\nname: bench\ndescription: Bench skill.\n---\nBody.\n");
  const data = FILES - 4;
  for (let i = 0; i < data; i++) {
    const sub = join(dir, "data", `d${i % 40}`);
    if (i < 40) mkdirSync(sub, { recursive: true });
    writeFileSync(join(sub, `f${i}.txt`), `file ${i}\n`.repeat(64));
  }
  return dir;
}

function gjcBundle(root: string): string {
  const dir = join(root, "gjc");
  mkdirSync(join(dir, "tools"), { recursive: true });
  mkdirSync(join(dir, "mcp"), { recursive: true });
  const tools = FILES - 4; // + manifest, hook, MCP script, and one more tool below
  const entries = [];
  for (let i = 0; i <= tools; i++) {
    writeFileSync(join(dir, "tools", `t${i}.ts`), `export default function t${i}() { return ${i}; }\n`);
    entries.push({ name: `tool_${i}`, path: `tools/t${i}.ts`, description: `Tool ${i}` });
  }
  writeFileSync(join(dir, "hook.ts"), "export default function h() {}\n");
  writeFileSync(join(dir, "mcp", "server.mjs"), "// server\n");
  writeFileSync(
    join(dir, "gajae-plugin.json"),
    JSON.stringify({
      kind: "gajae-code-plugin",
      name: "bench-gjc",
      version: "1.0.0",
      tools: entries,
      hooks: [{ name: "h", event: "tool_call", target: "read", phase: "before", path: "hook.ts" }],
      mcps: [{ name: "docs", transport: "stdio", command: "bun", args: ["mcp/server.mjs"] }],
    }),
  );
  return dir;
}

const runs = Number(process.env.BENCH_RUNS ?? 15);
const root = mkdtempSync(join(tmpdir(), "gjc-bench-audit-"));
let ok: boolean;
try {
  const c2 = c2Bundle(root);
  const g = gjcBundle(root);
  const [auditC2, validateC2] = await timePair(
    [gjc, "plugin", "audit", c2, "--json"],
    [gjc, "plugin", "validate", c2, "--json"],
    { runs },
  );
  const [auditGjc, validateGjc] = await timePair(
    [gjc, "plugin", "audit", g, "--json"],
    [gjc, "plugin", "validate", g, "--json"],
    { runs },
  );
  ok = printTable("gjc plugin audit vs validate (median of alternating runs)", [
    {
      name: `plugin audit (C2, ${FILES} files)`,
      oursMs: auditC2.medianMs,
      baselineMs: validateC2.medianMs,
      baseline: "plugin validate",
      limit: 1.5,
    },
    {
      name: `plugin audit (GJC, ${FILES} declared files)`,
      oursMs: auditGjc.medianMs,
      baselineMs: validateGjc.medianMs,
      baseline: "plugin validate",
      limit: 1.5,
    },
  ]);
} finally {
  rmSync(root, { recursive: true, force: true });
}
process.exit(ok ? 0 : 1);
