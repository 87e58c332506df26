// C2 runtimes, side by side in one run:
//  1. spawn + initialize handshake of a bun runtime vs spawning the same script until its
//     first stdout line (target ≤1.5x);
//  2. sequential command/invoke round trip vs the same JSON line echoed by `cat` (≤2x);
//  3. pipelined throughput (64 in flight) vs the same with `cat` (≥0.7x, i.e. time ≤1.43x);
//  4. `gjc plugin run` (compiled) end to end vs the compiled hello program plus a bare runtime start.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { publicHostCommands } from "../../src/c2host/host-commands.ts";
import { RuntimeInstance } from "../../src/c2host/runtime-instance.ts";
import { installC2, setC2Trusted } from "../../src/c2store/lifecycle.ts";
import { createContext } from "../../src/core/context.ts";
import { parseC2Manifest } from "../../src/families/c2/manifest.ts";
import { fetchSpec } from "../../src/install/fetch-source.ts";
import { gjcBinary, helloBinary, printTable, repoRoot, timeIt } from "./_lib.ts";

const runs = Number(process.env.BENCH_RUNS ?? 15);
const work = mkdtempSync(join(tmpdir(), "gjc-bench-c2rt-"));
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[(s.length >> 1) - 1] + s[s.length >> 1]) / 2;
};
const now = () => Bun.nanoseconds() / 1e6;
const bun = process.execPath;

/** A minimal line client for a child speaking one JSON object per line (the baselines). */
function lineChild(cmd: string[], cwd: string) {
  const proc = Bun.spawn(cmd, { cwd, stdin: "pipe", stdout: "pipe", stderr: "ignore" });
  const waiters: ((line: string) => void)[] = [];
  const pump = (async () => {
    let buf = "";
    const dec = new TextDecoder();
    for await (const chunk of proc.stdout) {
      buf += dec.decode(chunk, { stream: true });
      let nl: number;
      while ((nl = buf.indexOf("\n")) !== -1) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        waiters.shift()?.(line);
      }
    }
  })();
  return {
    proc,
    /** Sends one line and resolves with the next line received, parsed. */
    send(line: string): Promise<unknown> {
      const p = new Promise<string>((r) => waiters.push(r)).then((l) => JSON.parse(l));
      proc.stdin.write(`${line}\n`);
      proc.stdin.flush();
      return p;
    },
    async stop() {
      proc.kill("SIGKILL");
      await proc.exited;
      await pump;
    },
  };
}

