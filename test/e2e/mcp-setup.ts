import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { CliResult } from "../helpers/cli.ts";
import type { Sandbox } from "../helpers/sandbox.ts";
import { sdkServerBuild } from "../unit/mcp/fixture-servers.ts";

/**
 * A sandbox (test/helpers/sandbox.ts) with one GJC bundle installed in the user scope: the SDK fixture server
 * launched by bun and by node, a bundled executable, a server that writes a sentinel file if
 * it is ever run, and an https server whose name never resolves (`.invalid`, RFC 6761).
 */
export async function mcpHome(box: Sandbox, binary?: string) {
  const userDir = box.user;
  const src = join(box.root, "bundle");
  const sentinel = join(box.root, "sentinel-ran");
  for (const d of [userDir, join(src, "mcp"), join(src, "bin")]) mkdirSync(d, { recursive: true });
  const server = await sdkServerBuild();
  writeFileSync(join(src, "mcp/server.mjs"), await Bun.file(server).bytes());
  writeFileSync(
    join(src, "mcp/sentinel.mjs"),
    `import { writeFileSync } from "node:fs"; writeFileSync(${JSON.stringify(sentinel)}, "ran");\n`,
  );
  writeFileSync(join(src, "bin/server"), "#!/bin/sh\nexec node ./mcp/server.mjs\n");
  chmodSync(join(src, "bin/server"), 0o755);
  writeFileSync(
    join(src, "gajae-plugin.json"),
    JSON.stringify({
      kind: "gajae-code-plugin",
      name: "docs-bundle",
      version: "1.0.0",
      mcps: [
        { name: "docs", transport: "stdio", command: "bun", args: ["mcp/server.mjs"], cwd: "." },
        { name: "docs-node", transport: "stdio", command: "node", args: ["server.mjs"], cwd: "mcp" },
        { name: "native", transport: "stdio", command: "./bin/server" },
        { name: "sentinel", transport: "stdio", command: "bun", args: ["mcp/sentinel.mjs"] },
        { name: "remote", transport: "http", url: "https://mcp.gjc.invalid/mcp" },
      ],
    }),
  );
  const cli = (args: string[]): Promise<CliResult> =>
    box.gjc(args, { binary, env: { GJC_E2E_HOST_SECRET: "do-not-leak-1234" } });
  const install = await cli(["plugin", "install", src, "--user", "--json"]);
  if (install.exitCode !== 0) throw new Error(`install failed: ${install.stdout}\n${install.stderr}`);
  return { cli, userDir, sentinel, src };
}
