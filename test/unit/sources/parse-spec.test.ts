import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseSourceSpec } from "../../../src/sources/parse-spec.ts";
import { specFromRecord } from "../../../src/sources/spec-from-record.ts";
import { area, quietContext, refusal, type Area } from "./_support.ts";

let a: Area;
afterEach(() => a?.cleanup());
function ctx() {
  a = area();
  mkdirSync(join(a.root, "plugins/foo"), { recursive: true });
  mkdirSync(join(a.root, "owner"), { recursive: true });
  writeFileSync(join(a.root, "owner/repo"), "a file that shadows owner/repo");
  return quietContext(a.root, { HOME: join(a.root, "home"), PATH: process.env.PATH });
}
const SHA = "0123456789abcdef0123456789abcdef01234567";

describe("parseSourceSpec: local paths and tarballs", () => {
  test("path prefixes, ~ expansion, and existing relative paths are local", () => {
    const c = ctx();
    expect(parseSourceSpec("./plugins/foo", c)).toEqual({
      kind: "path",
      raw: "./plugins/foo",
      path: join(a.root, "plugins/foo"),
    });
    expect(parseSourceSpec("/abs/dir", c)).toMatchObject({ kind: "path", path: "/abs/dir" });
    expect(parseSourceSpec("../up", c)).toMatchObject({ kind: "path", path: join(a.root, "../up") });
    expect(parseSourceSpec("~/bundles/x", c)).toMatchObject({ kind: "path", path: join(a.root, "home/bundles/x") });
    expect(parseSourceSpec("~", c)).toMatchObject({ kind: "path", path: join(a.root, "home") });
    expect(parseSourceSpec(".", c)).toMatchObject({ kind: "path", path: a.root });
    // Ambiguity rule: an existing relative path wins over owner/repo shorthand.
    expect(parseSourceSpec("plugins/foo", c)).toMatchObject({ kind: "path", path: join(a.root, "plugins/foo") });
    expect(parseSourceSpec("owner/repo", c)).toMatchObject({ kind: "path" });
  });

  test("tarball suffixes, local or https or file://", () => {
    const c = ctx();
    expect(parseSourceSpec("./b.tgz", c)).toEqual({
      kind: "tarball",
      raw: "./b.tgz",
      location: "file",
      path: join(a.root, "b.tgz"),
    });
    expect(parseSourceSpec("b.TAR.GZ", c)).toMatchObject({
      kind: "tarball",
      location: "file",
      path: join(a.root, "b.TAR.GZ"),
    });
    expect(parseSourceSpec("~/x.tar", c)).toMatchObject({ kind: "tarball", path: join(a.root, "home/x.tar") });
    expect(parseSourceSpec("file:///tmp/x.tgz", c)).toMatchObject({
      kind: "tarball",
      location: "file",
      path: "/tmp/x.tgz",
    });
    expect(parseSourceSpec("https://cdn.example.com/p/b.tgz?v=1", c)).toMatchObject({
      kind: "tarball",
      location: "https",
      url: "https://cdn.example.com/p/b.tgz?v=1",
    });
  });
});

describe("parseSourceSpec: git", () => {
  test("https, ssh, scp-style and file URLs with an optional #ref or #sha", () => {
    const c = ctx();
    expect(parseSourceSpec("https://git.example.com/o/r.git", c)).toEqual({
      kind: "git",
      raw: "https://git.example.com/o/r.git",
      url: "https://git.example.com/o/r.git",
    });
    expect(parseSourceSpec("https://git.example.com/o/r.git#release/1.x", c)).toMatchObject({
      kind: "git",
      url: "https://git.example.com/o/r.git",
      ref: "release/1.x",
    });
    expect(parseSourceSpec(`ssh://git@host/o/r.git#${SHA.toUpperCase()}`, c)).toMatchObject({
      kind: "git",
      url: "ssh://git@host/o/r.git",
      pin: SHA,
    });
    expect(parseSourceSpec("git@github.com:o/r.git#v1.2.0", c)).toMatchObject({
      kind: "git",
      url: "git@github.com:o/r.git",
      ref: "v1.2.0",
    });
    expect(parseSourceSpec("file:///srv/repos/r", c)).toMatchObject({ kind: "git", url: "file:///srv/repos/r" });
    // Only github.com itself gets the strict GitHub forms; other hosts are plain git URLs.
    expect(parseSourceSpec("https://gitlab.example.com/o/r", c)).toMatchObject({ kind: "git" });
    expect(parseSourceSpec("https://github.com.evil.example/o/r", c)).toMatchObject({ kind: "git" });
  });

  test("refused transports and refs", async () => {
    const c = ctx();
    await refusal(() => parseSourceSpec("http://example.com/r.git", c), "security_policy", 3);
    await refusal(() => parseSourceSpec("git://example.com/r.git", c), "security_policy", 3);
    await refusal(() => parseSourceSpec("http://example.com/b.tgz", c), "security_policy", 3);
    await refusal(() => parseSourceSpec("ext::sh -c touch% /tmp/pwned", c), "security_policy", 3);
    await refusal(() => parseSourceSpec("fd::17", c), "security_policy", 3);
    await refusal(() => parseSourceSpec("ssh://-oProxyCommand=touch%20x/r.git", c), "security_policy", 3);
    await refusal(() => parseSourceSpec("ssh://git@-oProxyCommand=x/r.git", c), "security_policy", 3);
    await refusal(() => parseSourceSpec("-u@host:r.git", c), "security_policy", 3);
    await refusal(() => parseSourceSpec("git@host:-r.git", c), "security_policy", 3);
    await refusal(() => parseSourceSpec("ftp://example.com/b.tgz", c), "security_policy", 3);
    for (const ref of ["", "-upload-pack=evil", "a..b", "a b", "x~1", "a:b", "@{-1}", "a/", ".hidden", "x.lock"]) {
      await refusal(() => parseSourceSpec(`https://git.example.com/r.git#${ref}`, c), "invalid_source", 2);
    }
    await refusal(() => parseSourceSpec("https://cdn.example.com/b.tgz#frag", c), "invalid_source", 2);
  });
});

