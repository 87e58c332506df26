import { afterAll, beforeAll, expect, test } from "bun:test";
import { compiledBinary } from "../helpers/binary.ts";
import { sandbox } from "../helpers/sandbox.ts";
import { mcpHome } from "./mcp-setup.ts";

const tmp = sandbox("gjc-e2e-mcp-bin-");
let h: Awaited<ReturnType<typeof mcpHome>>;
beforeAll(async () => {
  h = await mcpHome(tmp, await compiledBinary());
}, 120_000);
afterAll(() => tmp.cleanup());

// The compiled binary launches `bun` servers with itself as the runtime (BUN_BE_BUN=1).
test("the compiled binary probes the SDK stdio server end to end, without leaking host secrets", async () => {
  const r = await h.cli(["plugin", "mcp", "probe", "docs-bundle/docs", "--json"]);
  expect(r.exitCode).toBe(0);
  const doc = r.json();
  expect(doc.serverInfo).toEqual({ name: "fixture-sdk-server", version: "1.2.3" });
  expect(doc.tools.map((t: { name: string }) => t.name)).toEqual(["echo", "env_names", "cwd"]);
  expect(doc.instructions).not.toContain("GJC_E2E_HOST_SECRET");
});

test("the compiled binary lists the declared servers", async () => {
  const r = await h.cli(["plugin", "mcp", "list", "--json"]);
  expect(r.exitCode).toBe(0);
  expect(r.json().servers).toHaveLength(5);
});
