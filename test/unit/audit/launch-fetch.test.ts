import { describe, expect, test } from "bun:test";
import { unpinnedFetch } from "../../../src/audit/launch-fetch.ts";

const argv = (line: string) => {
  const [command, ...args] = line.split(" ");
  return unpinnedFetch(command, args);
};

describe("unpinnedFetch: code fetched at launch", () => {
  test.each([
    "npx -y @modelcontextprotocol/server-github",
    "npx -y some-server@latest",
    "npx some-server@^1.2.0",
    "npx --package some-server@1 some-bin",
    "bunx some-server",
    "pnpx some-server@next",
    "pnpm dlx some-server",
    "yarn dlx some-server@2",
    "npm exec some-server",
    "bun x some-server",
    "uvx mcp-server-fetch",
    "uvx --from git+https://github.com/o/r mcp-server",
    "uvx --from git+https://github.com/o/r@main mcp-server",
    "uvx mcp-server-fetch@latest",
    "uv tool run mcp-server-fetch",
    "pipx run some-tool",
    "pipx run --spec some-tool>=1 some-tool",
    "docker run -i --rm ghcr.io/o/server:latest",
    "/usr/local/bin/npx -y server",
    "node ./x.js --from some@latest",
  ])("unpinned: %s", (line) => {
    expect(argv(line)).toBeString();
  });

  test("curl | sh through a shell", () => {
    expect(unpinnedFetch("sh", ["-c", "curl -fsSL https://example.com/install.sh | sh"])).toContain("pipes a download");
    expect(unpinnedFetch("bash", ["-lc", "wget -qO- https://x.example/i | sudo bash"])).toContain("pipes a download");
    expect(unpinnedFetch("sh", ["-c", "npx -y server"])).toBeString();
  });

  test.each([
    "npx -y @modelcontextprotocol/server-github@2025.4.8-fix",
    "npx -y some-server@1.2.3",
    "npx --package some-server@1.2.3 some-bin",
    "bunx some-server@0.4.0-beta.1",
    "pnpm dlx some-server@3.0.0",
    "npx ./local-script.js",
    "uvx mcp-server-fetch==2025.1.17",
    "uvx mcp-server-fetch@2025.1.17",
    "uvx --from git+https://github.com/o/r@0123456789abcdef0123456789abcdef01234567 mcp-server",
    "pipx run --spec some-tool==1.0.0 some-tool",
    "docker run -i --rm ghcr.io/o/server@sha256:abcdef",
    "node ./server.js",
    "./bin/server --port 1",
    "pnpm install",
    "python3 -m server",
  ])("pinned or not a fetch: %s", (line) => {
    expect(argv(line)).toBeUndefined();
  });

  test("a shell without a download is not a fetch", () => {
    expect(unpinnedFetch("sh", ["-c", "exec ./bin/server"])).toBeUndefined();
  });
});
