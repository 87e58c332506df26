// MCP probe of the SDK stdio server against the time to spawn that same server alone until
// its first stdout line (its answer to initialize): the probe adds initialized, tools/list,
// the policy re-check, the process-group kill and the reap. Measured twice: through the
// library in-process, and through the compiled `gjc plugin mcp probe` of an installed bundle.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { probeStdioServer } from "../../src/mcp/stdio.ts";
import { gjcBinary, printTable, repoRoot, timePair } from "./_lib.ts";

const runs = Number(process.env.BENCH_RUNS ?? 15);
const work = mkdtempSync(join(tmpdir(), "gjc-bench-mcp-"));

/** Spawns the server, sends initialize, waits for the first stdout line, kills it. */
async function spawnUntilFirstLine(script: string): Promise<number> {
  const start = Bun.nanoseconds();
  const proc = Bun.spawn([process.execPath, script], { stdin: "pipe", stdout: "pipe", stderr: "ignore" });
  proc.stdin.write(
    `${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "0" } } })}\n`,
  );
  await proc.stdin.flush();
  const reader = proc.stdout.getReader();
  let seen = "";
  while (!seen.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error("server exited before its first line");
    seen += new TextDecoder().decode(value);
  }
  const ms = (Bun.nanoseconds() - start) / 1e6;
  proc.kill("SIGKILL");
  await proc.exited;
  return ms;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[(s.length >> 1) - 1] + s[s.length >> 1]) / 2;
};

try {
  const bundle = join(work, "bundle");
  mkdirSync(join(bundle, "mcp"), { recursive: true });
  const built = await Bun.build({
    entrypoints: [join(repoRoot, "fixtures/mcp/sdk-server/stdio-server.ts")],
    target: "node",
    outdir: join(bundle, "mcp"),
    naming: "server.mjs",
  });
  if (!built.success) throw new Error(built.logs.map(String).join("\n"));
  const script = join(bundle, "mcp/server.mjs");
  const launch = { command: "bun", args: ["mcp/server.mjs"] };

  // In-process: alternate a probe and a bare spawn-to-first-line.
  const probeMs: number[] = [];
  const spawnMs: number[] = [];
  for (let i = 0; i < runs + 2; i++) {
    const t0 = Bun.nanoseconds();
    const r = await probeStdioServer({
      root: bundle,
      launch,
      hostEnv: process.env,
      scratchParent: join(bundle, ".scratch"),
      sandbox: {
        subject: { bundle: "bench", process: { kind: "server", id: "s" } },
        profile: { read: [bundle], write: [], net: [] },
      },
    });
    if (r.tools.length !== 3) throw new Error("probe returned the wrong tools");
    const p = (Bun.nanoseconds() - t0) / 1e6;
    const s = await spawnUntilFirstLine(script);
    if (i >= 2) {
      probeMs.push(p);
      spawnMs.push(s);
    }
  }

  // The CLI: install the bundle into a temporary home, then time the compiled probe.
  writeFileSync(
    join(bundle, "gajae-plugin.json"),
    JSON.stringify({
      kind: "gajae-code-plugin",
      name: "bench-mcp",
      version: "1.0.0",
      mcps: [{ name: "docs", transport: "stdio", ...launch }],
    }),
  );
  const gjc = await gjcBinary();
  const env = { HOME: join(work, "home"), GJC_USER_DIR: join(work, "user") };
  const install = Bun.spawnSync([gjc, "plugin", "install", bundle, "--user", "--json"], {
    env: { ...process.env, ...env },
    cwd: work,
    stdout: "pipe",
    stderr: "pipe",
  });
  if (install.exitCode !== 0) throw new Error(`install failed: ${install.stdout}${install.stderr}`);
  const baselineScript = join(work, "first-line.ts");
  writeFileSync(
    baselineScript,
    `const p = Bun.spawn([process.execPath, ${JSON.stringify(script)}], { stdin: "pipe", stdout: "pipe", stderr: "ignore" });
p.stdin.write(${JSON.stringify(`${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "0" } } })}\n`)});
await p.stdin.flush();
const r = p.stdout.getReader(); let s = "";
while (!s.includes("\\n")) { const { value, done } = await r.read(); if (done) process.exit(1); s += new TextDecoder().decode(value); }
p.kill("SIGKILL"); await p.exited;
`,
  );
  const [cli, cliBase] = await timePair(
    [gjc, "plugin", "mcp", "probe", "bench-mcp/docs", "--json"],
    [process.execPath, baselineScript],
    { runs, env, cwd: work },
  );

  printTable("MCP probe of the SDK stdio server (median)", [
    {
      name: "probeStdioServer (library, in-process)",
      oursMs: median(probeMs),
      baselineMs: median(spawnMs),
      baseline: "spawn server until first stdout line",
    },
    {
      name: "gjc plugin mcp probe (compiled CLI)",
      oursMs: cli.medianMs,
      baselineMs: cliBase.medianMs,
      baseline: "bun script: spawn server until first line",
    },
  ]);
} finally {
  rmSync(work, { recursive: true, force: true });
}
