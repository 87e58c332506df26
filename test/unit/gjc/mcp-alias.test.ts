import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { DiagnosticSink } from "../../../src/core/diagnostics.ts";
import { compileGjcBundle } from "../../../src/families/gjc/compile.ts";
import { normalizeMcpServers } from "../../../src/families/gjc/mcp-alias.ts";
import { fixturesDir } from "../../helpers/cli.ts";
import { tempDir, writeTree } from "../../helpers/tmp.ts";

function normalize(value: unknown) {
  const sink = new DiagnosticSink();
  const out = normalizeMcpServers(sink, value, "gajae-plugin.json#/mcpServers");
  return {
    entries: out.map((l) => l.entry),
    at: out.map((l) => l.at),
    diags: sink.items,
    codes: sink.items.map((d) => d.code),
  };
}

describe("mcpServers alias → canonical mcps", () => {
  test("the alias fixture compiles to byte-identical surfaces and manifest as its canonical spelling", () => {
    const alias = compileGjcBundle(join(fixturesDir, "gjc", "valid-mcpservers-alias"));
    const canonical = compileGjcBundle(join(fixturesDir, "gjc", "valid-mcpservers-canonical"));
    expect(alias.diagnostics).toEqual([]);
    expect(canonical.diagnostics).toEqual([]);
    const a = alias.bundle!;
    const c = canonical.bundle!;
    expect(a.surfaces.length).toBe(4);
    expect(JSON.stringify(a.surfaces)).toBe(JSON.stringify(c.surfaces));
    expect(JSON.stringify(a.manifest)).toBe(JSON.stringify(c.manifest));
    // Only the manifest's own bytes differ (it is hashed raw); every other planned file is identical.
    expect(a.manifestSha256).not.toBe(c.manifestSha256);
    expect(a.files.slice(1)).toEqual(c.files.slice(1));
    // Declared order, as the canonical array keeps it.
    expect(a.surfaces.map((s) => s.id)).toEqual(["mcp:zeta-remote", "mcp:beta", "mcp:alpha", "mcp:gamma-sse"]);
  });

  test("equivalence holds for a generated pair too, and breaks when the canonical side differs", () => {
    const dir = tempDir();
    try {
      const base = { kind: "gajae-code-plugin", name: "eq", version: "1.0.0" };
      const files = { "s.ts": "// server\n" };
      const alias = writeTree(join(dir.path, "alias"), {
        ...files,
        "gajae-plugin.json": { ...base, mcpServers: { s: { args: ["s.ts"], command: "bun" } } },
      });
      const canon = writeTree(join(dir.path, "canon"), {
        ...files,
        "gajae-plugin.json": { ...base, mcps: [{ transport: "stdio", command: "bun", args: ["s.ts"], name: "s" }] },
      });
      const other = writeTree(join(dir.path, "other"), {
        ...files,
        "gajae-plugin.json": { ...base, mcps: [{ name: "s", transport: "stdio", command: "node", args: ["s.ts"] }] },
      });
      const surfaces = (p: string) => JSON.stringify(compileGjcBundle(p).bundle!.surfaces);
      expect(surfaces(alias)).toBe(surfaces(canon));
      expect(surfaces(alias)).not.toBe(surfaces(other));
    } finally {
      dir.cleanup();
    }
  });

  test("servers keep their declared order, like canonical mcps (integer-like names come first, as in any JavaScript object)", () => {
    const { entries } = normalize(
      JSON.parse(
        '{"b":{"url":"https://b.example.com"},"B":{"url":"https://c.example.com"},"a":{"url":"https://a.example.com"},"9":{"url":"https://d.example.com"}}',
      ),
    );
    expect(entries.map((e) => e.name)).toEqual(["9", "b", "B", "a"]);
  });

  test("transport from type, else command → stdio, else url → http; sse only when named", () => {
    const { entries, diags } = normalize({
      t1: { type: "stdio", command: "bun", args: ["a.ts"] },
      t2: { command: "node", args: ["b.mjs"], cwd: "srv" },
      t3: { url: "https://x.example.com/mcp" },
      t4: { type: "sse", url: "https://x.example.com/sse" },
      t5: { type: "http", url: "https://x.example.com/h" },
    });
    expect(diags).toEqual([]);
    expect(entries).toEqual([
      { name: "t1", transport: "stdio", command: "bun", args: ["a.ts"] },
      { name: "t2", transport: "stdio", command: "node", args: ["b.mjs"], cwd: "srv" },
      { name: "t3", transport: "http", url: "https://x.example.com/mcp" },
      { name: "t4", transport: "sse", url: "https://x.example.com/sse" },
      { name: "t5", transport: "http", url: "https://x.example.com/h" },
    ]);
  });

  test("each unpreservable field gets its own targeted unsupported_surface diagnostic", () => {
    for (const key of ["env", "auth", "oauth", "headers", "enabled", "timeout", "autoload", "noInheritEnv"]) {
      const { diags, entries } = normalize({
        s: { command: "bun", args: ["s.ts"], [key]: key === "enabled" ? true : {} },
      });
      expect(entries).toEqual([]);
      expect(diags).toHaveLength(1);
      expect(diags[0]).toMatchObject({ code: "unsupported_surface", path: `gajae-plugin.json#/mcpServers/s/${key}` });
      expect(diags[0].message).toContain(`uses "${key}"`);
      expect(diags[0].hint).toContain(".gjc/mcp.json");
      expect(diags[0].hint).toContain("/extensions");
    }
  });

  test("fields foreign to the transport are unsupported_surface", () => {
    const { diags } = normalize({
      a: { type: "stdio", command: "bun", args: ["s.ts"], url: "https://x.example.com" },
      b: { type: "http", url: "https://x.example.com", command: "bun", args: [], cwd: "." },
      c: { url: "https://x.example.com", args: ["x"] },
    });
    expect(diags.map((d) => [d.code, d.path])).toEqual([
      ["unsupported_surface", "gajae-plugin.json#/mcpServers/a/url"],
      ["unsupported_surface", "gajae-plugin.json#/mcpServers/b/command"],
      ["unsupported_surface", "gajae-plugin.json#/mcpServers/b/args"],
      ["unsupported_surface", "gajae-plugin.json#/mcpServers/b/cwd"],
      ["unsupported_surface", "gajae-plugin.json#/mcpServers/c/args"],
    ]);
    expect(diags[0].message).toContain('with transport "stdio"');
  });

  test("keys outside the alias vocabulary, including canonical-only name/transport/sha256, are refused", () => {
    const { diags } = normalize({
      s: { command: "bun", args: ["s.ts"], name: "x", transport: "stdio", sha256: "a".repeat(64), tyep: "stdio" },
    });
    expect(diags.map((d) => d.code)).toEqual(Array(4).fill("unsupported_surface"));
    expect(diags[3].message).toContain('Did you mean "type"?');
  });

  test("transport cannot be determined, is ambiguous, or is not a known type", () => {
    expect(normalize({ s: { args: ["x"] } }).diags[0].message).toContain("no transport");
    expect(normalize({ s: { command: 5 } }).codes).toEqual(["invalid_manifest"]);
    expect(normalize({ s: { command: "bun", url: "https://x.example.com" } }).diags[0].message).toContain(
      'both "command" and "url"',
    );
    expect(normalize({ s: { type: "ws", url: "https://x.example.com" } }).diags[0]).toMatchObject({
      code: "invalid_manifest",
      path: "gajae-plugin.json#/mcpServers/s/type",
    });
  });

  test("the map and each server config must be objects; names follow the name grammar", () => {
    expect(normalize([]).diags[0].message).toContain("map of server name to configuration");
    expect(normalize({ s: "bun s.ts" }).diags[0].message).toContain("must be an object");
    const bad = normalize({ "bad name": { url: "https://x.example.com" } });
    expect(bad.codes).toEqual(["invalid_manifest"]);
    expect(bad.diags[0].path).toBe("gajae-plugin.json#/mcpServers/bad%20name");
  });

  test("an alias server's pointer escapes / and ~ per RFC 6901", () => {
    expect(normalize({ "a/b~c": { url: "https://x.example.com" } }).diags[0].path).toBe(
      "gajae-plugin.json#/mcpServers/a~1b~0c",
    );
  });
});
