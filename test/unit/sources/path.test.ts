import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { GJC_LIMITS } from "../../../src/bundle/limits.ts";
import { fetchSource } from "../../../src/sources/fetch-source.ts";
import { parseSourceSpec } from "../../../src/sources/parse-spec.ts";
import { snapshotTree } from "../../helpers/tmp.ts";
import { area, expectEmpty, MANIFESTS, quietContext, refusal, type Area } from "./_support.ts";

let a: Area;
afterEach(() => a?.cleanup());
const opts = () => ({ scratchRoot: a.scratch, limits: GJC_LIMITS, manifestNames: MANIFESTS });

describe("local directory sources", () => {
  test("the user's directory is returned in place (~ expanded), never copied or written", async () => {
    a = area();
    const home = join(a.root, "home");
    mkdirSync(join(home, "bundles/demo"), { recursive: true });
    writeFileSync(join(home, "bundles/demo/gajae-plugin.json"), "{}");
    symlinkSync(join(home, "bundles/demo"), join(a.root, "demo-link"));
    const before = snapshotTree(a.root);
    const ctx = quietContext(a.root, { HOME: home, PATH: process.env.PATH });
    const got = await fetchSource(ctx, parseSourceSpec("~/bundles/demo", ctx), opts());
    expect(got.dir).toBe(join(home, "bundles/demo"));
    expect(got.record).toEqual({ kind: "path", uri: join(home, "bundles/demo") });
    expect(got.identity).toBe(`path:${join(home, "bundles/demo")}`);
    // A link to the directory is resolved, so both spellings share one identity.
    const viaLink = await fetchSource(ctx, parseSourceSpec("./demo-link", ctx), opts());
    expect(viaLink.identity).toBe(got.identity);
    await got.cleanup();
    await viaLink.cleanup();
    expect(snapshotTree(a.root)).toEqual(before);
  });

  test("missing, not a directory, or without a manifest", async () => {
    a = area();
    writeFileSync(join(a.root, "file.txt"), "x");
    mkdirSync(join(a.root, "empty"));
    const ctx = quietContext(a.root);
    await refusal(fetchSource(ctx, parseSourceSpec("./nope", ctx), opts()), "source_unreachable", 4);
    await refusal(fetchSource(ctx, parseSourceSpec("./file.txt", ctx), opts()), "invalid_source", 2);
    await refusal(fetchSource(ctx, parseSourceSpec("./empty", ctx), opts()), "missing_file", 1);
    expectEmpty(a.scratch);
  });
});
