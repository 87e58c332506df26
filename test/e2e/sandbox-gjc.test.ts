import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { snapshotTree } from "../helpers/tmp.ts";
import { sandboxPerTest, spawnScoped } from "../helpers/sandbox.ts";
import { expectDefaultDenials, GJC_ALLOWED as ALLOWED, installGjcProber, type ProbeWorld } from "./sandbox-world.ts";

const sandbox = sandboxPerTest("gjc-sbx-gjc-");
let world: ProbeWorld | undefined;
afterEach(() => {
  world?.close();
  world = undefined;
});

const reportOf = (doc: { tools: { name: string; description: string }[] }) =>
  JSON.parse(doc.tools.find((t) => t.name === "report")!.description);

describe("a GJC stdio MCP server and a runtime-checked tool run in the default sandbox", () => {
  test("under mcp probe, verify --mcp and plugin test; the runtime check of its tool; denials reported with the grant", async () => {
    const s = sandbox();
    const p = await installGjcProber(s);
    world = p.world;

    const probe = await s.gjc(["plugin", "mcp", "probe", "prober/probe", "--json"]);
    expect(probe.exitCode).toBe(0);
    expect(expectDefaultDenials(reportOf(probe.json()), ALLOWED)).toEqual({ leaks: [], blocked: [] });
    expect(probe.json().warnings).toContainEqual(
      expect.objectContaining({
        code: "sandbox_denied",
        hint: `if it should: gjc plugin allow prober --server probe --net 127.0.0.1:${p.targets.tcp.port}`,
      }),
    );

    // verify --mcp probes the pinned server again, in the same sandbox (its report is its tool definition: unchanged).
    const verify = await s.gjc(["plugin", "verify", "--mcp", "--json"]);
    expect(verify.exitCode).toBe(0);
    expect(verify.json().mcp).toMatchObject({ ok: true, servers: [{ server: "probe", status: "verified" }] });
    expect(verify.json().warnings.map((w: { code: string }) => w.code)).toContain("sandbox_denied");

    // plugin test on the source folder: the same server, confined to that folder.
    const t = await s.gjc(["plugin", "test", join(s.root, "prober-src"), "--json"]);
    expect(t.json().checks.find((c: { rule: string }) => c.rule === "mcp probe")).toMatchObject({ ok: true });

    // The runtime check (session start) loads the tool in its sandbox: it loads only if the probe held.
    const session = await s.gjc(["plugin", "session", "--check-runtime", "--json"]);
    expect(session.json().runtimeCheck).toMatchObject({ failed: 0 });
    const open = await s.gjc(["plugin", "session", "--check-runtime", "--json"], { env: { GJC_SANDBOX: "off" } });
    expect(open.json().runtimeCheck.failed).toBe(1);
    expect([world.tcpAccepted() > 0, world.udpReceived() > 0]).toEqual([true, true]);
  });

  test("launched from the session plan exactly as a host would, the server is confined the same way", async () => {
    const s = sandbox();
    const p = await installGjcProber(s);
    world = p.world;
    const plan = (await s.gjc(["plugin", "session", "--json"])).json();
    const server = plan.mcpServers.find((m: { name: string }) => m.name === "probe");
    expect(server.args).toContain("sandbox");
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
      if (out.split("\n").some((l) => l.includes('"id":2'))) break;
    }
    const answer = JSON.parse(out.split("\n").find((l) => l.includes('"id":2'))!);
    expect(expectDefaultDenials(JSON.parse(answer.result.tools[0].description), ALLOWED)).toEqual({
      leaks: [],
      blocked: [],
    });
    expect([world.tcpAccepted(), world.udpReceived()]).toEqual([0, 0]);
  });
});

describe("gjc sandbox exec", () => {
  test("runs the command in the named bundle's sandbox with gjc's streams and passes its status on; refuses what it cannot place", async () => {
    const s = sandbox();
    writeFileSync(join(s.home, "secret.txt"), "s3cret");
    const dir = join(s.root, "b");
    mkdirSync(join(dir, "mcp"), { recursive: true });
    writeFileSync(
      join(dir, "gajae-plugin.json"),
      JSON.stringify({
        kind: "gajae-code-plugin",
        name: "execy",
        version: "1.0.0",
        mcps: [{ name: "srv", transport: "stdio", command: "node", args: ["mcp/s.mjs"] }],
      }),
    );
    writeFileSync(join(dir, "mcp", "s.mjs"), "// server\n");
    expect((await s.gjc(["plugin", "install", dir, "--project", "--json"])).exitCode).toBe(0);
    const script = `const fs = require("fs"); let home; try { fs.readFileSync(${JSON.stringify(join(s.home, "secret.txt"))}); home = "read"; } catch (e) { home = e.code; } process.stdout.write(JSON.stringify({ home, own: fs.existsSync("gajae-plugin.json"), input: fs.readFileSync(0, "utf8") })); process.exit(7);`;
    const root = (await s.gjc(["plugin", "inspect", "execy", "--json"])).json().bundle.root as string;
    const r = await s.gjc(
      ["sandbox", "exec", "--bundle", "execy", "--server", "srv", "--project", s.project, "--", "node", "-e", script],
      { cwd: root, stdin: "hello" },
    );
    expect(r.exitCode).toBe(7);
    expect(JSON.parse(r.stdout)).toMatchObject({ own: true, input: "hello" });
    expect(["EACCES", "ENOENT"]).toContain(JSON.parse(r.stdout).home);

    const before = snapshotTree(s.root);
    const missing = await s.gjc([
      "sandbox",
      "exec",
      "--bundle",
      "nope",
      "--",
      "node",
      "-e",
      "require('fs').writeFileSync('ran', '1')",
    ]);
    expect([missing.exitCode, missing.stderr]).toEqual([1, expect.stringContaining("not_installed")]);
    const noCommand = await s.gjc(["sandbox", "exec", "--bundle", "execy", "--project", s.project]);
    expect([noCommand.exitCode, noCommand.stderr]).toEqual([2, expect.stringContaining("missing_argument")]);
    expect(snapshotTree(s.root)).toEqual(before);
  });
});
