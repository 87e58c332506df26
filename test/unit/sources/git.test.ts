import { afterEach, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fetchSource } from "../../../src/sources/fetch-source.ts";
import { parseSourceSpec } from "../../../src/sources/parse-spec.ts";
import type { FetchOptions, SourceSpec } from "../../../src/sources/types.ts";
import { GJC_LIMITS } from "../../../src/bundle/limits.ts";
import { git, gitConfig, gitSandbox, makeRepo, type GitSandbox } from "../../helpers/git.ts";
import { waitFor } from "../../helpers/wait.ts";
import { area, expectEmpty, MANIFESTS, quietContext, refusal, type Area } from "./_support.ts";

let a: Area;
let sb: GitSandbox;
afterEach(() => a?.cleanup());

function setup() {
  a = area();
  sb = gitSandbox(a.root);
  return quietContext(a.root, sb.env);
}
const opts = (extra: Partial<FetchOptions> = {}): FetchOptions => ({
  scratchRoot: a.scratch,
  limits: GJC_LIMITS,
  manifestNames: MANIFESTS,
  ...extra,
});
const manifest = (v: string) => ({ "gajae-plugin.json": { name: "demo", version: v } });
const version = (dir: string) => JSON.parse(readFileSync(join(dir, "gajae-plugin.json"), "utf8")).version;

