/**
 * C2 content a host can load: `gjc plugin session --family c2 --json` lists skills, subagents,
 * prompt commands (with their Skill fallback) and mcp.json servers of enabled, verified C2
 * bundles under persisted ids with verified paths and hashes; `plugin mcp list|probe` include
 * C2 mcp.json servers (a real MCP SDK server over stdio), gated by enablement, trust for
 * stdio, and verification.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCli } from "../helpers/cli.ts";
import { writeTree } from "../helpers/tmp.ts";
import { streamableHandler } from "../../fixtures/mcp/sdk-server/http-app.ts";
import { sdkServerBuild } from "../unit/mcp/fixture-servers.ts";
import { c2HomesPerTest, installBundle } from "./c2-runtime-setup.ts";

const home = c2HomesPerTest();
const SCHEMA = "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json";
const MCP_SCHEMA = "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json";
const sha = (path: string) => new Bun.CryptoHasher("sha256").update(readFileSync(path)).digest("hex");
const errorOf = (r: { stderr: string }) =>
  JSON.parse(r.stderr.split("\n").find((l) => l.startsWith('{"error"'))!).error;

const servers: { stop(): void; close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    await s.close();
    s.stop();
  }
});

/** A real MCP SDK server over streamable HTTP on a loopback port the kernel picks. */
async function loopbackServer(): Promise<string> {
  const app = await streamableHandler();
  const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (req) => app.handle(req) });
  servers.push({ stop: () => server.stop(true), close: () => app.close() });
  return `http://127.0.0.1:${server.port}/mcp`;
}

async function contentHome() {
  const h = home();
  const loopbackUrl = await loopbackServer();
  const src = join(h.root, "kit-src");
  writeTree(src, {
    "plugin.json": {
      $schema: SCHEMA,
      name: "kit",
      version: "1.0.0",
      extensions: { "dev.codetwo": { standardVersion: "1.2.0" } },
    },
    "skills/notes/SKILL.md": "---\nname: notes\ndescription: Take notes.\n---\nWrite them down.\n",
    "skills/notes/reference.md": "more\n",
    "agents/reviewer.md":
      "---\nname: reviewer\ndescription: Reviews.\nmodel: fast\ntools: [read, grep]\n---\nReview carefully.\n",
    "commands/ship.md": "---\ndescription: Ship the release.\n---\nTag, build, publish.\n",
    "mcp.json": {
      $schema: MCP_SCHEMA,
      mcpServers: {
        local: { type: "stdio", command: "bun", args: ["${PLUGIN_ROOT}/server.mjs"], env: { KIT_MODE: "test" } },
        python: { type: "stdio", command: "python3", args: ["-m", "kit"] },
        loopback: { type: "streamable-http", url: loopbackUrl },
      },
    },
  });
  writeFileSync(join(src, "server.mjs"), await Bun.file(await sdkServerBuild()).bytes());
  const installed = await installBundle(h, src, { trust: false });
  const run = (...args: string[]) => runCli(args, { env: h.env, cwd: h.root });
  return { h, installed, run };
}

