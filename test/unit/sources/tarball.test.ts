import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { GJC_LIMITS, type BundleLimits } from "../../../src/bundle/limits.ts";
import { fetchSource } from "../../../src/sources/fetch-source.ts";
import { parseSourceSpec } from "../../../src/sources/parse-spec.ts";
import type { FetchOptions } from "../../../src/sources/types.ts";
import { concat, gzip, gzipBomb, tar, type TarEntrySpec } from "../../helpers/tar.ts";
import { snapshotTree } from "../../helpers/tmp.ts";
import { area, expectEmpty, MANIFESTS, quietContext, refusal, type Area } from "./_support.ts";

let a: Area;
let areas: Area[] = [];
afterEach(() => {
  for (const x of areas) x.cleanup();
  areas = [];
});
function fresh(): Area {
  a = area();
  areas.push(a);
  return a;
}
const sha256 = (b: Uint8Array) => new Bun.CryptoHasher("sha256").update(b).digest("hex");
const opts = (extra: Partial<FetchOptions> = {}): FetchOptions => ({
  scratchRoot: a.scratch,
  limits: GJC_LIMITS,
  manifestNames: MANIFESTS,
  ...extra,
});
const M = { name: "pkg/gajae-plugin.json", data: '{"name":"demo"}' };

/** Writes the archive into the area and fetches it; returns the spec path too. */
async function fetchArchive(bytes: Uint8Array, name = "b.tgz", extra: Partial<FetchOptions> = {}) {
  fresh();
  const file = join(a.root, name);
  writeFileSync(file, bytes);
  const ctx = quietContext(a.root);
  return fetchSource(ctx, parseSourceSpec(`./${name}`, ctx), opts(extra));
}

/** Every refusal: its code and exit class, nothing in the scratch root, nothing beside it. */
async function refused(bytes: Uint8Array, code: string, exit: number, extra: Partial<FetchOptions> = {}) {
  fresh();
  writeFileSync(join(a.root, "b.tar"), bytes);
  const before = snapshotTree(a.root);
  const ctx = quietContext(a.root);
  const e = await refusal(fetchSource(ctx, parseSourceSpec("./b.tar", ctx), opts(extra)), code, exit);
  expectEmpty(a.scratch);
  expect(snapshotTree(a.root)).toEqual(before);
  return e;
}

describe("tarball sources: valid archives", () => {
  test(".tgz with one top folder: the folder is the bundle root, modes kept to 755/644", async () => {
    const bytes = gzip(
      tar([
        { name: "pkg/" },
        M,
        { name: "pkg/bin/run", data: "#!/bin/sh\n", mode: 0o775 },
        { name: "pkg/docs/a.md", data: "a", mode: 0o600 },
      ]),
    );
    const got = await fetchArchive(bytes, "b.tgz");
    expect(got.dir).toBe(join(readdirSync(a.scratch).map((d) => join(a.scratch, d))[0], "pkg"));
    expect(readFileSync(join(got.dir, "gajae-plugin.json"), "utf8")).toBe('{"name":"demo"}');
    expect(statSync(join(got.dir, "bin/run")).mode & 0o777).toBe(0o755);
    expect(statSync(join(got.dir, "docs/a.md")).mode & 0o777).toBe(0o644);
    expect(got.record).toEqual({ kind: "tarball", uri: join(a.root, "b.tgz"), sha256: sha256(bytes) });
    expect(got.identity).toBe(`tarball:${join(a.root, "b.tgz")}`);
    await got.cleanup();
    expectEmpty(a.scratch);
  });

  test(".tar with the manifest at the root, ./-prefixed names, pax and GNU long names, ustar prefix", async () => {
    const long = `deep/${"d".repeat(120)}/file.txt`;
    const bytes = tar([
      { name: "./", type: "dir" },
      { name: "./plugin.json", data: "{}" },
      { name: "x", pax: { path: long }, data: "pax" },
      { name: `gnu/${"g".repeat(110)}`, gnuLongName: true, data: "gnu" },
      { name: "inner.txt", prefix: "pre/fixed", data: "prefix" },
    ]);
    const got = await fetchArchive(bytes, "b.tar");
    expect(readFileSync(join(got.dir, long), "utf8")).toBe("pax");
    expect(readFileSync(join(got.dir, `gnu/${"g".repeat(110)}`), "utf8")).toBe("gnu");
    expect(readFileSync(join(got.dir, "pre/fixed/inner.txt"), "utf8")).toBe("prefix");
    expect(existsSync(join(got.dir, "x"))).toBe(false);
    await got.cleanup();
  });

  test("archives made by the system tar are accepted", async () => {
    fresh();
    const src = join(a.root, "src");
    const { writeTree } = await import("../../helpers/tmp.ts");
    writeTree(src, { "plug/gajae-plugin.json": "{}", "plug/a/b.txt": "b", "c2/plugin.json": "{}", "c2/a/b.txt": "b" });
    Bun.spawnSync(["tar", "czf", join(a.root, "sys.tgz"), "-C", src, "plug"]);
    const ctx = quietContext(a.root);
    const got = await fetchSource(ctx, parseSourceSpec("sys.tgz", ctx), opts());
    expect(readFileSync(join(got.dir, "a/b.txt"), "utf8")).toBe("b");
    await got.cleanup();
    // A C2 bundle packed as one folder: plugin.json must be at the archive root.
    Bun.spawnSync(["tar", "czf", join(a.root, "c2.tgz"), "-C", src, "c2"]);
    await refusal(fetchSource(ctx, parseSourceSpec("c2.tgz", ctx), opts()), "nested_manifest", 1);
    Bun.spawnSync(["tar", "czf", join(a.root, "c2-root.tgz"), "-C", join(src, "c2"), "."]);
    const root = await fetchSource(ctx, parseSourceSpec("c2-root.tgz", ctx), opts());
    expect(readFileSync(join(root.dir, "a/b.txt"), "utf8")).toBe("b");
    await root.cleanup();
  });

  test("the expected SHA-256 is checked before anything is written", async () => {
    const bytes = gzip(tar([M]));
    const got = await fetchArchive(bytes, "b.tgz", { expectedSha256: sha256(bytes).toUpperCase() });
    await got.cleanup();
    const e = await refused(bytes, "hash_mismatch", 3, { expectedSha256: "0".repeat(64) });
    expect(e.details).toEqual({ expected: "0".repeat(64), actual: sha256(bytes) });
  });
});

