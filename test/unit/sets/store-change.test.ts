/**
 * The content cache and the generations are filled by core, not by the CLI: an install made
 * through the core entry point (as a host importing gjc makes it) stores the committed content
 * of either family under its integrity, in the cache the Context names (GJC_CACHE_DIR here).
 */
import { describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { installSpec } from "../../../src/app/install.ts";
import { listCacheEntries } from "../../../src/store/cache.ts";
import { readHistory } from "../../../src/sets/history.ts";
import { setBundleEnabled } from "../../../src/app/enable.ts";
import { sandboxPerTest } from "../../helpers/sandbox.ts";
import { writeBundle } from "../../e2e/gjc-install-fixture.ts";
import { skillsBundle } from "../c2store/_bundles.ts";

const box = sandboxPerTest();

describe("cache fill in the commit path", () => {
  test("installSpec (no CLI) caches a GJC and a C2 bundle in the Context's cache; a dry run caches nothing", async () => {
    const s = box();
    const cache = join(s.root, "ctx-cache");
    const ctx = s.context({ env: { GJC_CACHE_DIR: cache } });
    const gjc = writeBundle(join(s.root, "src", "gg"), "gg");
    const c2 = s.write("src/cc", skillsBundle("cc"));
    await installSpec(ctx, { spec: gjc, user: true, dryRun: true });
    expect(listCacheEntries(ctx).entries).toEqual([]);
    await installSpec(ctx, { spec: gjc, user: true });
    await installSpec(ctx, { spec: c2 });
    const entries = listCacheEntries(ctx)
      .entries.map((e) => [e.name, e.family, e.version])
      .sort();
    expect(entries).toEqual([
      ["cc", "c2", "1.0.0"],
      ["gg", "gjc", "1.0.0"],
    ]);
    // Only the Context's cache: nothing under the sandbox HOME's default cache.
    expect(() => readdirSync(s.cache)).toThrow();
  });

  test("the generations of a scope are recorded by the core verbs too (no CLI): install, disable; not a dry run", async () => {
    const s = box();
    const ctx = s.context();
    const gjc = writeBundle(join(s.root, "src", "gg"), "gg");
    await installSpec(ctx, { spec: gjc, user: true, dryRun: true });
    expect(readHistory(ctx, "user").generations).toEqual([]);
    await installSpec(ctx, { spec: gjc, user: true });
    await setBundleEnabled(ctx, "gg", false, { user: true });
    const gens = readHistory(ctx, "user").generations;
    expect(gens.map((g) => [g.generation, g.command, g.bundles.map((b) => [b.name, b.enabled])])).toEqual([
      [1, "gjc plugin install", [["gg", true]]],
      [2, "gjc plugin disable", [["gg", false]]],
    ]);
  });
});
