/**
 * The content cache is filled by the store's commit path, not by the CLI: an install made
 * through the core entry point (as a host importing gjc makes it) stores the committed content
 * of either family under its integrity, in the cache the Context names (GJC_CACHE_DIR here).
 */
import { describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { installSpec } from "../../../src/store/install-spec.ts";
import { listCacheEntries } from "../../../src/sets/cache.ts";
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
    const entries = listCacheEntries(ctx).entries.map((e) => [e.name, e.family, e.version]).sort();
    expect(entries).toEqual([["cc", "c2", "1.0.0"], ["gg", "gjc", "1.0.0"]]);
    // Only the Context's cache: nothing under the sandbox HOME's default cache.
    expect(() => readdirSync(s.cache)).toThrow();
  });
});
