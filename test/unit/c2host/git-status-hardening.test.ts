import { describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gitStatus } from "../../../src/c2host/git-status.ts";
import { git, gitSandbox, makeRepo } from "../../helpers/git.ts";
import { tempDirsPerTest } from "../../helpers/tmp.ts";

const fresh = tempDirsPerTest("gjc-gitstatus-");

describe("git.status runs no repository-chosen code, on the path it was given", () => {
  test("fsmonitor, hooks and pager from the repository's config never run; GIT_* variables cannot point it elsewhere", async () => {
    const root = fresh();
    const sb = gitSandbox(root);
    const repo = makeRepo(sb, join(root, "repo"), { "a.txt": "one\n" });
    const other = makeRepo(sb, join(root, "other"), { "b.txt": "two\n" });
    writeFileSync(join(repo.dir, "a.txt"), "changed\n");
    writeFileSync(join(other.dir, "untracked-elsewhere.txt"), "x\n");
    const marker = join(root, "ran");
    const script = join(root, "evil.sh");
    writeFileSync(script, `#!/bin/sh\necho "$0 $@" >> '${marker}'\n`);
    chmodSync(script, 0o755);
    // The repository's own config (as an extracted archive or a runtime could leave it).
    git(sb, repo.dir, "config", "core.fsmonitor", script);
    git(sb, repo.dir, "config", "core.pager", script);
    mkdirSync(join(root, "hooks"));
    git(sb, repo.dir, "config", "core.hooksPath", join(root, "hooks"));

    // Control: plain git status in that repository does run the fsmonitor program.
    git(sb, repo.dir, "status");
    expect(existsSync(marker)).toBe(true);
    const { rmSync } = await import("node:fs");
    rmSync(marker);

    const hostile = {
      ...sb.env,
      GIT_DIR: join(other.dir, ".git"),
      GIT_WORK_TREE: other.dir,
      GIT_INDEX_FILE: join(other.dir, ".git", "index"),
      GIT_OBJECT_DIRECTORY: join(other.dir, ".git", "objects"),
      GIT_CEILING_DIRECTORIES: root,
      GIT_CONFIG_COUNT: "1",
      GIT_CONFIG_KEY_0: "core.fsmonitor",
      GIT_CONFIG_VALUE_0: script,
      GIT_EXTERNAL_DIFF: script,
      GIT_PAGER: script,
      PAGER: script,
      GIT_OPTIONAL_LOCKS: "1",
    };
    const r = await gitStatus(repo.dir, hostile);
    expect(r.is_repo).toBe(true);
    expect(r.branch).toBe("main");
    expect(r.files.map((f) => [f.path, f.state])).toEqual([["a.txt", "modified"]]);
    expect(existsSync(marker)).toBe(false);
    // No lock or index write left behind by a read.
    expect(existsSync(join(repo.dir, ".git", "index.lock"))).toBe(false);
  });
});
