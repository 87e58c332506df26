import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isBrokenPipe, osErrorFrom, writingTo } from "../../../src/core/os-errors.ts";
import { tempDirsPerTest } from "../../helpers/tmp.ts";

const fresh = tempDirsPerTest();
const errno = (code: string, extra: Record<string, unknown> = {}) => Object.assign(new Error(code), { code, ...extra });

describe("osErrorFrom", () => {
  test("each OS refusal has its code, exit 1, the path and a hint", () => {
    for (const [code, expected] of [
      ["EACCES", "permission_denied"],
      ["EPERM", "permission_denied"],
      ["EROFS", "read_only"],
      ["ENOSPC", "disk_full"],
      ["EDQUOT", "disk_full"],
      ["ENOTDIR", "not_a_directory"],
    ] as const) {
      const e = osErrorFrom(errno(code, { path: "/srv/x/registry.json", syscall: "open" }))!;
      expect({ code, got: e.code, exit: e.exit }).toEqual({ code, got: expected, exit: 1 });
      expect(e.message).toContain(code);
      expect(e.hint!.length).toBeGreaterThan(20);
      expect(e.details).toMatchObject({ errno: code });
    }
  });

  test("mkdir over a file is not_a_directory naming the file; EEXIST elsewhere is not an OS refusal", () => {
    const root = fresh();
    const file = join(root, "file");
    writeFileSync(file, "x");
    mkdirSync(join(root, "dir"));
    expect(osErrorFrom(errno("EEXIST", { path: file, syscall: "mkdir" }))).toMatchObject({ code: "not_a_directory" });
    expect(osErrorFrom(errno("EEXIST", { path: join(root, "dir"), syscall: "mkdir" }))).toBeUndefined();
    expect(osErrorFrom(errno("EEXIST", { path: file, syscall: "open" }))).toBeUndefined();
    const under = osErrorFrom(errno("ENOTDIR", { path: join(file, "a", "b"), syscall: "mkdir" }))!;
    expect(under.message).toBe(
      `${file} is a file, but gjc needs a directory there to reach ${join(file, "a", "b")} (ENOTDIR).`,
    );
  });

  test("not every errno is the machine refusing a write: kill/spawn, other codes and non-errors stay as they are", () => {
    expect(osErrorFrom(errno("EPERM", { syscall: "kill" }))).toBeUndefined();
    expect(osErrorFrom(errno("EACCES", { syscall: "spawn", path: "/bin/x" }))).toBeUndefined();
    expect(osErrorFrom(errno("ENOENT", { path: "/x" }))).toBeUndefined();
    expect(osErrorFrom(new Error("boom"))).toBeUndefined();
    expect(osErrorFrom("EACCES")).toBeUndefined();
  });

  test("writingTo names the file for a path-less error, and replaces a temp sibling's name when asked", () => {
    const bare = errno("ENOSPC", { syscall: "write" });
    expect(() =>
      writingTo("/data/out.tgz", () => {
        throw bare;
      }),
    ).toThrow();
    expect(osErrorFrom(bare)!.message).toContain("/data/out.tgz");
    const tmp = errno("EROFS", { syscall: "open", path: "/data/.out.tgz.tmp-1-ab" });
    expect(() =>
      writingTo(
        "/data/out.tgz",
        () => {
          throw tmp;
        },
        { replace: true },
      ),
    ).toThrow();
    expect(osErrorFrom(tmp)!.message).toBe("/data/out.tgz is on a read-only file system (EROFS).");
    expect(isBrokenPipe(errno("EPIPE"))).toBe(true);
    expect(isBrokenPipe(errno("ENOSPC"))).toBe(false);
  });
});