try {
  // One bundle running the fixture runtime under bun.
  const bundleDir = join(work, "bundle");
  mkdirSync(bundleDir);
  copyFileSync(join(repoRoot, "fixtures/runtimes/echo-runtime.mjs"), join(bundleDir, "runtime.mjs"));
  const pluginJson = {
    $schema: "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json",
    name: "bench-runtime",
    version: "1.0.0",
    extensions: { "dev.codetwo": { standardVersion: "1.2.0", commands: [{ id: "bench.echo", title: "Echo", argsSchema: { type: "object" } }], runtime: { command: "bun", args: ["runtime.mjs"] } } },
  };
  writeFileSync(join(bundleDir, "plugin.json"), JSON.stringify(pluginJson));
  const { manifest } = parseC2Manifest(pluginJson);
  if (!manifest) throw new Error("the bench bundle does not validate");
  const hostCommands = publicHostCommands({ env: process.env, listPlugins: async () => [] });
  const newInstance = (i: number) =>
    new RuntimeInstance(
      { bundleId: "bench-runtime-00000000", name: "bench-runtime", version: "1.0.0", bundleDir, dataDir: join(work, "data", String(i)), manifest, config: null, visibleCommands: [...hostCommands.keys()] },
      { env: process.env, hostCommands, log() {}, onEvent() {}, onConnectorEvent() {}, termGraceMs: 0 },
    );
  const initLine = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "1.0.0", host: { name: "gjc", version: "0", commands: [] }, config: null, dataDir: join(work, "data", "base") } });

  // 1. Handshake vs spawn-to-first-line, alternated run by run.
  const handshake: number[] = [];
  const firstLine: number[] = [];
  for (let i = 0; i < runs + 2; i++) {
    const inst = newInstance(i);
    const t0 = now();
    await inst.start();
    const h = now() - t0;
    await inst.unload();
    const t1 = now();
    const child = lineChild([bun, "runtime.mjs"], bundleDir);
    await child.send(initLine);
    const f = now() - t1;
    await child.stop();
    if (i >= 2) {
      handshake.push(h);
      firstLine.push(f);
    }
  }

  // 2 + 3. Round trips and pipelined throughput against a running runtime and a `cat` child.
  const inst = newInstance(999);
  await inst.start();
  const cat = lineChild(["cat"], work);
  // Same runtime, driven by the bare line client: isolates what the host adds per call.
  const bareRuntime = lineChild([bun, "runtime.mjs"], bundleDir);
  await bareRuntime.send(initLine);
  const request = (id: number) => JSON.stringify({ jsonrpc: "2.0", id, method: "command/invoke", params: { name: "bench.echo", args: { n: id } } });
  const seq = 2000;
  for (let i = 0; i < 200; i++) {
    await inst.invoke("bench.echo", { n: i });
    await cat.send(request(i));
  }
  const rtOurs: number[] = [];
  const rtCat: number[] = [];
  const rtBare: number[] = [];
  for (let round = 0; round < 5; round++) {
    let t = now();
    for (let i = 0; i < seq / 5; i++) await inst.invoke("bench.echo", { n: i });
    rtOurs.push(((now() - t) / (seq / 5)) * 1000);
    t = now();
    for (let i = 0; i < seq / 5; i++) await cat.send(request(i));
    rtCat.push(((now() - t) / (seq / 5)) * 1000);
    t = now();
    for (let i = 0; i < seq / 5; i++) await bareRuntime.send(request(i));
    rtBare.push(((now() - t) / (seq / 5)) * 1000);
  }
  const total = 20_000;
  const window = 64;
  async function pipelined(call: (i: number) => Promise<unknown>): Promise<number> {
    const t = now();
    let next = 0;
    const lane = async () => {
      while (next < total) await call(next++);
    };
    await Promise.all(Array.from({ length: window }, lane));
    return now() - t;
  }
  const tpOurs: number[] = [];
  const tpCat: number[] = [];
  for (let round = 0; round < 3; round++) {
    tpOurs.push(await pipelined((i) => inst.invoke("bench.echo", { n: i })));
    tpCat.push(await pipelined((i) => cat.send(request(i))));
  }
  await inst.unload();
  await cat.stop();
  await bareRuntime.stop();

  const tpRatio = median(tpCat) / median(tpOurs);
  const ok = printTable("C2 runtime (median)", [
    { name: "spawn + initialize handshake (bun runtime)", oursMs: median(handshake), baselineMs: median(firstLine), baseline: "spawn same script until first stdout line", limit: 1.5 },
    { name: "1000 sequential command/invoke round trips", oursMs: median(rtOurs), baselineMs: median(rtCat), baseline: "same JSON line through cat", limit: 2 },
    { name: "  the same, host overhead only", oursMs: median(rtOurs), baselineMs: median(rtBare), baseline: "bare line client, same runtime" },
    {
      name: `pipelined, ${total} calls, 64 in flight`,
      oursMs: median(tpOurs),
      baselineMs: median(tpCat),
      baseline: "same exchange through cat",
      limit: 1.43,
      note: `throughput ${(total / median(tpOurs) * 1000).toFixed(0)}/s vs ${(total / median(tpCat) * 1000).toFixed(0)}/s = ${tpRatio.toFixed(2)}x (target ≥0.7x)`,
    },
  ]);
  if (!ok) process.exitCode = 1;

  // 4. The compiled CLI end to end, from an installed and trusted bundle.
  const env = { HOME: join(work, "home"), GJC_USER_DIR: join(work, "user"), GJC_C2_DATA_DIR: join(work, "c2") };
  mkdirSync(env.HOME, { recursive: true });
  const ctx = createContext({ env: { ...process.env, ...env }, cwd: work, quiet: true });
  const fetched = await fetchSpec(ctx, bundleDir);
  const installed = (await installC2(ctx, { fetched })) as unknown as { id: string };
  await fetched.cleanup();
  await setC2Trusted(ctx, installed.id, true);
  const gjc = await gjcBinary();
  const hello = await helloBinary();
  const cli = await timeIt([gjc, "plugin", "run", "bench.echo", "--args", '{"n":1}', "--json"], { runs, env, cwd: work });
  const helloT = await timeIt([hello], { runs, cwd: work });
  const firstLineScript = join(work, "first-line.ts");
  writeFileSync(
    firstLineScript,
    `const p = Bun.spawn([${JSON.stringify(bun)}, "runtime.mjs"], { cwd: ${JSON.stringify(bundleDir)}, stdin: "pipe", stdout: "pipe", stderr: "ignore" });
p.stdin.write(${JSON.stringify(`${initLine}\n`)}); await p.stdin.flush();
const r = p.stdout.getReader(); let s = "";
while (!s.includes("\\n")) { const { value, done } = await r.read(); if (done) process.exit(1); s += new TextDecoder().decode(value); }
p.kill("SIGKILL"); await p.exited;
`,
  );
  const bare = await timeIt([bun, firstLineScript], { runs, cwd: work });

  printTable("gjc plugin run end to end (median)", [
    { name: "gjc plugin run (compiled, end to end)", oursMs: cli.medianMs, baselineMs: helloT.medianMs + bare.medianMs, baseline: `hello ${helloT.medianMs.toFixed(1)} + bare runtime start ${bare.medianMs.toFixed(1)}` },
  ]);
} finally {
  rmSync(work, { recursive: true, force: true });
}
