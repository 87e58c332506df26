import { afterEach, describe, expect, test } from "bun:test";
import { compiledBinary } from "../helpers/binary.ts";
import { runCli } from "../helpers/cli.ts";
import { sandbox, spawnScoped } from "../helpers/sandbox.ts";
import { c2Home, type C2Home } from "./c2-runtime-setup.ts";
import {
  expectDefaultDenials,
  GJC_ALLOWED,
  installC2Prober,
  installGjcProber,
  type ProbeWorld,
} from "./sandbox-world.ts";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

// The compiled gjc re-executes itself as the launcher stage: the same sandbox as from source.
describe("the sandbox from the compiled binary", () => {
  test("a C2 runtime under plugin run: every default denial holds for it, its child and its daemon", async () => {
    const binary = await compiledBinary();
    const h: C2Home = c2Home();
    const world: ProbeWorld = await installC2Prober(h);
    cleanups.push(
      () => world.close(),
      () => h.cleanup(),
    );
    const r = await runCli(["plugin", "run", "prober.probe", "--json"], { binary, env: h.env, cwd: h.root });
    expect(r.exitCode).toBe(0);
    expect(expectDefaultDenials(r.json().result, ["read own", "write tmpdir", "write data"])).toEqual({
      leaks: [],
      blocked: [],
    });
    expect([world.tcpAccepted(), world.udpReceived()]).toEqual([0, 0]);
  });

  test("a GJC stdio MCP server under mcp probe, and launched from the plan (the binary's own sandbox exec) as a host would", async () => {
    const binary = await compiledBinary();
    const base = sandbox("gjc-sbx-compiled-");
    const s = {
      ...base,
      gjc: (args: string[], options: Parameters<typeof base.gjc>[1] = {}) => base.gjc(args, { ...options, binary }),
    };
    const { world } = await installGjcProber(s);
    cleanups.push(
      () => world.close(),
      () => base.cleanup(),
    );
    const probe = await s.gjc(["plugin", "mcp", "probe", "prober/probe", "--json"]);
    expect(probe.exitCode).toBe(0);
    const report = JSON.parse(probe.json().tools.find((t: { name: string }) => t.name === "report").description);
    expect(expectDefaultDenials(report, GJC_ALLOWED)).toEqual({ leaks: [], blocked: [] });

    const server = (await s.gjc(["plugin", "session", "--json"]))
      .json()
      .mcpServers.find((m: { name: string }) => m.name === "probe");
    expect([server.command, server.args.slice(0, 2)]).toEqual([binary, ["sandbox", "exec"]]);
    const env: Record<string, string | undefined> = {};
    for (const name of server.envAllowList as string[]) env[name] = s.env[name] ?? process.env[name];
    await using child = spawnScoped([server.command, ...server.args], { cwd: server.cwd, env, stdin: "pipe" });
    const stdin = child.proc.stdin as import("bun").FileSink;
    stdin.write(
      `${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "host", version: "1" } } })}\n`,
    );
    stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list", params: {} })}\n`);
    stdin.flush();
    let out = "";
    const decoder = new TextDecoder();
    for await (const chunk of child.proc.stdout) {
      out += decoder.decode(chunk);
      if (out.includes('"id":2')) break;
    }
    const answer = JSON.parse(out.split("\n").find((l) => l.includes('"id":2'))!);
    expect(expectDefaultDenials(JSON.parse(answer.result.tools[0].description), GJC_ALLOWED)).toEqual({
      leaks: [],
      blocked: [],
    });
    expect([world.tcpAccepted(), world.udpReceived()]).toEqual([0, 0]);
  });
});