describe("tarball sources: hostile entries refuse the whole archive", () => {
  const hostile: [string, TarEntrySpec[], string][] = [
    ["an absolute name", [M, { name: "/etc/evil", data: "x" }], "security_policy"],
    ["a .. name", [M, { name: "../evil", data: "x" }], "security_policy"],
    ["a .. segment in the middle", [M, { name: "pkg/a/../../evil", data: "x" }], "security_policy"],
    ["a backslash", [M, { name: "pkg\\..\\evil", data: "x" }], "security_policy"],
    ["a drive letter", [M, { name: "C:/evil", data: "x" }], "security_policy"],
    ["a control character", [M, { name: "pkg/bad\u0007name", data: "x" }], "security_policy"],
    ["an empty segment", [M, { name: "pkg//x", data: "x" }], "security_policy"],
    ["a symlink", [M, { name: "pkg/link", type: "symlink", linkname: "/etc/passwd" }], "security_policy"],
    ["a hard link", [M, { name: "pkg/hard", type: "hardlink", linkname: "pkg/gajae-plugin.json" }], "security_policy"],
    ["a character device", [M, { name: "pkg/tty", type: "chardev" }], "security_policy"],
    ["a block device", [M, { name: "pkg/sda", type: "blockdev" }], "security_policy"],
    ["a FIFO", [M, { name: "pkg/fifo", type: "fifo" }], "security_policy"],
    ["an unknown entry type", [M, { name: "pkg/sparse", type: { flag: "S" } }], "security_policy"],
    ["a duplicate file", [M, { name: "pkg/a", data: "1" }, { name: "pkg/a", data: "2" }], "security_policy"],
    ["a duplicate directory", [{ name: "pkg/d/" }, M, { name: "pkg/d/" }], "security_policy"],
    [
      "a case collision",
      [M, { name: "pkg/Read.md", data: "1" }, { name: "pkg/read.md", data: "2" }],
      "security_policy",
    ],
    [
      "a case collision between directories",
      [M, { name: "pkg/Dir/a", data: "1" }, { name: "pkg/dir/b", data: "2" }],
      "security_policy",
    ],
    [
      "an NFC collision",
      [M, { name: "pkg/caf\u00e9", data: "1" }, { name: "pkg/cafe\u0301", data: "2" }],
      "security_policy",
    ],
    [
      "a file that is also a directory",
      [M, { name: "pkg/x", data: "1" }, { name: "pkg/x/y", data: "2" }],
      "security_policy",
    ],
    [
      "a pax path override to ..",
      [M, { name: "pkg/innocent", pax: { path: "../evil" }, data: "x" }],
      "security_policy",
    ],
    [
      "a pax path override to an absolute path",
      [M, { name: "pkg/innocent", pax: { path: "/tmp/evil" }, data: "x" }],
      "security_policy",
    ],
    [
      "a pax path override with NUL",
      [M, { name: "pkg/innocent", pax: { path: "pkg/a\u0000b" }, data: "x" }],
      "security_policy",
    ],
    [
      "a GNU long name with ..",
      [M, { name: `pkg/${"a".repeat(100)}/../../../evil`, gnuLongName: true, data: "x" }],
      "security_policy",
    ],
    ["a ustar prefix with ..", [M, { name: "evil", prefix: "..", data: "x" }], "security_policy"],
    [
      "a pax override colliding with an earlier name",
      [M, { name: "pkg/a", data: "1" }, { name: "pkg/b", pax: { path: "pkg/A" }, data: "2" }],
      "security_policy",
    ],
    ["a bad header checksum", [M, { name: "pkg/a", data: "x", badChecksum: true }], "security_policy"],
    [
      "a non-UTF-8 name",
      [M, { name: "pkg/x", nameBytes: new Uint8Array([0x70, 0x6b, 0x67, 0x2f, 0xff, 0xfe]), data: "x" }],
      "invalid_archive",
    ],
  ];
  for (const [what, entries, code] of hostile) {
    test(what, async () => {
      const bytes = tar(entries);
      await refused(bytes, code, code === "security_policy" ? 3 : 1);
      await refused(gzip(bytes), code, code === "security_policy" ? 3 : 1);
    });
  }

  test("a global pax header that sets a path is refused", async () => {
    await refused(tar([M], { globalPax: { path: "elsewhere" } }), "security_policy", 3);
  });

  test("a global pax header with a harmless comment (git archive) is accepted", async () => {
    const got = await fetchArchive(tar([M], { globalPax: { comment: "abc123" } }), "g.tar");
    await got.cleanup();
  });

  test("a pax size that disagrees with the data is judged by the pax size (and caught when it lies)", async () => {
    await refused(tar([M, { name: "pkg/a", pax: { size: "99999" }, data: "x" }]), "invalid_archive", 1);
  });

  test("a .. entry never lands outside, even in part: nothing is written before judging ends", async () => {
    await refused(
      tar([
        M,
        ...Array.from({ length: 50 }, (_, i) => ({ name: `pkg/f${i}`, data: "ok" })),
        { name: "../../escaped", data: "x" },
      ]),
      "security_policy",
      3,
    );
    expect(existsSync(join(a.root, "..", "escaped"))).toBe(false);
  });
});

