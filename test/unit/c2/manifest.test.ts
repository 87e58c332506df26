import { describe, expect, test } from "bun:test";
import { parseC2Manifest } from "../../../src/families/c2/manifest.ts";

const SCHEMA = "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json";
const base = (codetwo: Record<string, unknown>, over: Record<string, unknown> = {}) => ({
  $schema: SCHEMA,
  name: "demo",
  version: "1.2.3",
  extensions: { "dev.codetwo": { standardVersion: "1.2.0", ...codetwo } },
  ...over,
});
const rt = { command: "node", args: ["plugin.js"] };

describe("parseC2Manifest normalization", () => {
  test("fills defaults and normalizes values (c2-notes §2)", () => {
    const raw = base({
      commands: [
        { id: "demo.run", title: "  Run it  ", description: " Does it. ", argsSchema: { type: "object" } },
        { id: "demo.other", title: "Other", argsSchema: null },
      ],
      runtime: rt,
      ui: [{ id: "go", slot: "composer.toolbar", label: " Go ", command: "demo.run" }],
      connectors: [
        {
          id: "chat",
          provider: "example-chat",
          command: "demo.other",
          capabilities: ["messaging", "connection", "messaging"],
        },
      ],
      languageServers: [{ id: "zls", languages: ["Zig", "zig", "ZIG-x"], command: "zls" }],
    }) as any;
    raw.extensions["com.other"] = { keep: [1, 2] };
    raw.author = { name: "A" };
    const { manifest, diagnostics } = parseC2Manifest(raw);
    expect(diagnostics).toEqual([]);
    const c2 = manifest!.codetwo;
    expect(manifest!.extensions).toEqual({ "com.other": { keep: [1, 2] } });
    expect(manifest!.author).toEqual({ name: "A" });
    expect(manifest!.keywords).toEqual([]);
    expect(c2.commands).toEqual([
      { id: "demo.run", title: "Run it", description: "Does it.", argsSchema: { type: "object" } },
      { id: "demo.other", title: "Other", description: "", argsSchema: null },
    ]);
    expect(c2.runtime).toEqual({
      command: "node",
      protocol: "1.0.0",
      args: ["plugin.js"],
      env: {},
      inject: [],
      optionalInject: [],
      scopeSupport: ["user"],
    });
    expect(c2.ui).toEqual([
      { id: "go", slot: "composer.toolbar", label: "Go", description: "", command: "demo.run", input: null, order: 0 },
    ]);
    expect(c2.connectors[0].capabilities).toEqual(["messaging", "connection"]);
    expect(c2.languageServers[0].languages).toEqual(["zig", "zig-x"]);
  });

  test("scopeSupport: project is kept only when declared, user always", () => {
    const scopes = (s: unknown) =>
      parseC2Manifest(base({ commands: [{ id: "a.b", title: "t" }], runtime: { ...rt, scopeSupport: s } })).manifest!
        .codetwo.runtime!.scopeSupport;
    expect(scopes(["user", "project"])).toEqual(["user", "project"]);
    expect(scopes(["project"])).toEqual(["user", "project"]);
    expect(scopes(["user"])).toEqual(["user"]);
  });

  test("a data-only manifest has no runtime and empty arrays", () => {
    const { manifest } = parseC2Manifest(base({}));
    expect(manifest!.codetwo).toEqual({
      standardVersion: "1.2.0",
      runtime: null,
      commands: [],
      ui: [],
      connectors: [],
      languageServers: [],
    });
  });

  test("lengths are Unicode code points: 80 emoji fit, 81 accented letters do not", () => {
    const title = (t: string) =>
      parseC2Manifest(base({ commands: [{ id: "a.b", title: t }], runtime: rt })).diagnostics.map((d) => d.code);
    expect(title("😀".repeat(80))).toEqual([]);
    expect(title("é".repeat(81))).toEqual(["invalid_command"]);
    expect(title("x".repeat(80))).toEqual([]);
  });

  test("without bundleDir, bundle-relative executables are checked lexically only", () => {
    const ok = parseC2Manifest(base({ commands: [{ id: "a.b", title: "t" }], runtime: { command: "./bin/run" } }));
    expect(ok.diagnostics).toEqual([]);
    const bad = parseC2Manifest(base({ commands: [{ id: "a.b", title: "t" }], runtime: { command: "bin//run" } }));
    expect(bad.diagnostics.map((d) => d.code)).toEqual(["unsafe_path"]);
  });
});

