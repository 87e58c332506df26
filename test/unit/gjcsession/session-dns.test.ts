/**
 * Issue #12, class 10: session start resolves the host of every remote MCP server and never
 * hands out one whose name now resolves to a denied address (DNS rebinding after install).
 */
import { afterEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { startSession } from "../../../src/gjcsession/session.ts";
import { sandbox } from "../../helpers/sandbox.ts";
import { writeTree } from "../../helpers/tmp.ts";
import { install, testContext } from "./_bundles.ts";

let cleanup: () => void = () => {};
afterEach(() => cleanup());

async function world() {
  const t = sandbox("gjc-session-dns-");
  cleanup = t.cleanup;
  const ctx = testContext(t);
  const dir = writeTree(join(t.root, "src"), {
    "gajae-plugin.json": {
      kind: "gajae-code-plugin",
      name: "remote",
      version: "1.0.0",
      mcps: [
        { name: "good", transport: "http", url: "https://good.example.com/mcp" },
        { name: "rebound", transport: "sse", url: "https://rebound.example.com/sse" },
        { name: "mixed", transport: "http", url: "https://mixed.example.com/mcp" },
        { name: "gone", transport: "http", url: "https://gone.example.com/mcp" },
      ],
    },
  });
  await install(ctx, dir, "user");
  return ctx;
}

// What DNS says at session start: one public name, one rebound to loopback, one with a private
// answer among public ones, and one that does not resolve.
const answers: Record<string, string[]> = {
  "good.example.com": ["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"],
  "rebound.example.com": ["127.0.0.1"],
  "mixed.example.com": ["93.184.216.34", "10.0.0.7"],
};
const resolver = async (name: string) => {
  const a = answers[name];
  if (!a) throw Object.assign(new Error("not found"), { code: "ENOTFOUND" });
  return a;
};

describe("session start pins remote MCP servers to checked addresses", () => {
  test("a name resolving to a denied address, partly denied, or not at all is left out with a diagnostic; the others carry their checked addresses", async () => {
    const ctx = await world();
    const { plan } = await startSession(ctx, { resolver });
    expect(plan.mcpServers).toEqual([
      {
        scope: "user",
        bundle: "remote",
        surfaceId: "mcp:good",
        name: "good",
        pinDigest: null,
        transport: "http",
        url: "https://good.example.com/mcp",
        addresses: ["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"],
      },
    ]);
    const left = plan.diagnostics.filter((d) => d.code === "security_policy").map((d) => [d.surfaceId, d.severity]);
    expect(left).toEqual([
      ["mcp:rebound", "error"],
      ["mcp:mixed", "error"],
      ["mcp:gone", "error"],
    ]);
    const surfaces = plan.bundles[0].surfaces.filter((s) => s.kind === "mcp").map((s) => [s.id, s.status]);
    expect(surfaces).toEqual([
      ["mcp:good", "active"],
      ["mcp:rebound", "quarantined"],
      ["mcp:mixed", "quarantined"],
      ["mcp:gone", "quarantined"],
    ]);
    expect(plan.diagnostics.find((d) => d.surfaceId === "mcp:rebound")?.message).toContain("denied address");
    expect(plan.diagnostics.find((d) => d.surfaceId === "mcp:gone")?.message).toContain("could not be resolved");
  });
});
