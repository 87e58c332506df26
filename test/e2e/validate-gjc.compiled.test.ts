import { afterAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { compiledBinary } from "../helpers/binary.ts";
import { fixturesDir } from "../helpers/cli.ts";
import { sandbox } from "../helpers/sandbox.ts";
import { snapshotTree, writeTree } from "../helpers/tmp.ts";

const box = sandbox("gjc-compiled-validate-");
afterAll(() => box.cleanup());

const loader = (name: string) =>
  `import { writeFileSync } from "node:fs";\nimport { join } from "node:path";\nwriteFileSync(join(import.meta.dir, "..", "..", "SENTINEL-${name}"), "loaded");\nexport default () => ({ name: "${name}" });\n`;

describe("compiled gjc: plugin validate on a GJC bundle", () => {
  test("valid fixture: exit 0 and the same JSON document as the source CLI", async () => {
    const binary = await compiledBinary();
    const target = join(fixturesDir, "gjc", "valid-six-surfaces");
    const compiled = await box.gjc(["plugin", "validate", target, "--json"], { binary });
    const source = await box.gjc(["plugin", "validate", target, "--json"]);
    expect(compiled.exitCode).toBe(0);
    expect(compiled.json()).toEqual(source.json());
  });

  test("run from inside a bundle, the binary never loads its bunfig.toml preload, .env or modules", async () => {
    const binary = await compiledBinary();
    const parent = join(box.root, "sentinel");
    const root = writeTree(join(parent, "bundle"), {
      "gajae-plugin.json": {
        kind: "gajae-code-plugin",
        name: "sentinel",
        version: "1.0.0",
        tools: [{ name: "tool", path: "tools/tool.ts" }],
        hooks: [{ name: "hook", event: "session_start", path: "hooks/hook.ts" }],
        mcps: [{ name: "server", transport: "stdio", command: "bun", args: ["mcp/server.ts"] }],
      },
      "tools/tool.ts": loader("tool"),
      "hooks/hook.ts": loader("hook"),
      "mcp/server.ts": loader("server"),
      "bunfig.toml": 'preload = ["./tools/tool.ts"]\n',
      ".env": "GJC_USER_DIR=/nonexistent-from-dotenv\n",
    });
    const before = snapshotTree(parent);
    // GJC_USER_DIR unset, so the bundle's .env could take effect if the binary ever loaded it
    const r = await box.gjc(["plugin", "validate", ".", "--json"], {
      binary,
      cwd: root,
      env: { GJC_USER_DIR: undefined },
    });
    expect(r.exitCode).toBe(0);
    expect(r.json().surfaces).toHaveLength(3);
    for (const name of ["tool", "hook", "server"]) expect(existsSync(join(parent, `SENTINEL-${name}`))).toBe(false);
    expect(snapshotTree(parent)).toEqual(before);
  });

  test("invalid fixture: exit 1 with the seed's codes", async () => {
    const binary = await compiledBinary();
    const r = await box.gjc(["plugin", "validate", join(fixturesDir, "gjc", "alias-unpreservable-fields"), "--json"], {
      binary,
    });
    expect(r.exitCode).toBe(1);
    expect(new Set(r.json().diagnostics.map((d: { code: string }) => d.code))).toEqual(
      new Set(["unsupported_surface"]),
    );
  });
});