describe("parseSourceSpec: GitHub (c2-notes §5.2)", () => {
  test("accepted forms", () => {
    const c = ctx();
    expect(parseSourceSpec("octo/cat", c)).toEqual({ kind: "github", raw: "octo/cat", owner: "octo", repo: "cat" });
    expect(parseSourceSpec("https://github.com/octo/cat", c)).toMatchObject({
      kind: "github",
      owner: "octo",
      repo: "cat",
    });
    expect(parseSourceSpec("https://github.com/octo/cat.git", c)).toMatchObject({ owner: "octo", repo: "cat" });
    expect(parseSourceSpec("https://github.com/octo/cat/", c)).toMatchObject({ owner: "octo", repo: "cat" });
    expect(parseSourceSpec("https://github.com/Octo/Cat.js/tree/main/packs/hello-runtime", c)).toEqual({
      kind: "github",
      raw: "https://github.com/Octo/Cat.js/tree/main/packs/hello-runtime",
      owner: "Octo",
      repo: "Cat.js",
      ref: "main",
      subpath: "packs/hello-runtime",
    });
    expect(parseSourceSpec("https://github.com/o/r/tree/v1.0", c)).toMatchObject({ ref: "v1.0" });
    expect(parseSourceSpec(`https://github.com/o/r/tree/${SHA}/p`, c)).toMatchObject({ pin: SHA, subpath: "p" });
    expect(parseSourceSpec("https://github.com/o/r/blob/main/skills/x/SKILL.md", c)).toMatchObject({
      ref: "main",
      subpath: "skills/x",
    });
  });

  const rejected = [
    "https://github.com/o/r?tab=readme",
    "https://github.com/o/r#readme",
    "https://github.com/o/r/tree/main/a%2e%2e",
    "https://github.com/o/r/tree/main/a\\b",
    "https://github.com/o /r",
    "https://www.github.com/o/r",
    "https://github.com:443/o/r",
    "https://user@github.com/o/r",
    "https://github.com/o",
    "https://github.com/",
    "https://github.com/../r",
    "https://github.com/o/r/issues/1",
    "https://github.com/o/r/tree/..%2f/x",
    "https://github.com/o/r/tree/-x/p",
    "https://github.com/o/r/tree/a..b/p",
    "https://github.com/o/r/tree/main/../x",
    "https://github.com/o/r/tree/main/a/./b",
    "https://github.com/o/r/tree/main/a:b",
    "https://github.com/o/r/blob/main/x/README.md",
    "https://github.com/o/r.git/tree/main/x",
    "o/r#main",
    "o/.",
    "o!/r",
  ];
  for (const spec of rejected) {
    test(`refused: ${JSON.stringify(spec)}`, async () => {
      const c = ctx();
      const e = await refusal(() => parseSourceSpec(spec, c), "invalid_source", 2);
      expect(e.hint).toBeTruthy();
    });
  }
  test("http://github.com is refused as plain http", async () => {
    await refusal(() => parseSourceSpec("http://github.com/o/r", ctx()), "invalid_source", 2);
  });
});

describe("parseSourceSpec: unparsable input", () => {
  test("empty, control characters, unknown words", async () => {
    const c = ctx();
    await refusal(() => parseSourceSpec("", c), "invalid_source", 2);
    await refusal(() => parseSourceSpec("   ", c), "invalid_source", 2);
    await refusal(() => parseSourceSpec("./a\u0001b", c), "invalid_source", 2);
    await refusal(() => parseSourceSpec("just-a-word", c), "invalid_source", 2);
    await refusal(() => parseSourceSpec("a/b/c", c), "invalid_source", 2);
  });
});

describe("specFromRecord", () => {
  test("re-resolves each kind; a recorded SHA ref stays a pin, a branch is followed", () => {
    expect(specFromRecord({ kind: "path", uri: "/p" })).toMatchObject({ kind: "path", path: "/p" });
    expect(specFromRecord({ kind: "tarball", uri: "/x.tgz", sha256: "0".repeat(64) })).toMatchObject({
      kind: "tarball",
      location: "file",
      path: "/x.tgz",
    });
    expect(specFromRecord({ kind: "tarball", uri: "https://h.example/x.tgz", sha256: "0".repeat(64) })).toMatchObject({
      kind: "tarball",
      location: "https",
    });
    expect(specFromRecord({ kind: "git", uri: "https://h.example/r.git", ref: "main", sha: SHA })).toMatchObject({
      kind: "git",
      ref: "main",
    });
    expect(
      specFromRecord({ kind: "git", uri: "https://h.example/r.git", ref: SHA, sha: SHA, subpath: "p" }),
    ).toMatchObject({ pin: SHA, subpath: "p" });
    expect(specFromRecord({ kind: "github", repository: "o/r", sha: SHA, subpath: "x" })).toEqual({
      kind: "github",
      raw: "o/r",
      owner: "o",
      repo: "r",
      subpath: "x",
    });
  });

  test("a URL whose secrets were stripped for storage is refused with a hint", async () => {
    const e = await refusal(
      () => specFromRecord({ kind: "tarball", uri: "https://h.example/x.tgz?sig=***", sha256: "0".repeat(64) }),
      "invalid_source",
      2,
    );
    expect(e.hint).toContain("full URL");
  });
});