describe("parseC2Manifest diagnostics", () => {
  test("reports every error of a manifest in one run, each at its JSON pointer", () => {
    const raw = {
      $schema: SCHEMA,
      name: "Bad",
      version: "1.0",
      licence: "MIT",
      extensions: {
        "dev.codetwo": {
          standardVersion: "1.2.0",
          comands: [],
          commands: [
            { id: "x", title: "" },
            { id: "a.b", title: "t", handler: 1 },
            { id: "a.b", title: "t" },
            { id: "ok.one", title: "t" },
          ],
          runtime: { command: "node", commandTimeoutMs: 1000 },
          ui: [{ id: "u", slot: "sidebar", label: "L", command: "z.z" }],
          connectors: [{ id: "c", provider: "p", command: "ok.one", capabilities: ["issues"] }],
        },
      },
    };
    const got = parseC2Manifest(raw).diagnostics.map((d) => [d.code, d.path]);
    expect(got).toEqual([
      ["unknown_field", "plugin.json#/licence"],
      ["invalid_name", "plugin.json#/name"],
      ["invalid_version", "plugin.json#/version"],
      ["unknown_field", "plugin.json#/extensions/dev.codetwo/comands"],
      ["unknown_field", "plugin.json#/extensions/dev.codetwo/runtime/commandTimeoutMs"],
      ["invalid_command", "plugin.json#/extensions/dev.codetwo/commands/0/id"],
      ["unknown_field", "plugin.json#/extensions/dev.codetwo/commands/1/handler"],
      ["invalid_ui", "plugin.json#/extensions/dev.codetwo/ui/0/slot"],
      ["invalid_connector", "plugin.json#/extensions/dev.codetwo/connectors/0/capabilities/0"],
      ["invalid_command", "plugin.json#/extensions/dev.codetwo/commands/0/title"],
      ["duplicate_command", "plugin.json#/extensions/dev.codetwo/commands/2/id"],
      ["undeclared_command", "plugin.json#/extensions/dev.codetwo/ui/0/command"],
    ]);
  });

  test("unknown keys get a did-you-mean against the closed key set, and newer fields say so", () => {
    const ds = parseC2Manifest({
      ...base({ comands: [] }),
      licence: "MIT",
      extensions: {
        "dev.codetwo": {
          standardVersion: "1.2.0",
          comands: [],
          runtime: { command: "node", commandTimeoutMs: 5 },
          commands: [{ id: "a.b", title: "t", titel: "x" }],
        },
      },
    }).diagnostics;
    const byPath = Object.fromEntries(ds.map((d) => [d.path, d]));
    expect(byPath["plugin.json#/licence"].message).toContain('Did you mean "license"?');
    expect(byPath["plugin.json#/extensions/dev.codetwo/comands"].message).toContain('Did you mean "commands"?');
    expect(byPath["plugin.json#/extensions/dev.codetwo/commands/0/titel"].message).toContain('Did you mean "title"?');
    expect(byPath["plugin.json#/extensions/dev.codetwo/runtime/commandTimeoutMs"].hint).toContain(
      "newer than C2 Plugin Standard 1.2.0",
    );
  });

  test("every diagnostic carries a readable message", () => {
    const ds = parseC2Manifest({
      $schema: "x",
      name: "A",
      extensions: { "dev.codetwo": { standardVersion: "1.2.0", runtime: { command: "" }, ui: [{}] } },
    }).diagnostics;
    expect(ds.length).toBeGreaterThan(3);
    for (const d of ds) expect(d.message.length).toBeGreaterThan(5);
  });

  test("a foreign standardVersion stops the C2 checks (a different contract)", () => {
    const ds = parseC2Manifest(base({ standardVersion: "2.0.0", commands: "not even an array" })).diagnostics;
    expect(ds.map((d) => d.code)).toEqual(["unsupported_standard"]);
  });

  test("non-object documents and missing extension", () => {
    expect(parseC2Manifest("x").diagnostics.map((d) => d.code)).toEqual(["invalid_manifest"]);
    expect(parseC2Manifest(null).diagnostics.map((d) => d.code)).toEqual(["invalid_manifest"]);
    expect(parseC2Manifest({ $schema: SCHEMA, name: "a", version: "1.0.0" }).diagnostics.map((d) => d.code)).toEqual([
      "missing_codetwo",
    ]);
  });

  test("reserved host namespaces cannot be claimed", () => {
    for (const ns of ["git", "plugins", "host", "extensions", "Git", "PLUGINS", "hOsT", "Extensions"]) {
      const ds = parseC2Manifest(base({ commands: [{ id: `${ns}.x`, title: "t" }], runtime: rt })).diagnostics;
      expect(ds.map((d) => d.code)).toEqual(["reserved_namespace"]);
    }
    expect(parseC2Manifest(base({ commands: [{ id: "gitx.status", title: "t" }], runtime: rt })).diagnostics).toEqual(
      [],
    );
  });

  test("limits: 100 commands and connectors pass, 101 fail; 16 languages pass", () => {
    const cmds = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `a.c${i}`, title: "t" }));
    expect(parseC2Manifest(base({ commands: cmds(100), runtime: rt })).diagnostics).toEqual([]);
    expect(parseC2Manifest(base({ commands: cmds(101), runtime: rt })).diagnostics.map((d) => d.code)).toEqual([
      "too_many_commands",
    ]);
    const conns = (n: number) =>
      Array.from({ length: n }, (_, i) => ({
        id: `c${i}`,
        provider: "p",
        command: "a.c0",
        capabilities: ["connection"],
      }));
    expect(parseC2Manifest(base({ commands: cmds(1), runtime: rt, connectors: conns(100) })).diagnostics).toEqual([]);
    expect(
      parseC2Manifest(base({ commands: cmds(1), runtime: rt, connectors: conns(101) })).diagnostics.map((d) => d.code),
    ).toEqual(["too_many_connectors"]);
    const langs = Array.from({ length: 16 }, (_, i) => `l${i}`);
    expect(
      parseC2Manifest(base({ languageServers: [{ id: "x", languages: langs, command: "x" }] })).diagnostics,
    ).toEqual([]);
    // Sixteen distinct ids, counted after case-folding: 17 entries naming 16 languages pass, de-duplicated.
    const dup = parseC2Manifest(base({ languageServers: [{ id: "x", languages: [...langs, "L3"], command: "x" }] }));
    expect(dup.diagnostics).toEqual([]);
    expect(dup.manifest?.codetwo.languageServers[0].languages).toEqual(langs);
    expect(
      parseC2Manifest(
        base({ languageServers: [{ id: "x", languages: [...langs, "l16"], command: "x" }] }),
      ).diagnostics.map((d) => d.code),
    ).toEqual(["invalid_language_server"]);
  });

  test("runtime: null is one invalid_runtime, with no missing_commands on top of it", () => {
    expect(parseC2Manifest(base({ runtime: null })).diagnostics.map((d) => d.code)).toEqual(["invalid_runtime"]);
    expect(parseC2Manifest(base({ runtime: "node" })).diagnostics.map((d) => d.code)).toEqual(["invalid_runtime"]);
  });

  test("order bounds are inclusive", () => {
    for (const order of [-100, 100, 0]) {
      expect(
        parseC2Manifest(
          base({
            commands: [{ id: "a.b", title: "t" }],
            runtime: rt,
            ui: [{ id: "u", slot: "host.actions", label: "l", command: "a.b", order }],
          }),
        ).diagnostics,
      ).toEqual([]);
    }
  });
});