describe("git sources", () => {
  test("clones the default branch, records the commit, removes .git, cleans up", async () => {
    const ctx = setup();
    const repo = makeRepo(sb, join(a.root, "repo"), { ...manifest("1.0.0"), "skills/a/SKILL.md": "# a\n" });
    const got = await fetchSource(ctx, parseSourceSpec(repo.url, ctx), opts());
    expect(got.record).toEqual({ kind: "git", uri: repo.url, sha: repo.head() });
    expect(got.identity).toBe(`git:${repo.url}`);
    expect(version(got.dir)).toBe("1.0.0");
    expect(readFileSync(join(got.dir, "skills/a/SKILL.md"), "utf8")).toBe("# a\n");
    expect(existsSync(join(got.dir, ".git"))).toBe(false);
    expect(got.dir.startsWith(join(a.scratch, "fetch-"))).toBe(true);
    await got.cleanup();
    await got.cleanup();
    expectEmpty(a.scratch);
  });

  test("#branch and #tag select what is checked out; the ref is recorded", async () => {
    const ctx = setup();
    const repo = makeRepo(sb, join(a.root, "repo"), manifest("1.0.0"));
    repo.tag("v1");
    repo.branch("next");
    repo.checkout("next");
    const nextSha = repo.commit(manifest("2.0.0"));
    repo.checkout("main");
    repo.commit(manifest("1.1.0"));

    const onNext = await fetchSource(ctx, parseSourceSpec(`${repo.url}#next`, ctx), opts());
    expect(version(onNext.dir)).toBe("2.0.0");
    expect(onNext.record).toEqual({ kind: "git", uri: repo.url, ref: "next", sha: nextSha });
    const onTag = await fetchSource(ctx, parseSourceSpec(`${repo.url}#v1`, ctx), opts());
    expect(version(onTag.dir)).toBe("1.0.0");
    await onNext.cleanup();
    await onTag.cleanup();
    expectEmpty(a.scratch);
  });

  test("a moved branch is followed on the next fetch", async () => {
    const ctx = setup();
    const repo = makeRepo(sb, join(a.root, "repo"), manifest("1.0.0"));
    const first = await fetchSource(ctx, parseSourceSpec(`${repo.url}#main`, ctx), opts());
    const moved = repo.commit(manifest("1.0.1"));
    const second = await fetchSource(ctx, parseSourceSpec(`${repo.url}#main`, ctx), opts());
    expect(first.record.kind === "git" && first.record.sha).not.toBe(moved);
    expect(second.record).toMatchObject({ sha: moved, ref: "main" });
    expect(version(second.dir)).toBe("1.0.1");
    await first.cleanup();
    await second.cleanup();
  });

  test("a full-SHA pin fetches exactly that commit, even after the branch moved", async () => {
    const ctx = setup();
    const repo = makeRepo(sb, join(a.root, "repo"), manifest("1.0.0"), { allowShaWant: true });
    const pinned = repo.head();
    repo.commit(manifest("9.9.9"));
    const got = await fetchSource(ctx, parseSourceSpec(`${repo.url}#${pinned.toUpperCase()}`, ctx), opts());
    expect(got.record).toEqual({ kind: "git", uri: repo.url, ref: pinned, sha: pinned });
    expect(version(got.dir)).toBe("1.0.0");
    expect(existsSync(join(got.dir, ".git"))).toBe(false);
    await got.cleanup();
    expectEmpty(a.scratch);
  });

  test("a pin the remote does not have is refused as unreachable, leaving nothing", async () => {
    const ctx = setup();
    const repo = makeRepo(sb, join(a.root, "repo"), manifest("1.0.0"), { allowShaWant: true });
    await refusal(
      fetchSource(ctx, parseSourceSpec(`${repo.url}#${"ab".repeat(20)}`, ctx), opts()),
      "source_unreachable",
      4,
    );
    expectEmpty(a.scratch);
  });

  test("a pin that resolves to another commit (an annotated tag's object id) is a hash mismatch", async () => {
    const ctx = setup();
    const repo = makeRepo(sb, join(a.root, "repo"), manifest("1.0.0"), { allowShaWant: true });
    git(sb, repo.dir, "tag", "-a", "-m", "release", "v1");
    const tagObject = git(sb, repo.dir, "rev-parse", "v1");
    expect(tagObject).not.toBe(repo.head());
    const e = await refusal(
      fetchSource(ctx, parseSourceSpec(`${repo.url}#${tagObject}`, ctx), opts()),
      "hash_mismatch",
      3,
    );
    expect(e.details).toEqual({ expected: tagObject, actual: repo.head() });
    expectEmpty(a.scratch);
  });

  test("a missing branch is unreachable and leaves nothing", async () => {
    const ctx = setup();
    const repo = makeRepo(sb, join(a.root, "repo"), manifest("1.0.0"));
    await refusal(fetchSource(ctx, parseSourceSpec(`${repo.url}#nope`, ctx), opts()), "source_unreachable", 4);
    expectEmpty(a.scratch);
  });

  test("submodules are never fetched, even when the user's config asks for recursion", async () => {
    const ctx = setup();
    const sub = makeRepo(sb, join(a.root, "sub"), { "secret.txt": "from the submodule\n" });
    const repo = makeRepo(sb, join(a.root, "repo"), manifest("1.0.0"));
    git(sb, repo.dir, "-c", "protocol.file.allow=always", "submodule", "-q", "add", sub.url, "vendor/sub");
    git(sb, repo.dir, "commit", "-q", "-m", "add submodule");
    gitConfig(sb, "submodule.recurse", "true");
    gitConfig(sb, "submodule.active", ".");
    gitConfig(sb, "protocol.file.allow", "always");
    // Control: the fixture's submodule is real and fetchable when a client does recurse.
    git(sb, a.root, "clone", "-q", "--recurse-submodules", repo.url, join(a.root, "control"));
    expect(readFileSync(join(a.root, "control/vendor/sub/secret.txt"), "utf8")).toBe("from the submodule\n");
    const pinned = await fetchSource(ctx, parseSourceSpec(`${repo.url}#${repo.head()}`, ctx), opts());
    expect(readdirSync(join(pinned.dir, "vendor/sub"))).toEqual([]);
    await pinned.cleanup();
    const got = await fetchSource(ctx, parseSourceSpec(repo.url, ctx), opts());
    expect(existsSync(join(got.dir, ".gitmodules"))).toBe(true);
    expect(existsSync(join(got.dir, "vendor/sub/secret.txt"))).toBe(false);
    expect(readdirSync(join(got.dir, "vendor/sub"))).toEqual([]);
    await got.cleanup();
  });

  test("hooks never run: a post-checkout hook from the user's template and hooksPath leaves no sentinel", async () => {
    const ctx = setup();
    const repo = makeRepo(sb, join(a.root, "repo"), manifest("1.0.0"), { allowShaWant: true });
    const hooks = join(a.root, "templates", "hooks");
    mkdirSync(hooks, { recursive: true });
    const sentinel = join(a.root, "hook-ran");
    writeFileSync(join(hooks, "post-checkout"), `#!/bin/sh\necho ran >> '${sentinel}'\n`);
    chmodSync(join(hooks, "post-checkout"), 0o755);
    gitConfig(sb, "init.templateDir", join(a.root, "templates"));
    gitConfig(sb, "core.hooksPath", hooks);

    // Control: a plain clone with the same configuration does run the hook.
    git(sb, a.root, "clone", "-q", repo.url, join(a.root, "control"));
    expect(existsSync(sentinel)).toBe(true);
    const before = readFileSync(sentinel, "utf8");

    const cloned = await fetchSource(ctx, parseSourceSpec(repo.url, ctx), opts());
    const pinned = await fetchSource(ctx, parseSourceSpec(`${repo.url}#${repo.head()}`, ctx), opts());
    expect(readFileSync(sentinel, "utf8")).toBe(before);
    await cloned.cleanup();
    await pinned.cleanup();
  });

  test("filter drivers never run: a .gitattributes filter configured in the user's git config leaves no marker, and the bytes are the committed blobs", async () => {
    const ctx = setup();
    const marker = join(a.root, "filter-ran");
    const fsmonitor = join(a.root, "fsmonitor-ran");
    // The repository selects a filter for every file; the user's config defines it (smudge,
    // clean and the long-running process form), and an fsmonitor hook, each leaving a marker.
    const repo = makeRepo(sb, join(a.root, "repo"), {
      ...manifest("1.0.0"),
      ".gitattributes": "* filter=evil\n",
      "skills/a/SKILL.md": "# committed\n",
    });
    const tool = join(a.root, "tool.sh");
    writeFileSync(tool, `#!/bin/sh\necho "$@" >> '${marker}'\ncat\n`);
    chmodSync(tool, 0o755);
    const monitor = join(a.root, "monitor.sh");
    writeFileSync(monitor, `#!/bin/sh\necho ran >> '${fsmonitor}'\n`);
    chmodSync(monitor, 0o755);
    gitConfig(sb, "filter.evil.smudge", `${tool} smudge`);
    gitConfig(sb, "filter.evil.clean", `${tool} clean`);
    gitConfig(sb, "filter.evil.required", "true");
    gitConfig(sb, "core.fsmonitor", monitor);

    // Control: a plain clone with the same configuration does run the filter.
    git(sb, a.root, "clone", "-q", repo.url, join(a.root, "control"));
    expect(existsSync(marker)).toBe(true);
    const { rmSync } = await import("node:fs");
    rmSync(marker);
    rmSync(fsmonitor, { force: true });

    const cloned = await fetchSource(ctx, parseSourceSpec(`${repo.url}#main`, ctx), opts());
    expect(readFileSync(join(cloned.dir, "skills/a/SKILL.md"), "utf8")).toBe("# committed\n");
    expect(readFileSync(join(cloned.dir, ".gitattributes"), "utf8")).toBe("* filter=evil\n");
    gitConfig(sb, "filter.evil.process", `${tool} process`);
    const pinned = await fetchSource(ctx, parseSourceSpec(`${repo.url}#${repo.head()}`, ctx), opts());
    expect(readFileSync(join(pinned.dir, "skills/a/SKILL.md"), "utf8")).toBe("# committed\n");
    expect(existsSync(marker)).toBe(false);
    expect(existsSync(fsmonitor)).toBe(false);
    // No .git of any kind is left beside the files.
    expect(readdirSync(join(cloned.dir, "..")).sort()).toEqual(["checkout"]);
    await cloned.cleanup();
    await pinned.cleanup();
    expectEmpty(a.scratch);
  });

  test("tree entries are judged like archive entries before anything is written: a name with a control character refuses the whole repository", async () => {
    const ctx = setup();
    const repo = makeRepo(sb, join(a.root, "repo"), { ...manifest("1.0.0"), "skills/ok.md": "x" });
    repo.commit({ "skills/bad\u001b[2J.md": "x" });
    await refusal(fetchSource(ctx, parseSourceSpec(repo.url, ctx), opts()), "security_policy", 3);
    expectEmpty(a.scratch);
  });

  test("a repository over the file budget is refused from its listing, before any blob is read", async () => {
    const ctx = setup();
    const repo = makeRepo(sb, join(a.root, "repo"), { ...manifest("1.0.0"), "big.bin": "x".repeat(2048) });
    await refusal(
      fetchSource(ctx, parseSourceSpec(repo.url, ctx), opts({ limits: { ...GJC_LIMITS, maxFileBytes: 1024 } })),
      "source_too_large",
      1,
    );
    expectEmpty(a.scratch);
  });

  test("a hanging transport is killed with its whole process group at the timeout", async () => {
    const ctx = setup();
    const pids = join(a.root, "pids");
    const ssh = join(a.root, "fake-ssh");
    // The fake ssh starts a grandchild that ignores SIGTERM, records both pids, then hangs.
    writeFileSync(
      ssh,
      `#!/bin/sh\n(trap '' TERM; echo $$ >> '${pids}'; exec sleep 300) &\necho $$ >> '${pids}'\nexec sleep 300\n`,
    );
    chmodSync(ssh, 0o755);
    const ctxWithSsh = quietContext(a.root, { ...sb.env, GIT_SSH_COMMAND: ssh });
    void ctx;
    const e = await refusal(
      fetchSource(
        ctxWithSsh,
        parseSourceSpec("ssh://git@example.invalid/r.git", ctxWithSsh),
        opts({ gitTimeoutMs: 500 }),
      ),
      "source_unreachable",
      4,
    );
    expect(e.message).toContain("timed out");
    expectEmpty(a.scratch);
    const started = readFileSync(pids, "utf8").trim().split("\n").map(Number);
    expect(started.length).toBe(2);
    for (const pid of started) await waitFor(() => gone(pid), `the git helper ${pid} to be gone`);
  });

  test("credentials in a URL are used but never recorded or shown", async () => {
    const ctx = setup();
    makeRepo(sb, join(a.root, "srv", "o", "r.git"), manifest("1.0.0"));
    gitConfig(sb, `url.file://${join(a.root, "srv")}/.insteadOf`, "https://tok:s3cret@git.example/");
    const got = await fetchSource(ctx, parseSourceSpec("https://tok:s3cret@git.example/o/r.git", ctx), opts());
    expect(got.record).toMatchObject({ kind: "git", uri: "https://git.example/o/r.git" });
    expect(got.display).toBe("https://***@git.example/o/r.git");
    expect(JSON.stringify({ r: got.record, i: got.identity, d: got.display })).not.toContain("s3cret");
    await got.cleanup();

    // A loopback remote is refused by the address policy before git runs, without the secret...
    const refused = await refusal(
      fetchSource(ctx, parseSourceSpec("https://tok:s3cret@127.0.0.1:9/o/r.git", ctx), opts()),
      "security_policy",
      3,
    );
    expect(JSON.stringify(refused.toJSON())).not.toContain("s3cret");
    // ...and git's own failure (pinned to a closed local port through the test seam) is redacted too.
    const net = { resolveAddresses: async () => ["127.0.0.1"] };
    const e = await refusal(
      fetchSource(
        ctx,
        parseSourceSpec("https://tok:s3cret@gone.invalid:9/o/r.git", ctx),
        opts({ gitTimeoutMs: 20_000, net }),
      ),
      "source_unreachable",
      4,
    );
    expect(JSON.stringify(e.toJSON())).not.toContain("s3cret");
    expectEmpty(a.scratch);
  });

  test("a rewrite to a transport outside https/ssh/file is refused by git itself", async () => {
    const ctx = setup();
    gitConfig(sb, "url.ext::sh -c true% .insteadOf", "https://evil.example/");
    gitConfig(sb, "protocol.ext.allow", "always");
    const e = await refusal(
      fetchSource(ctx, parseSourceSpec("https://evil.example/r.git", ctx), opts()),
      "source_unreachable",
      4,
    );
    expect(e.message).toContain("transport 'ext' not allowed");
    expectEmpty(a.scratch);
  });

  test("subpaths select a directory inside the checkout, never through a symlink", async () => {
    const ctx = setup();
    const repo = makeRepo(sb, join(a.root, "repo"), { "packs/one/plugin.json": { name: "one" }, "README.md": "x" });
    symlinkSync("packs/one", join(repo.dir, "linked"));
    repo.commit({});
    const spec = (subpath: string): SourceSpec => ({ kind: "git", raw: repo.url, url: repo.url, subpath });
    const got = await fetchSource(ctx, spec("packs/one"), opts());
    expect(got.dir.endsWith("/checkout/packs/one")).toBe(true);
    expect(got.record).toMatchObject({ subpath: "packs/one" });
    expect(got.identity).toBe(`git:${repo.url}:packs/one`);
    await got.cleanup();
    await refusal(fetchSource(ctx, spec("linked"), opts()), "security_policy", 3);
    await refusal(fetchSource(ctx, spec("packs/none"), opts()), "missing_file", 1);
    await refusal(fetchSource(ctx, spec("../outside"), opts()), "invalid_source", 2);
    await refusal(fetchSource(ctx, spec("packs"), opts()), "missing_file", 1);
    expectEmpty(a.scratch);
  });

  test("no manifest at the repository root is refused", async () => {
    const ctx = setup();
    const repo = makeRepo(sb, join(a.root, "repo"), { "sub/gajae-plugin.json": {} });
    await refusal(fetchSource(ctx, parseSourceSpec(repo.url, ctx), opts()), "missing_file", 1);
    expectEmpty(a.scratch);
  });

  test("git missing from PATH is reported as unreachable", async () => {
    setup();
    const empty = join(a.root, "empty-bin");
    mkdirSync(empty);
    const ctx = quietContext(a.root, { ...sb.env, PATH: empty });
    await refusal(fetchSource(ctx, parseSourceSpec("file:///nowhere/repo", ctx), opts()), "source_unreachable", 4);
    expectEmpty(a.scratch);
  });
});

/** Whether a process is gone (or a zombie awaiting its reaper), from /proc. */
function gone(pid: number): boolean {
  try {
    const state = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.[0] ?? "";
    return state === "Z" || state === "X";
  } catch {
    return true;
  }
}
