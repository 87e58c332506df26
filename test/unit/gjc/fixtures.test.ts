import { describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { compileGjcBundle } from "../../../src/families/gjc/compile.ts";
import { fixturesDir } from "../../helpers/cli.ts";

const GJC = join(fixturesDir, "gjc");

/**
 * Every fixture under fixtures/gjc with the exact diagnostic codes it must produce, in
 * order. The order is the documented precedence (manifest rules first, then each surface,
 * then collisions), so a rule that moves or disappears fails here.
 */
const CASES: Record<string, string[]> = {
  "valid-six-surfaces": [],
  "valid-empty": [],
  "valid-mcpservers-alias": [],
  "valid-mcpservers-canonical": [],
  "valid-mixed-claude-root": [],
  "valid-string-tools": [],
  "valid-inline-appendix-sha256": [],
  "valid-agent-subskills": [],
  "valid-event-hooks": [],
  "valid-bundled-executable": [],
  "valid-crlf-bom-frontmatter": [],

  "forbidden-skills": ["forbidden_surface"],
  "forbidden-agents": ["forbidden_surface"],
  "forbidden-commands": ["forbidden_surface"],
  "forbidden-slash-commands": ["forbidden_surface"],
  "mcp-singular": ["unsupported_surface"],
  "unknown-key": ["unsupported_surface"],
  "claude-hooks-map": ["invalid_manifest"],
  "claude-hook-entry": ["invalid_manifest"],
  "invalid-kind": ["invalid_kind"],
  "missing-kind": ["invalid_kind"],
  "mcps-and-mcpservers": ["invalid_manifest"],
  "bad-name": ["invalid_manifest"],
  "bad-version": ["invalid_manifest"],
  "not-an-object": ["invalid_manifest"],
  "bad-json": ["invalid_manifest"],
  // forbidden ×2, mcp, unknown key, hooks map, kind, mcps+mcpServers, name, version
  "precedence-many": [
    "forbidden_surface",
    "forbidden_surface",
    "unsupported_surface",
    "unsupported_surface",
    "invalid_manifest",
    "invalid_kind",
    "invalid_manifest",
    "invalid_manifest",
    "invalid_manifest",
  ],

  "alias-env": ["unsupported_surface"],
  "alias-unpreservable-fields": Array(7).fill("unsupported_surface"),
  "alias-transport-field": ["unsupported_surface"],
  "alias-no-transport": ["invalid_manifest"],
  "alias-command-and-url": ["invalid_manifest"],
  "alias-unknown-key": ["unsupported_surface"],
  "alias-not-a-map": ["invalid_manifest"],

  "frontmatter-missing-fields": [
    "invalid_frontmatter",
    "invalid_frontmatter",
    "invalid_frontmatter",
    "invalid_frontmatter",
  ],
  "frontmatter-bad-yaml": ["invalid_frontmatter"],
  "frontmatter-none": ["invalid_frontmatter"],
  "frontmatter-control-chars": ["invalid_frontmatter"],
  "invalid-parent": ["invalid_parent"],
  "invalid-phase": ["invalid_phase"],
  "agent-appendix-bad-agent": ["invalid_parent"],

  "missing-file": ["missing_file"],
  "path-traversal": ["missing_file", "missing_file"],
  "path-backslash": ["missing_file", "missing_file"],
  "hash-mismatch": ["hash_mismatch"],

  "appendix-both": ["invalid_appendix"],
  "appendix-neither": ["invalid_appendix"],
  "appendix-empty-content": ["invalid_appendix"],
  "appendix-empty-file": ["invalid_appendix"],
  "appendix-oversize": ["invalid_appendix", "invalid_appendix"],

  "hook-tool-call-no-target": ["invalid_hook"],
  "hook-tool-call-after": ["invalid_hook"],
  "hook-tool-result-before": ["invalid_hook"],
  "hook-phase-on-session-event": ["invalid_hook"],
  // The seed forbids no event name: an unknown one is a warning (unknown_hook_event), the bundle valid.
  "hook-unknown-event": [],

  "mcp-stdio-no-command": ["invalid_mcp"],
  "mcp-http-no-url": ["invalid_mcp"],
  "mcp-bad-transport": ["invalid_manifest"],
  "mcp-url-loopback": ["security_policy", "security_policy"],
  "mcp-launcher-shell": ["security_policy", "security_policy"],
  "mcp-canonical-headers": ["unsupported_surface", "unsupported_surface"],
  "mcp-executable-not-executable": ["security_policy"],
  "tool-unknown-entry-key": ["invalid_manifest"],

  "duplicate-tool": ["duplicate_tool"],
  "duplicate-hook": ["duplicate_hook"],
  "duplicate-mcp": ["duplicate_mcp"],
  "duplicate-appendix": ["duplicate_appendix"],
  "duplicate-arg": ["duplicate_arg"],
  "duplicate-parent-phase": ["duplicate_parent_phase"],
};

describe("fixtures/gjc", () => {
  test("every fixture directory is in the table and the table names no missing fixture", () => {
    const onDisk = readdirSync(GJC).sort();
    expect(onDisk).toEqual(Object.keys(CASES).sort());
    expect(onDisk.length).toBeGreaterThanOrEqual(40);
  });

  test("the table covers every code of the seed vocabulary", () => {
    const covered = new Set(Object.values(CASES).flat());
    for (const code of [
      "forbidden_surface",
      "invalid_manifest",
      "invalid_kind",
      "unsupported_surface",
      "invalid_frontmatter",
      "invalid_parent",
      "invalid_phase",
      "missing_file",
      "hash_mismatch",
      "invalid_appendix",
      "invalid_hook",
      "invalid_mcp",
      "security_policy",
      "duplicate_tool",
      "duplicate_hook",
      "duplicate_mcp",
      "duplicate_appendix",
      "duplicate_arg",
      "duplicate_parent_phase",
    ])
      expect(covered.has(code)).toBe(true);
  });

  for (const [name, codes] of Object.entries(CASES)) {
    test(`${name} → ${codes.length ? codes.join(", ") : "valid"}`, () => {
      const result = compileGjcBundle(join(GJC, name));
      const errors = result.diagnostics.filter((d) => d.severity === "error");
      expect(errors.map((d): string => d.code)).toEqual(codes);
      expect(result.bundle !== undefined).toBe(codes.length === 0);
      expect(result.diagnostics.filter((d) => d.severity !== "error").map((d) => d.code)).toEqual(
        name === "hook-unknown-event" ? ["unknown_hook_event"] : [],
      );
      for (const d of errors) {
        expect(d.severity).toBe("error");
        expect(d.message.length).toBeGreaterThan(10);
        expect(d.path).not.toBe("");
      }
    });
  }
});
