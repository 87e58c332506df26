import { afterEach, describe, test } from "bun:test";
import { GJC_LIMITS } from "../../../src/bundle/limits.ts";
import { fetchSource } from "../../../src/sources/fetch-source.ts";
import type { SourceSpec } from "../../../src/sources/types.ts";
import { area, expectEmpty, MANIFESTS, quietContext, refusal, type Area } from "./_support.ts";

let a: Area;
afterEach(() => a?.cleanup());

/** Specs built from catalog entries skip parseSourceSpec; fetchSource applies the same rules to them. */
describe("fetchSource re-checks specs built from untrusted catalog data", () => {
  const cases: [string, SourceSpec, string, number][] = [
    ["an ext:: git URL", { kind: "git", raw: "x", url: "ext::sh -c touch% /tmp/pwned" }, "invalid_source", 2],
    ["an ext:: git URL without spaces", { kind: "git", raw: "x", url: "ext::true" }, "security_policy", 3],
    ["a plain http git URL", { kind: "git", raw: "x", url: "http://example.com/r.git" }, "security_policy", 3],
    [
      "an ssh host that is an option",
      { kind: "git", raw: "x", url: "ssh://-oProxyCommand=true/r" },
      "security_policy",
      3,
    ],
    [
      "a ref that is an option",
      { kind: "git", raw: "x", url: "https://example.com/r.git", ref: "--upload-pack=true" },
      "invalid_source",
      2,
    ],
    [
      "a pin that is not a SHA",
      { kind: "git", raw: "x", url: "https://example.com/r.git", pin: "HEAD" },
      "invalid_source",
      2,
    ],
    ["a GitHub owner of ..", { kind: "github", raw: "x", owner: "..", repo: "r" }, "invalid_source", 2],
    ["a GitHub repo with a slash", { kind: "github", raw: "x", owner: "o", repo: "r/../../x" }, "invalid_source", 2],
    [
      "a GitHub subpath climbing out",
      { kind: "github", raw: "x", owner: "o", repo: "r", subpath: "../x" },
      "invalid_source",
      2,
    ],
    [
      "an http archive",
      { kind: "tarball", raw: "x", location: "https", url: "http://example.com/b.tgz" },
      "security_policy",
      3,
    ],
  ];
  for (const [what, spec, code, exit] of cases) {
    test(what, async () => {
      a = area();
      const ctx = quietContext(a.root, { HOME: a.root, PATH: "/nonexistent" });
      await refusal(
        fetchSource(ctx, spec, { scratchRoot: a.scratch, limits: GJC_LIMITS, manifestNames: MANIFESTS }),
        code,
        exit,
      );
      expectEmpty(a.scratch);
    });
  }

  test("an expected SHA-256 is for archives only and must be 64 hex", async () => {
    a = area();
    const ctx = quietContext(a.root);
    const o = { scratchRoot: a.scratch, limits: GJC_LIMITS, manifestNames: MANIFESTS };
    await refusal(
      fetchSource(ctx, { kind: "path", raw: ".", path: a.root }, { ...o, expectedSha256: "0".repeat(64) }),
      "invalid_source",
      2,
    );
    await refusal(
      fetchSource(
        ctx,
        { kind: "tarball", raw: "x", location: "file", path: "/x.tgz" },
        { ...o, expectedSha256: "abc" },
      ),
      "invalid_source",
      2,
    );
    expectEmpty(a.scratch);
  });
});
