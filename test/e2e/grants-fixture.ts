/** Bundles the grant tests share: a GJC bundle with one stdio MCP server, a C2 bundle with a runtime, a language server and a stdio MCP server. */
import type { Sandbox } from "../helpers/sandbox.ts";

export function writeGjcServerBundle(box: Sandbox, rel = "src/gjc-notes", name = "notes"): string {
  return box.write(rel, {
    "gajae-plugin.json": {
      kind: "gajae-code-plugin",
      name,
      version: "1.0.0",
      mcps: [{ name, transport: "stdio", command: "bun", args: ["mcp/notes.mjs"] }],
    },
    "mcp/notes.mjs": "// an MCP server (never started here)\n",
  });
}

export function writeC2ProcessBundle(box: Sandbox, rel = "src/c2-kit"): string {
  return box.write(rel, {
    "plugin.json": {
      $schema: "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json",
      name: "kit",
      version: "1.0.0",
      extensions: {
        "dev.codetwo": {
          standardVersion: "1.2.0",
          commands: [{ id: "kit.run", title: "Run" }],
          runtime: { command: "node", args: ["runtime.js"], inject: ["extensions-runtime"] },
          languageServers: [{ id: "ls", languages: ["zig"], command: "node", args: ["${PLUGIN_ROOT}/lsp.mjs"] }],
        },
      },
    },
    "runtime.js": "// runtime\n",
    "lsp.mjs": "// language server\n",
    "mcp.json": {
      $schema: "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json",
      mcpServers: { srv: { type: "stdio", command: "node", args: ["${PLUGIN_ROOT}/srv.mjs"] } },
    },
    "srv.mjs": "// an MCP server\n",
  });
}
