import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { C2_LIMITS } from "../../../src/bundle/limits.ts";
import { fetchSource } from "../../../src/sources/fetch-source.ts";
import { parseSourceSpec } from "../../../src/sources/parse-spec.ts";
import { specFromRecord } from "../../../src/sources/spec-from-record.ts";
import type { FetchOptions } from "../../../src/sources/types.ts";
import { gitSandbox, makeRepo, mapGithubTo, type GitSandbox } from "../../helpers/git.ts";
import { area, expectEmpty, quietContext, refusal, type Area } from "./_support.ts";

let a: Area;
let sb: GitSandbox;
afterEach(() => a?.cleanup());
const opts = (): FetchOptions => ({ scratchRoot: a.scratch, limits: C2_LIMITS, manifestNames: ["plugin.json"] });

/** https://github.com/acme/tools.git is served from a local repository through insteadOf. */
function setup() {
  a = area();
  sb = gitSandbox(a.root);
  const ghRoot = join(a.root, "github");
  mapGithubTo(sb, ghRoot);
  const repo = makeRepo(sb, join(ghRoot, "acme", "tools.git"), {
    "plugin.json": { name: "root-plugin" },
    "packs/hello/plugin.json": { name: "hello" },
    "packs/hello/skills/greet/SKILL.md": "# greet\n",
    "packs/nomanifest/README.md": "x",
  });
  symlinkSync("hello", join(repo.dir, "packs", "via-link"));
  repo.commit({});
  return { ctx: quietContext(a.root, sb.env), repo };
}
const name = (dir: string) => JSON.parse(readFileSync(join(dir, "plugin.json"), "utf8")).name;

describe("GitHub sources through git insteadOf", () => {
  test("owner/repo shorthand fetches the default branch", async () => {
    const { ctx, repo } = setup();
    const got = await fetchSource(ctx, parseSourceSpec("acme/tools", ctx), opts());
    expect(name(got.dir)).toBe("root-plugin");
    expect(got.record).toEqual({ kind: "github", repository: "acme/tools", sha: repo.head() });
    expect(got.identity).toBe("github:acme/tools:");
    expect(got.display).toBe("https://github.com/acme/tools");
    expect(existsSync(join(got.dir, ".git"))).toBe(false);
    await got.cleanup();
    expectEmpty(a.scratch);
  });

  test("/tree/<ref>/<path> selects the directory; identity leaves the ref out", async () => {
    const { ctx, repo } = setup();
    const got = await fetchSource(
      ctx,
      parseSourceSpec("https://github.com/acme/tools/tree/main/packs/hello", ctx),
      opts(),
    );
    expect(name(got.dir)).toBe("hello");
    expect(readFileSync(join(got.dir, "skills/greet/SKILL.md"), "utf8")).toBe("# greet\n");
    expect(got.record).toEqual({
      kind: "github",
      repository: "acme/tools",
      ref: "main",
      sha: repo.head(),
      subpath: "packs/hello",
    });
    expect(got.identity).toBe("github:acme/tools:packs/hello");
    const again = await fetchSource(ctx, specFromRecord(got.record), opts());
    expect(again.identity).toBe(got.identity);
    await got.cleanup();
    await again.cleanup();
  });

  test("a /tree/<sha>/ pin and a /blob/…/SKILL.md link", async () => {
    const { ctx, repo } = setup();
    const first = repo.head();
    repo.commit({ "packs/hello/plugin.json": { name: "hello-2" } });
    const pinned = await fetchSource(
      ctx,
      parseSourceSpec(`https://github.com/acme/tools/tree/${first}/packs/hello`, ctx),
      opts(),
    );
    expect(name(pinned.dir)).toBe("hello");
    expect(pinned.record).toMatchObject({ sha: first, ref: first });
    const blob = await fetchSource(
      ctx,
      parseSourceSpec("https://github.com/acme/tools/blob/main/packs/hello/plugin.json", ctx),
      opts(),
    );
    expect(blob.dir.endsWith("/checkout/packs/hello")).toBe(true);
    expect(name(blob.dir)).toBe("hello-2");
    // A SKILL.md link selects its directory, which must itself be a bundle root.
    await refusal(
      fetchSource(
        ctx,
        parseSourceSpec("https://github.com/acme/tools/blob/main/packs/hello/skills/greet/SKILL.md", ctx),
        opts(),
      ),
      "missing_file",
      1,
    );
    await pinned.cleanup();
    await blob.cleanup();
  });

  test("a subpath through a symlink, a missing subpath, or one without a manifest is refused", async () => {
    const { ctx } = setup();
    await refusal(
      fetchSource(ctx, parseSourceSpec("https://github.com/acme/tools/tree/main/packs/via-link", ctx), opts()),
      "security_policy",
      3,
    );
    await refusal(
      fetchSource(ctx, parseSourceSpec("https://github.com/acme/tools/tree/main/packs/absent", ctx), opts()),
      "missing_file",
      1,
    );
    await refusal(
      fetchSource(ctx, parseSourceSpec("https://github.com/acme/tools/tree/main/packs/nomanifest", ctx), opts()),
      "missing_file",
      1,
    );
    await refusal(
      fetchSource(ctx, parseSourceSpec("https://github.com/acme/tools/tree/nobranch/packs/hello", ctx), opts()),
      "source_unreachable",
      4,
    );
    await refusal(fetchSource(ctx, parseSourceSpec("acme/missing", ctx), opts()), "source_unreachable", 4);
    expectEmpty(a.scratch);
  });
});