describe("C2 session content", () => {
  test("session --family c2 lists persisted ids with verified paths and hashes", async () => {
    const { installed, run } = await contentHome();
    const r = await run("plugin", "session", "--family", "c2", "--json");
    expect(r.exitCode).toBe(0);
    const doc = r.json();
    expect(doc).toMatchObject({
      schema: "gjc/c2-session@1",
      family: "c2",
      ok: true,
      contentScope: "user",
      bundles: [{ id: installed.id, status: "active" }],
    });
    const id = installed.id;
    expect(doc.skills).toHaveLength(1);
    expect(doc.skills[0]).toMatchObject({ name: "notes", description: "Take notes.", plugin: id });
    expect(doc.skills[0].id).toMatch(new RegExp(`^${id}:skill:[a-z0-9-]+-[0-9a-f]{8}$`));
    expect(doc.skills[0].files.map((f: any) => f.relativePath)).toEqual([
      "skills/notes/SKILL.md",
      "skills/notes/reference.md",
    ]);
    for (const f of [doc.skills[0].file, ...doc.skills[0].files, doc.subagents[0].file, doc.promptCommands[0].file])
      expect(sha(f.path)).toBe(f.sha256);
    expect(doc.subagents[0]).toMatchObject({ name: "reviewer", model: "fast", tools: ["read", "grep"] });
    expect(doc.subagents[0].id).toStartWith(`${id}:agent:`);
    expect(doc.promptCommands[0]).toMatchObject({
      name: "ship",
      skillFallback: { name: "ship", description: "Ship the release.", instructions: "Tag, build, publish.\n" },
    });
    expect(doc.promptCommands[0].id).toStartWith(`${id}:command:`);
    expect(doc.mcpServers.map((m: any) => [m.server, m.status])).toEqual([
      ["local", "untrusted"],
      ["python", "untrusted"],
      ["loopback", "active"],
    ]);
    expect(doc.mcpServers[0].id).toMatch(new RegExp(`^${id}:mcp:local-[0-9a-f]{8}$`));
    expect(doc.mcpServers[0].launch.env).toMatchObject({
      KIT_MODE: "test",
      PLUGIN_ROOT: expect.stringContaining(`/plugins/${id}/bundle`),
    });
    const root = String(r.json().mcpServers[0].launch.env.PLUGIN_ROOT);
    // Started through gjc, in the bundle's sandbox: the real command follows the "--".
    const args: string[] = doc.mcpServers[0].launch.args;
    expect(args.slice(args.indexOf("sandbox"), args.indexOf("--") + 3)).toEqual([
      "sandbox",
      "exec",
      "--bundle",
      doc.mcpServers[0].bundle,
      "--server",
      "local",
      "--",
      "bun",
      join(root, "server.mjs"),
    ]);
  });

  test("mcp list and probe include C2 servers: trust gates stdio, gjc's launcher and URL rules decide what starts", async () => {
    const { h, run } = await contentHome();
    const list = await run("plugin", "mcp", "list", "--json");
    expect(list.exitCode).toBe(0);
    const c2 = list.json().servers.filter((s: any) => s.family === "c2");
    expect(c2.map((s: any) => [s.server, s.status, s.probe.ok])).toEqual([
      ["local", "untrusted", true],
      ["python", "untrusted", false],
      ["loopback", "active", true],
    ]);
    expect((await run("plugin", "mcp", "list")).stdout).toContain("kit/local (c2, stdio) untrusted");

    const untrusted = await run("plugin", "mcp", "probe", "kit/local", "--json");
    expect(untrusted.exitCode).toBe(3);
    expect(errorOf(untrusted).code).toBe("untrusted");
    expect((await run("plugin", "trust", "kit")).exitCode).toBe(0);
    const probe = await run("plugin", "mcp", "probe", "kit/local", "--json");
    expect(probe.exitCode).toBe(0);
    const p = probe.json();
    expect(p).toMatchObject({
      family: "c2",
      bundle: "kit",
      server: "local",
      serverInfo: { name: "fixture-sdk-server" },
    });
    expect(p.tools.length).toBeGreaterThan(0);
    // The server got the Agent Plugins variables and its declared env, not the host's secrets.
    expect(p.instructions).toContain("PLUGIN_ROOT");
    expect(p.instructions).toContain("PLUGIN_DATA");
    expect(p.instructions).toContain("KIT_MODE");
    const python = await run("plugin", "mcp", "probe", "kit/python", "--json");
    expect(python.exitCode).toBe(3);
    expect(errorOf(python).code).toBe("security_policy");
    // Agent Plugins allows http to loopback: a real SDK server there is probed.
    const loop = await run("plugin", "mcp", "probe", "kit/loopback", "--json");
    expect(loop.exitCode).toBe(0);
    expect(loop.json()).toMatchObject({
      family: "c2",
      server: "loopback",
      transport: "streamable-http",
      serverInfo: { name: "fixture-sdk-http" },
    });
    expect(errorOf(await run("plugin", "mcp", "probe", "kit/nope", "--json")).code).toBe("unknown_server");

    expect((await run("plugin", "disable", "kit")).exitCode).toBe(0);
    const off = await run("plugin", "mcp", "probe", "kit/local", "--json");
    expect(off.exitCode).toBe(3);
    expect(errorOf(off).code).toBe("plugin_disabled");
    const session = (await run("plugin", "session", "--family", "c2", "--json")).json();
    expect(session).toMatchObject({
      bundles: [{ status: "disabled" }],
      skills: [],
      subagents: [],
      promptCommands: [],
      mcpServers: [],
    });
    void h;
  });

  test("a drifted bundle is quarantined at session start and contributes nothing", async () => {
    const { h, installed, run } = await contentHome();
    writeFileSync(
      join(h.dataDir, "plugins", installed.id, "bundle", "skills/notes/SKILL.md"),
      "---\nname: notes\ndescription: evil\n---\nexfiltrate\n",
    );
    const r = await run("plugin", "session", "--family", "c2", "--json");
    expect(r.exitCode).toBe(3);
    expect(r.json()).toMatchObject({
      ok: false,
      bundles: [{ status: "quarantined", reasons: [{ code: "runtime_mismatch" }] }],
      skills: [],
      mcpServers: [],
    });
    expect(
      (await run("plugin", "list", "--json")).json().bundles.find((b: { family: string }) => b.family === "c2").c2
        .quarantine,
    ).toMatchObject({ code: "runtime_mismatch" });
    const probe = await run("plugin", "mcp", "probe", "kit/loopback", "--json");
    expect(probe.exitCode).toBe(3);
    expect(errorOf(probe).code).toBe("quarantined");
    expect(errorOf(await run("plugin", "session", "--family", "nope", "--json")).code).toBe("usage");
  });
});
