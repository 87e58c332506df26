/**
 * Run by https.test.ts in a child process whose environment names a proxy. It first makes a
 * plain fetch (which must go to the proxy, proving the variables are live), then a probe
 * (which must not). Prints one JSON line.
 */
import { readFileSync } from "node:fs";
import { probeHttpServer } from "../../../src/mcp/http.ts";

const [port, certFile] = process.argv.slice(2);
const ca = readFileSync(certFile, "utf8");
let plain = "ok";
try {
  await fetch(`https://mcp.gjc.test:${port}/`, { tls: { ca } } as RequestInit);
} catch (e) {
  plain = `failed: ${(e as { code?: string }).code ?? (e as Error).message}`;
}
const result = await probeHttpServer({
  url: `https://mcp.gjc.test:${port}/mcp`,
  transport: "http",
  addressCheck: async () => ({ ok: true, addresses: ["127.0.0.1"] }),
  ca,
});
process.stdout.write(`${JSON.stringify({ plain, tools: result.tools.length })}\n`);
