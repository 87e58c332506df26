import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sandbox } from "../helpers/sandbox.ts";
import { snapshotTree } from "../helpers/tmp.ts";
import { mcpHome } from "./mcp-setup.ts";

const tmp = sandbox("gjc-e2e-mcp-");
let h: Awaited<ReturnType<typeof mcpHome>>;
beforeAll(async () => {
  h = await mcpHome(tmp);
});
afterAll(() => tmp.cleanup());

describe("gjc plugin mcp list", () => {
  test("lists every declared server with its state and policy verdict", async () => {
    const r = await h.cli(["plugin", "mcp", "list", "--json"]);
    expect(r.exitCode).toBe(0);
    const doc = r.json();
    expect(doc.schema).toBe("gjc/mcp-list@1");
    expect(
      doc.servers.map((s: { server: string; transport: string; status: string; policy: { ok: boolean } }) => [
        s.server,
        s.transport,
        s.status,
        s.policy.ok,
      ]),
    ).toEqual([
      ["docs", "stdio", "active", true],
      ["docs-node", "stdio", "active", true],
      ["native", "stdio", "active", true],
      ["sentinel", "stdio", "active", true],
      ["remote", "http", "active", true],
    ]);
    expect(doc.servers[4].target).toBe("https://mcp.gjc.invalid");
  });
});

describe("gjc plugin mcp probe", () => {
  for (const server of ["docs", "docs-node", "native"]) {
    test(`${server}: server info and tools, and no host secret in the child's environment`, async () => {
      const r = await h.cli(["plugin", "mcp", "probe", `docs-bundle/${server}`, "--json"]);
      expect(r.exitCode).toBe(0);
      const doc = r.json();
      expect(doc).toMatchObject({
        schema: "gjc/mcp-probe@1",
        ok: true,
        bundle: "docs-bundle",
        server,
        scope: "user",
        transport: "stdio",
      });
      expect(doc.serverInfo).toEqual({ name: "fixture-sdk-server", version: "1.2.3" });
      expect(doc.tools.map((t: { name: string }) => t.name)).toEqual(["echo", "env_names", "cwd"]);
      expect(doc.instructions).toStartWith("env: ");
      expect(doc.instructions).toContain("PATH");
      expect(doc.instructions).not.toContain("GJC_E2E_HOST_SECRET");
      expect(doc.instructions).not.toContain("GJC_USER_DIR");
    });
  }

  test("human output names the server and its tools", async () => {
    const r = await h.cli(["plugin", "mcp", "probe", "docs-bundle/docs"]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain("fixture-sdk-server 1.2.3");
    expect(r.stdout).toContain("echo");
  });

  test("an https server whose name does not resolve: exit 4, nothing connected", async () => {
    const r = await h.cli(["plugin", "mcp", "probe", "docs-bundle/remote", "--json", "--timeout", "5000"]);
    expect(r.exitCode).toBe(4);
    expect(r.json().error.code).toBe("mcp_unreachable");
  });

  test("usage errors and unknown names", async () => {
    const bad = await h.cli(["plugin", "mcp", "probe", "docs-bundle", "--json"]);
    expect(bad.exitCode).toBe(2);
    const timeout = await h.cli(["plugin", "mcp", "probe", "docs-bundle/docs", "--timeout", "soon", "--json"]);
    expect(timeout.exitCode).toBe(2);
    const none = await h.cli(["plugin", "mcp", "probe", "nope/docs", "--json"]);
    expect(none.exitCode).toBe(1);
    expect(none.json().error.code).toBe("not_installed");
    const unknown = await h.cli(["plugin", "mcp", "probe", "docs-bundle/zzz", "--json"]);
    expect(unknown.exitCode).toBe(1);
    expect(unknown.json().error).toMatchObject({ code: "unknown_server" });
    expect(unknown.json().error.hint).toContain("docs, docs-node, native, sentinel, remote");
  });

  test("a disabled bundle is not started (exit 3), and probing changes no file", async () => {
    expect((await h.cli(["plugin", "disable", "docs-bundle", "--user"])).exitCode).toBe(0);
    try {
      const before = snapshotTree(h.userDir);
      const r = await h.cli(["plugin", "mcp", "probe", "docs-bundle/sentinel", "--json"]);
      expect(r.exitCode).toBe(3);
      expect(r.json().error.code).toBe("disabled");
      expect(existsSync(h.sentinel)).toBe(false);
      expect(snapshotTree(h.userDir)).toEqual(before);
    } finally {
      expect((await h.cli(["plugin", "enable", "docs-bundle", "--user"])).exitCode).toBe(0);
    }
  });

  test("a drifted bundle is quarantined for the probe and its code never runs", async () => {
    const dir = readdirSync(h.userDir).find((n) => n.startsWith("docs-bundle@")) as string;
    const script = join(h.userDir, dir, "mcp/sentinel.mjs");
    const original = await Bun.file(script).text();
    writeFileSync(script, `${original}// changed after install\n`);
    try {
      const before = snapshotTree(h.userDir);
      const r = await h.cli(["plugin", "mcp", "probe", "docs-bundle/sentinel", "--json"]);
      expect(r.exitCode).toBe(3);
      expect(r.json().error.code).toBe("runtime_mismatch");
      expect(existsSync(h.sentinel)).toBe(false);
      // The probe is read-only: the finding is not persisted into the registry.
      expect(snapshotTree(h.userDir)).toEqual(before);
    } finally {
      writeFileSync(script, original);
    }
  });
});