describe("tarball sources: budgets, truncation, bundle root", () => {
  const small = (over: Partial<BundleLimits>): BundleLimits => ({ ...GJC_LIMITS, ...over });

  test("a gzip bomb stops at the byte budget without expanding the rest", async () => {
    // 1,024 files x 64 KiB = 64 MiB of zeros in about 64 KiB of gzip; the budget is 1 MiB.
    const bomb = await gzipBomb(1024, 64 * 1024, "pkg");
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const e = await refused(bomb, "source_too_large", 1, {
      limits: small({ maxTotalBytes: 1024 * 1024, maxFileBytes: 1024 * 1024 }),
    });
    expect((e.details as { limit: string }).limit).toBe("total_bytes");
    expect((e.details as { streamBytes: number }).streamBytes).toBeLessThan(4 * 1024 * 1024);
  });

  test("one file over the per-file budget is refused from its header", async () => {
    const e = await refused(gzip(tar([M, { name: "pkg/big", data: new Uint8Array(2048) }])), "source_too_large", 1, {
      limits: small({ maxFileBytes: 1024 }),
    });
    expect((e.details as { limit: string }).limit).toBe("file_bytes");
  });

  test("too many files, too deep, too long a path", async () => {
    const many = [M, ...Array.from({ length: 5 }, (_, i) => ({ name: `pkg/f${i}`, data: "x" }))];
    expect(
      (
        (await refused(tar(many), "source_too_large", 1, { limits: small({ maxFiles: 4 }) })).details as {
          limit: string;
        }
      ).limit,
    ).toBe("files");
    const deep = [M, { name: "pkg/a/b/c/d/e.txt", data: "x" }];
    expect(
      (
        (await refused(tar(deep), "source_too_large", 1, { limits: small({ maxDepth: 3 }) })).details as {
          limit: string;
        }
      ).limit,
    ).toBe("depth");
    const got = await fetchArchive(tar(deep), "ok.tar", { limits: small({ maxDepth: 4 }) });
    await got.cleanup();
    const long = [M, { name: "pkg/x", pax: { path: `pkg/${"p".repeat(60)}` }, data: "x" }];
    expect(
      (
        (await refused(tar(long), "source_too_large", 1, { limits: small({ maxPathBytes: 40 }) })).details as {
          limit: string;
        }
      ).limit,
    ).toBe("path_bytes");
  });

  test("too many directory entries stop at the entry budget", async () => {
    const dirs = [M, ...Array.from({ length: 40 }, (_, i) => ({ name: `pkg/d${i}/` }))];
    expect(
      (
        (await refused(tar(dirs), "source_too_large", 1, { limits: small({ maxFiles: 8 }) })).details as {
          limit: string;
        }
      ).limit,
    ).toBe("entries");
  });

  test("a truncated archive installs nothing", async () => {
    const whole = tar([M, { name: "pkg/a", data: "x".repeat(3000) }]);
    await refused(tar([M, { name: "pkg/a", data: "x" }], { end: false }), "invalid_archive", 1);
    await refused(whole.subarray(0, 1500), "invalid_archive", 1);
    await refused(whole.subarray(0, 700), "invalid_archive", 1);
    const gz = gzip(whole);
    await refused(gz.subarray(0, gz.length - 12), "invalid_archive", 1);
    await refused(gz.subarray(0, 30), "invalid_archive", 1);
  });

  test("not an archive at all", async () => {
    await refused(new TextEncoder().encode("hello, I am not a tarball\n".repeat(40)), "invalid_archive", 1);
  });

  test("the manifest must be at the root or inside exactly one top folder", async () => {
    await refused(
      tar([
        { name: "a/gajae-plugin.json", data: "{}" },
        { name: "b/x", data: "x" },
      ]),
      "missing_file",
      1,
    );
    await refused(tar([{ name: "pkg/sub/gajae-plugin.json", data: "{}" }]), "missing_file", 1);
    await refused(tar([{ name: "pkg/readme", data: "{}" }]), "missing_file", 1);
    await refused(tar([{ name: "pkg/gajae-plugin.json", type: "dir" }]), "missing_file", 1);
  });

  test("a local path that is a FIFO or a directory named .tgz is refused without blocking", async () => {
    fresh();
    Bun.spawnSync(["mkfifo", join(a.root, "pipe.tgz")]);
    const ctx = quietContext(a.root);
    await refusal(fetchSource(ctx, parseSourceSpec("./pipe.tgz", ctx), opts()), "invalid_source", 2);
    await refusal(fetchSource(ctx, parseSourceSpec("./missing.tgz", ctx), opts()), "source_unreachable", 4);
    expectEmpty(a.scratch);
  });

  test("a symlink to the user's own archive is fine (they chose it); the record names the real file", async () => {
    fresh();
    writeFileSync(join(a.root, "real.tgz"), gzip(tar([M])));
    symlinkSync(join(a.root, "real.tgz"), join(a.root, "link.tgz"));
    const ctx = quietContext(a.root);
    const got = await fetchSource(ctx, parseSourceSpec("./link.tgz", ctx), opts());
    expect(got.record).toMatchObject({ uri: join(a.root, "real.tgz") });
    await got.cleanup();
  });

  test("zero padding after the end-of-archive marker is ignored within the budget; anything else after it is refused", async () => {
    const got = await fetchArchive(concat([tar([M]), new Uint8Array(4096)]), "trail.tar");
    expect(readdirSync(got.dir)).toEqual(["gajae-plugin.json"]);
    await got.cleanup();
    // An appended archive (or gzip member) would be extracted by `tar -i` and never judged by gjc.
    await refused(concat([tar([M]), new Uint8Array(4096).fill(7)]), "invalid_archive", 1);
    await refused(
      concat([gzip(tar([M])), gzip(tar([{ name: "skills/x.md", data: "unjudged" }]))]),
      "invalid_archive",
      1,
    );
    const padded = gzip(concat([tar([M]), new Uint8Array(2 * 1024 * 1024)]));
    await refused(padded, "source_too_large", 1, { limits: { ...GJC_LIMITS, maxFiles: 4, maxTotalBytes: 1024 } });
  });
});
