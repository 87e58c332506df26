/**
 * src/families/c2/schemas.generated.ts: the C2 schemas as TypeBox's compiled checks, so
 * validating a valid bundle never loads TypeBox. It must be what the TypeBox schemas compile to,
 * the check must agree with TypeBox on every fixture, and a failing document must still be
 * explained by TypeBox (same diagnostics as passing the TypeBox schema itself).
 */
import type { Code } from "../../../src/core/codes.ts";
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Value } from "typebox/value";
import * as generated from "../../../src/families/c2/schemas.generated.ts";
import { schemaDiagnostics, type ErrorMapping } from "../../../src/families/c2/schema-errors.ts";
import { GENERATED_SCHEMAS, schemasModuleSource, typeboxSchema } from "../../../src/families/c2/schemas-source.ts";
import { Guard } from "typebox/guard";
import { compiledCheckSource } from "../../../src/families/c2/compiled-check.ts";
import { repoRoot } from "../../helpers/cli.ts";

type Name = keyof typeof GENERATED_SCHEMAS;
const names = Object.keys(GENERATED_SCHEMAS) as Name[];
const fixtures = join(repoRoot, "fixtures", "c2");

function readJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch {
    return undefined;
  }
}

/** Every document of the fixtures, paired with the generated schema that judges it. */
function fixtureDocuments(): [Name, unknown][] {
  const out: [Name, unknown][] = [];
  for (const dir of readdirSync(fixtures)) {
    const manifest = readJson(join(fixtures, dir, "plugin.json")) as any;
    if (manifest !== undefined) {
      out.push(["ManifestRoot", manifest]);
      const c2 = manifest?.extensions?.["dev.codetwo"];
      if (c2 !== undefined) out.push(["Codetwo", c2]);
    }
    const mcp = readJson(join(fixtures, dir, "mcp.json")) as any;
    if (mcp !== undefined) {
      out.push(["McpRoot", mcp]);
      for (const server of Object.values((mcp?.mcpServers ?? {}) as Record<string, any>)) {
        if (server?.type === "stdio") out.push(["StdioServer", server]);
        if (server?.type === "streamable-http" || server?.type === "sse") out.push(["HttpServer", server]);
      }
    }
  }
  return out;
}

const mapping: ErrorMapping = {
  at: "doc#",
  label: "",
  code: (segments, keyword) => `${segments.join(".")}:${keyword}` as Code,
};

describe("schemas.generated.ts", () => {
  test("the committed file is up to date (run bun run gen:schemas when this fails)", () => {
    const committed = readFileSync(join(repoRoot, "src", "families", "c2", "schemas.generated.ts"), "utf8");
    expect(committed).toBe(schemasModuleSource());
  });

  test("load() returns the very TypeBox schema each check was compiled from", () => {
    for (const name of names) expect(generated[name].load()).toBe(typeboxSchema(name));
  });

  test("the generated check agrees with TypeBox on every fixture document, and accepts the valid ones", () => {
    const accepted: Record<string, number> = {};
    for (const [name, doc] of fixtureDocuments()) {
      const fast = generated[name].check(doc);
      expect({ name, doc, fast }).toEqual({ name, doc, fast: Value.Check(typeboxSchema(name) as any, doc) });
      if (fast) accepted[name] = (accepted[name] ?? 0) + 1;
    }
    expect(accepted.ManifestRoot).toBeGreaterThan(50);
    expect(accepted.Codetwo).toBeGreaterThan(30);
    expect(accepted.McpRoot).toBeGreaterThan(5);
    expect(accepted.StdioServer).toBeGreaterThan(3);
    expect(accepted.HttpServer).toBeGreaterThan(3);
  });

  test("a failing document gets the diagnostics TypeBox gives for the original schema", () => {
    let failing = 0;
    for (const [name, doc] of fixtureDocuments()) {
      const fromGenerated = schemaDiagnostics(generated[name], doc, mapping);
      expect(fromGenerated).toEqual(schemaDiagnostics(typeboxSchema(name), doc, mapping));
      if (fromGenerated.length > 0) failing++;
    }
    expect(failing).toBeGreaterThan(20);
  });

  test("keys named like Object.prototype members are unknown fields, not a way past a closed object", () => {
    const base = { $schema: "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json", name: "x", version: "1.0.0" };
    for (const key of ["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf"]) {
      const doc = JSON.parse(JSON.stringify(base).replace(/}$/, `,${JSON.stringify(key)}:1}`));
      expect(Object.keys(doc)).toContain(key);
      expect(generated.ManifestRoot.check(doc)).toBe(false);
      expect(Value.Check(typeboxSchema("ManifestRoot") as any, doc)).toBe(false);
      const diagnostics = schemaDiagnostics(generated.ManifestRoot, doc, mapping);
      expect(diagnostics.map((d) => [d.code, d.path])).toEqual([["unknown_field", `doc#/${key}`]]);
    }
    // A required key missing from the object itself is missing.
    const noName = { $schema: base.$schema };
    expect(generated.ManifestRoot.check(noName)).toBe(false);
  });

  test("patterns keep the u flag TypeBox compiles them with", () => {
    // Without u, "." matches half of a surrogate pair, so the astral character counts twice.
    const source = compiledCheckSource({ type: "string", pattern: "^.$" });
    expect(source).toContain("/^.$/u");
    const check = new Function("Guard", `return ${source}`)(Guard) as (v: unknown) => boolean;
    expect(check("😀")).toBe(true);
    expect(Value.Check({ type: "string", pattern: "^.$" } as any, "😀")).toBe(true);
  });
});
