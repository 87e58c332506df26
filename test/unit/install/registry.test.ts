import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { createContext } from "../../../src/core/context.ts";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { relativePathProblem } from "../../../src/bundle/path-safety.ts";
import { readScopeSummaries } from "../../../src/install/scope-summaries.ts";
import { parseRegistry, readRegistry, serializeRegistry, writeRegistry } from "../../../src/install/registry.ts";
import { emptySurfaces, type RegistryEntry } from "../../../src/install/registry-types.ts";
import { tempDir } from "../../helpers/tmp.ts";
import { sha256Hex } from "../../../src/bundle/hash.ts";
import { readDerivedIndex } from "../../../src/store/derived-index.ts";
import { ListIndex } from "../../../src/store/disk-schemas.generated.ts";

const temps: { cleanup(): void }[] = [];
afterEach(() => temps.splice(0).forEach((t) => t.cleanup()));
const root = () => {
  const t = tempDir("gjc-reg-");
  temps.push(t);
  return t.path;
};

const H = "a".repeat(64);
// The state key (src/store/state-mac.ts) lives in this home.
const keyHome = tempDir("gjc-reg-home-");
afterAll(() => keyHome.cleanup());
const ctx = createContext({ env: { HOME: keyHome.path }, cwd: keyHome.path, quiet: true });
function entry(r: string, name = "demo"): RegistryEntry {
  const dir = `${name}@0123456789ab`;
  return {
    name,
    version: "1.0.0",
    scope: "user",
    enabled: true,
    dir,
    pluginRoot: join(r, dir),
    manifestPath: join(r, dir, "gajae-plugin.json"),
    manifestHash: H,
    source: { kind: "path", uri: "/src", resolvedAt: "2026-01-01T00:00:00.000Z" },
    installedAt: "2026-01-01T00:00:00.000Z",
    updatedAt: "2026-01-01T00:00:00.000Z",
    copiedFiles: [
      { relativePath: "gajae-plugin.json", sha256: H, bytes: 10, mode: 0o644 },
      { relativePath: "tools/a.ts", sha256: H, bytes: 3, mode: 0o755 },
    ],
    surfaces: { ...emptySurfaces(), tools: [{ extensionId: "tool:a", kind: "tool", name: "a" }] },
    disabledSurfaceIds: [],
  };
}

