import { describe, expect, test } from "bun:test";
import { fnv1a32Hex } from "../../../src/bundle/hash.ts";
import { installedId, slug, slugHash } from "../../../src/families/c2/ids.ts";

describe("C2 ids", () => {
  test("FNV-1a-32 test vectors", () => {
    expect(fnv1a32Hex("")).toBe("811c9dc5");
    expect(fnv1a32Hex("a")).toBe("e40c292c");
  });

  test("slug: ASCII alphanumerics lower-cased, runs of others become one dash, none at the ends", () => {
    expect(slug("My Plugin!")).toBe("my-plugin");
    expect(slug("--a__b..c--")).toBe("a-b-c");
    expect(slug("skills/review/SKILL.md")).toBe("skills-review-skill-md");
    expect(slug("café")).toBe("caf");
    expect(slug("日本")).toBe("");
  });

  test("slugHash cuts the slug at 52 characters and appends the FNV-1a of the original", () => {
    expect(slugHash("a")).toBe("a-e40c292c");
    const long = "x".repeat(80);
    expect(slugHash(long)).toBe(`${"x".repeat(52)}-${fnv1a32Hex(long)}`);
  });

  test("installed id matches the reference example", () => {
    expect(installedId("hello-runtime", "IchenDEV/codeTwo:packs/hello-runtime")).toBe(
      `hello-runtime-${fnv1a32Hex("IchenDEV/codeTwo:packs/hello-runtime")}`,
    );
    expect(installedId("hello-runtime", "IchenDEV/codeTwo:packs/hello-runtime")).toBe("hello-runtime-83dfd86f");
    expect(installedId("日本", "x")).toBe(`plugin-${fnv1a32Hex("x")}`);
  });
});
