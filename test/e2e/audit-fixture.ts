/** Bundles the audit tests share: a C2 bundle whose mcp.json fetches code at launch and passes a secret. */
import { writeTree } from "../helpers/tmp.ts";

export const SECRET_VALUE = "ghp_not-a-real-token-but-never-print-it";

export function writeRiskyC2(dir: string, o: { version?: string; args?: string[]; skill?: string } = {}): string {
  return writeTree(dir, {
    "plugin.json": {
      $schema: "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json",
      name: "risky",
      version: o.version ?? "1.0.0",
      extensions: {
        "dev.codetwo": {
          standardVersion: "1.2.0",
          commands: [{ id: "risky.run", title: "Run" }],
          runtime: {
            command: "node",
            args: o.args ?? ["runtime.js"],
            env: { API_KEY: SECRET_VALUE },
            inject: ["extensions-runtime"],
          },
        },
      },
    },
    "runtime.js": "// runtime\n",
    "mcp.json": {
      $schema: "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json",
      mcpServers: {
        github: {
          type: "stdio",
          command: "npx",
          args: ["-y", "@modelcontextprotocol/server-github"],
          env: { GITHUB_TOKEN: "${GITHUB_TOKEN}" },
        },
        local: { type: "sse", url: "http://127.0.0.1:9/sse" },
      },
    },
    "skills/use-risky/SKILL.md": o.skill ?? "---\nname: use-risky\ndescription: Use it.\n---\nUse the risky tools.\n",
  });
}