describe("registry.json", () => {
  test("round-trips, sorted, with a last good copy and a list index", async () => {
    const r = root();
    writeRegistry(r, { version: 1, scope: "user", plugins: [entry(r, "zed"), entry(r, "abc")] }, ctx);
    const reg = readRegistry(r, "user", ctx);
    expect(reg.plugins.map((p) => p.name)).toEqual(["abc", "zed"]);
    expect(readFileSync(join(r, "registry.last-good.json"), "utf8")).toBe(serializeRegistry(reg, ctx));
    const listed = await readScopeSummaries(r, "user", ctx);
    expect(listed.ok && listed.bundles.map((b) => b.name)).toEqual(["abc", "zed"]);
  });

  test("the list index gjc writes has the shape its reader accepts (docs/json/registry-index.schema.json), quarantine and all", () => {
    const r = root();
    const quarantined = {
      ...entry(r, "q"),
      source: {
        kind: "github",
        repository: "o/r",
        ref: "main",
        sha: "a".repeat(40),
        resolvedAt: "2026-01-01T00:00:00.000Z",
      } as RegistryEntry["source"],
      quarantine: [
        { surfaceId: "plugin:q", code: "hash_mismatch", message: "m", detectedAt: "2026-01-01T00:00:00.000Z" },
      ],
    };
    writeRegistry(r, { version: 1, scope: "user", plugins: [entry(r), quarantined] }, ctx);
    const body = readDerivedIndex(join(r, "registry.index.json"), 2, ListIndex) as
      | { bundles: { name: string }[] }
      | undefined;
    expect(body?.bundles.map((b) => b.name)).toEqual(["demo", "q"]);
    // A body of another shape (here: an extra field, digest recomputed) is not used.
    const text = readFileSync(join(r, "registry.index.json"), "utf8");
    const edited = JSON.stringify({ ...JSON.parse(text.slice(text.indexOf("\n") + 1)), extra: 1 });
    writeFileSync(
      join(r, "registry.index.json"),
      `${JSON.stringify({ format: 2, sha256: sha256Hex(edited) })}\n${edited}`,
    );
    expect(readDerivedIndex(join(r, "registry.index.json"), 2, ListIndex)).toBeUndefined();
  });

  const tampered: [string, (e: any, r: string) => void][] = [
    ["a .. path", (e) => (e.copiedFiles[1].relativePath = "../x")],
    ["an absolute path", (e) => (e.copiedFiles[1].relativePath = "/etc/passwd")],
    ["a backslash", (e) => (e.copiedFiles[1].relativePath = "a\\b")],
    ["an empty segment", (e) => (e.copiedFiles[1].relativePath = "a//b")],
    ["a dir of another bundle", (e, r) => ((e.dir = "other@0123456789ab"), (e.pluginRoot = join(r, e.dir)))],
    ["a bad hash", (e) => (e.copiedFiles[0].sha256 = "zz")],
    ["a bad mode", (e) => (e.copiedFiles[1].mode = 0o4755)],
    ["the manifest not first", (e) => e.copiedFiles.reverse()],
    ["a wrong entry scope", (e) => (e.scope = "project")],
  ];
  for (const [what, mutate] of tampered) {
    test(`refuses ${what}`, () => {
      const r = root();
      const e = entry(r);
      mutate(e, r);
      const parsed = parseRegistry(JSON.stringify({ version: 1, scope: "user", plugins: [e] }), r, "user");
      expect("problem" in parsed).toBe(true);
    });
  }

  test("a refusal names the bad field and its JSON pointer: unknown key, wrong type, bad path, over a budget", () => {
    const r = root();
    const cases: [string, (e: any) => unknown][] = [
      ['plugins[0] has an unknown field "owner" (at /plugins/0/owner)', (e) => (e.owner = "root")],
      ["plugins[0].source.uri must be a string, not an integer (at /plugins/0/source/uri)", (e) => (e.source.uri = 7)],
      ["plugins[0].enabled must be a boolean, not a string (at /plugins/0/enabled)", (e) => (e.enabled = "yes")],
      [
        'plugins[0].copiedFiles[1].sha256 "zz" is not valid (must match ^[0-9a-f]{64}$) (at /plugins/0/copiedFiles/1/sha256)',
        (e) => (e.copiedFiles[1].sha256 = "zz"),
      ],
      [
        "plugins[0].copiedFiles[1].mode 2541 is out of range (at most 511) (at /plugins/0/copiedFiles/1/mode)",
        (e) => (e.copiedFiles[1].mode = 0o4755),
      ],
      [
        "plugins[0].copiedFiles[0].bytes 1099511627776 is out of range (at most 16777216) (at /plugins/0/copiedFiles/0/bytes)",
        (e) => (e.copiedFiles[0].bytes = 2 ** 40),
      ],
      ["plugins[0].copiedFiles must have at least 1 entry (at /plugins/0/copiedFiles)", (e) => (e.copiedFiles = [])],
      [
        'plugins[0].surfaces has an unknown field "widgets" (at /plugins/0/surfaces/widgets)',
        (e) => (e.surfaces.widgets = []),
      ],
      [
        'plugins[0].surfaces.tools[0] is missing the required field "extensionId" (at /plugins/0/surfaces/tools/0/extensionId)',
        (e) => delete e.surfaces.tools[0].extensionId,
      ],
      [
        'plugins[0].copiedFiles[1] path "../x" has a ".." segment (at /plugins/0/copiedFiles/1/relativePath)',
        (e) => (e.copiedFiles[1].relativePath = "../x"),
      ],
      [
        'plugins[0].copiedFiles lists "gajae-plugin.json" twice (at /plugins/0/copiedFiles/1/relativePath)',
        (e) => (e.copiedFiles[1].relativePath = "gajae-plugin.json"),
      ],
      ['plugins[0].scope is not "user" (at /plugins/0/scope)', (e) => (e.scope = "project")],
      // Only the four kinds the sources layer writes (upgrade re-resolves by kind), and always when it was fetched.
      ['plugins[0].source.kind "ftp" is not allowed (at /plugins/0/source/kind)', (e) => (e.source.kind = "ftp")],
      [
        'plugins[0].source is missing the required field "resolvedAt" (at /plugins/0/source/resolvedAt)',
        (e) => delete e.source.resolvedAt,
      ],
    ];
    for (const [problem, mutate] of cases) {
      const e = entry(r);
      mutate(e);
      const parsed = parseRegistry(JSON.stringify({ version: 1, scope: "user", plugins: [e] }), r, "user");
      expect(["problem" in parsed && parsed.problem]).toEqual([problem]);
    }
    const extra = parseRegistry(JSON.stringify({ version: 1, scope: "user", plugins: [], owner: "x" }), r, "user");
    expect("problem" in extra && extra.problem).toBe('An unknown field "owner" (at /owner)');
  });

  test("a stored pluginRoot outside the scope is never used: the paths are derived from the root and the checked dir", () => {
    const r = root();
    const e = { ...entry(r), pluginRoot: "/tmp/elsewhere", manifestPath: "/etc/passwd" };
    const parsed = parseRegistry(JSON.stringify({ version: 1, scope: "user", plugins: [e] }), r, "user");
    expect(
      "registry" in parsed && [parsed.registry.plugins[0].pluginRoot, parsed.registry.plugins[0].manifestPath],
    ).toEqual([join(r, e.dir), join(r, e.dir, "gajae-plugin.json")]);
  });

  test("bad JSON, another version, a duplicate name", () => {
    const r = root();
    expect("problem" in parseRegistry("{", r, "user")).toBe(true);
    expect("problem" in parseRegistry(JSON.stringify({ version: 2, scope: "user", plugins: [] }), r, "user")).toBe(
      true,
    );
    expect(
      "problem" in
        parseRegistry(JSON.stringify({ version: 1, scope: "user", plugins: [entry(r), entry(r)] }), r, "user"),
    ).toBe(true);
  });

  test("every copied path is judged by relativePathProblem", () => {
    const r = root();
    for (const p of [
      "a",
      "a/b.ts",
      ".hidden",
      "a/.b",
      "..a",
      "a..b",
      "a/./b",
      "./a",
      "a/..",
      "",
      "/a",
      "a/",
      "a//b",
      "c:x",
      "a\u0007",
      "a\\b",
      "...",
      "a/../b",
    ]) {
      const e = entry(r);
      e.copiedFiles[1].relativePath = p;
      const ok = !("problem" in parseRegistry(JSON.stringify({ version: 1, scope: "user", plugins: [e] }), r, "user"));
      expect({ p, ok }).toEqual({ p, ok: relativePathProblem(p) === undefined });
    }
  });

  test("list ignores an index that does not match registry.json, and a damaged index", async () => {
    const r = root();
    writeRegistry(r, { version: 1, scope: "user", plugins: [entry(r)] }, ctx);
    const text = readFileSync(join(r, "registry.json"), "utf8");
    // A newer registry.json (signed, as gjc writes it) than the index was built from.
    writeFileSync(
      join(r, "registry.json"),
      serializeRegistry({ version: 1, scope: "user", plugins: [{ ...entry(r), version: "6.6.6" }] }, ctx),
    );
    const listed = await readScopeSummaries(r, "user", ctx);
    expect(listed.ok && listed.bundles[0].version).toBe("6.6.6");
    // The same edit by hand breaks the signature: the scope is foreign, not listed.
    writeFileSync(join(r, "registry.json"), text.replace('"version":"1.0.0"', '"version":"6.6.6"'));
    const edited = await readScopeSummaries(r, "user", ctx);
    expect(!edited.ok && edited.foreign).toBe(true);
    writeFileSync(join(r, "registry.json"), text.replace('gajae-plugin.json"', '../gajae-plugin.json"'));
    expect((await readScopeSummaries(r, "user", ctx)).ok).toBe(false);
    writeFileSync(join(r, "registry.json"), text);
    writeFileSync(join(r, "registry.index.json"), "garbage");
    expect((await readScopeSummaries(r, "user", ctx)).ok).toBe(true);
  });
});