describe("schema fast path", () => {
  test("the generated checks accept the valid documents (so TypeBox's error walk is skipped) and never accept what TypeBox refuses", async () => {
    const generated = await import("../../../src/families/c2/schemas.generated.ts");
    const { Value } = await import("typebox/value");
    const { CodetwoSchema, ManifestRootSchema } = await import("../../../src/families/c2/schema.ts");
    const { readdirSync, readFileSync } = await import("node:fs");
    const { join } = await import("node:path");
    const dir = join(import.meta.dir, "..", "..", "..", "fixtures", "c2");
    let accepted = 0;
    for (const name of readdirSync(dir)) {
      let raw: any;
      try {
        raw = JSON.parse(readFileSync(join(dir, name, "plugin.json"), "utf8"));
      } catch {
        continue;
      }
      const c2 = raw?.extensions?.["dev.codetwo"];
      for (const [lazy, schema, value] of [
        [generated.ManifestRoot, ManifestRootSchema, raw],
        [generated.Codetwo, CodetwoSchema, c2],
      ] as const) {
        if (value === undefined) continue;
        const fast = lazy.check(value);
        expect(fast).toBe(Value.Check(schema, value));
        if (fast) accepted++;
      }
    }
    expect(accepted).toBeGreaterThan(50);
  });
});
