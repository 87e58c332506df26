import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { installC2FromCatalog } from "../../../src/c2store/catalog-install.ts";
import { findInstalledC2 } from "../../../src/c2store/records.ts";
import { setC2Trusted, upgradeC2 } from "../../../src/c2store/lifecycle.ts";
import { applyPolicyPlan, planPolicyChange } from "../../../src/c2store/policy-plane.ts";
import { effectivePolicy } from "../../../src/c2store/policy.ts";
import { gitSandbox, makeRepo, mapGithubTo } from "../../helpers/git.ts";
import { gzip, tar } from "../../helpers/tar.ts";
import { snapshotTree, type TreeSpec } from "../../helpers/tmp.ts";
import { c2Home, refusal, runtimeBundle, skillsBundle, type C2Home } from "./_bundles.ts";

const homes: C2Home[] = [];
afterEach(() => homes.splice(0).forEach((h) => h.cleanup()));

/** A C2 home whose git sees https://github.com/<o>/<r>.git at <root>/gh/<o>/<r>.git. */
function githubHome() {
  const h = c2Home();
  homes.push(h);
  const sb = gitSandbox(h.root);
  const gh = join(h.root, "gh");
  mapGithubTo(sb, gh);
  const withGit = c2Home({ ...sb.env });
  homes.push(withGit);
  return { h: withGit, sb, gh };
}

function manifestOf(spec: TreeSpec, prefix: string): TreeSpec {
  return Object.fromEntries(Object.entries(spec).map(([k, v]) => [`${prefix}${k}`, v]));
}

describe("C2 install through the sources layer", () => {
  test("GitHub tree URL: id is slug + FNV-1a of owner/repo:path (reference vector), ref not part of it", async () => {
    const { h, sb, gh } = githubHome();
    const repo = makeRepo(
      sb,
      join(gh, "IchenDEV", "codeTwo.git"),
      manifestOf(runtimeBundle("hello-runtime", "1.0.0"), "packs/hello-runtime/"),
    );
    repo.branch("release");
    const r = await h.install("https://github.com/IchenDEV/codeTwo/tree/main/packs/hello-runtime");
    expect(r.c2.id).toBe("hello-runtime-83dfd86f");
    expect(r).toMatchObject({ source: { kind: "github" }, c2: { identity: "IchenDEV/codeTwo:packs/hello-runtime" } });
    await setC2Trusted(h.ctx, "hello-runtime", true);
    repo.checkout("release");
    repo.commit(manifestOf(runtimeBundle("hello-runtime", "1.1.0"), "packs/hello-runtime/"));
    const up = await h.install("https://github.com/IchenDEV/codeTwo/tree/release/packs/hello-runtime", { force: true });
    expect(up).toMatchObject({
      status: "updated",
      version: "1.1.0",
      c2: { id: "hello-runtime-83dfd86f", trusted: true },
    });
    const rec = findInstalledC2(h.ctx, "hello-runtime")!;
    expect(rec.source.resolved).toMatchObject({ repository: "IchenDEV/codeTwo", ref: "release", sha: repo.head() });
  });

  test("upgrade follows the recorded ref: same id, trust and policy kept; a renamed bundle is refused", async () => {
    const { h, sb, gh } = githubHome();
    const repo = makeRepo(sb, join(gh, "acme", "tools.git"), manifestOf(runtimeBundle("tools", "1.0.0"), "plug/"));
    const first = await h.install("https://github.com/acme/tools/tree/main/plug");
    await setC2Trusted(h.ctx, "tools", true);
    await applyPolicyPlan(
      h.ctx,
      (await planPolicyChange(h.ctx, { plugin: "tools", state: "enabled", config: { level: 3 } })).token,
    );
    expect((await upgradeC2(h.ctx, "tools")).status).toBe("unchanged");
    const moved = repo.commit(manifestOf(runtimeBundle("tools", "1.1.0"), "plug/"));
    expect((await upgradeC2(h.ctx, "tools", { dryRun: true })).status).toBe("would-update");
    const up = await upgradeC2(h.ctx, "tools");
    expect(up).toMatchObject({
      status: "updated",
      version: "1.1.0",
      previousVersion: "1.0.0",
      c2: { id: first.c2.id, trusted: true },
    });
    expect(findInstalledC2(h.ctx, "tools")!.source.resolved).toMatchObject({ sha: moved });
    expect(effectivePolicy(h.ctx, "tools")).toMatchObject({ state: "enabled", config: { level: 3 }, trusted: true });
    repo.commit(manifestOf(runtimeBundle("renamed", "2.0.0"), "plug/"));
    const before = snapshotTree(h.data);
    expect(await refusal(() => upgradeC2(h.ctx, "tools"))).toMatchObject({ code: "identity_changed", exit: 3 });
    expect(snapshotTree(h.data)).toEqual(before);
  });

  test("owner/repo shorthand and https://github.com/o/r(.git) install the repository root", async () => {
    const { h, sb, gh } = githubHome();
    makeRepo(sb, join(gh, "acme", "notes.git"), skillsBundle("notes"));
    const a = await h.install("acme/notes");
    expect(a.c2.id).toBe(`notes-${(await import("../../../src/bundle/hash.ts")).fnv1a32Hex("acme/notes:")}`);
    expect((await h.install("https://github.com/acme/notes.git")).status).toBe("unchanged");
    expect((await h.install("https://github.com/acme/notes")).c2.id).toBe(a.c2.id);
  });

  test("GitHub URL forms that must be rejected change nothing", async () => {
    const { h, sb, gh } = githubHome();
    makeRepo(sb, join(gh, "acme", "notes.git"), skillsBundle("notes"));
    await h.install("acme/notes");
    const before = snapshotTree(h.data);
    const bad = [
      "https://github.com/acme/notes?tab=readme",
      "https://github.com/acme/notes#main",
      "https://github.com/acme/notes/tree/main/../secret",
      "https://github.com/acme/notes/tree/main/%2e%2e/x",
      "http://github.com/acme/notes",
      "https://github.com/acme",
      "https://github.com/acme/notes/pulls",
      "ext::sh -c touch% /tmp/pwned",
    ];
    for (const spec of bad) {
      const r = await refusal(() => h.install(spec));
      expect([2, 3]).toContain(r.exit);
    }
    expect(snapshotTree(h.data)).toEqual(before);
  });

  test("the bundle root must be selected explicitly (a subfolder's plugin.json is not searched)", async () => {
    const { h, sb, gh } = githubHome();
    makeRepo(sb, join(gh, "acme", "mono.git"), manifestOf(skillsBundle("tool"), "packages/tool/"));
    const r = await refusal(() => h.install("acme/mono"));
    expect(r.code).toBe("missing_file");
    expect(snapshotTree(h.data)).toEqual({});
    expect((await h.install("https://github.com/acme/mono/tree/main/packages/tool")).name).toBe("tool");
  });

  test("any other git URL (file://) installs; its identity excludes the ref", async () => {
    const { h, sb } = githubHome();
    const repo = makeRepo(sb, join(h.root, "plain.git"), runtimeBundle("plain"));
    repo.tag("v1");
    const a = await h.install(`${repo.url}#v1`);
    expect(a.source.kind).toBe("git");
    repo.commit(runtimeBundle("plain", "1.0.1"));
    const b = await h.install(`${repo.url}#main`, { force: true });
    expect(b.c2.id).toBe(a.c2.id);
    expect(b.version).toBe("1.0.1");
  });

  test("archives install; hostile archives are refused with nothing left behind", async () => {
    const h = c2Home();
    homes.push(h);
    const files = runtimeBundle("packed") as Record<string, unknown>;
    const entries = [
      { name: "plugin.json", data: JSON.stringify(files["plugin.json"]) },
      { name: "plugin.js", data: "process.exit(0);\n" },
      { name: "bin/tool", data: "#!/bin/sh\n", mode: 0o755 },
    ];
    const good = join(h.root, "packed.tgz");
    writeFileSync(good, gzip(tar(entries)));
    const r = await h.install(good);
    expect(r).toMatchObject({ status: "installed", name: "packed" });
    expect(r.source.kind).toBe("tarball");
    const before = snapshotTree(h.data);
    // The same files under one top folder: plugin.json is not at the archive's root.
    const nested = join(h.root, "nested.tgz");
    writeFileSync(nested, gzip(tar(entries.map((e) => ({ ...e, name: `packed/${e.name}` })) as never)));
    expect(await refusal(() => h.install(nested, { force: true }))).toMatchObject({
      code: "nested_manifest",
      message: expect.stringContaining("packed/plugin.json"),
    });
    const hostile: [string, object[]][] = [
      ["abs", [...entries, { name: "/etc/evil", data: "x" }]],
      ["dotdot", [...entries, { name: "../evil", data: "x" }]],
      ["symlink", [...entries, { name: "link", type: "symlink", linkname: "/etc/passwd" }]],
      ["hardlink", [...entries, { name: "hard", type: "hardlink", linkname: "plugin.js" }]],
      ["device", [...entries, { name: "dev", type: "chardev" }]],
      ["dup", [...entries, { name: "plugin.js", data: "evil()" }]],
    ];
    for (const [name, list] of hostile) {
      const path = join(h.root, `${name}.tgz`);
      writeFileSync(path, gzip(tar(list as never)));
      const e = await refusal(() => h.install(path, { force: true }));
      expect(e.exit).toBe(3);
    }
    const truncated = join(h.root, "cut.tgz");
    writeFileSync(truncated, gzip(tar(entries, { end: false })).slice(0, 60));
    expect((await refusal(() => h.install(truncated, { force: true }))).exit).toBe(1);
    expect(snapshotTree(h.data)).toEqual(before);
  });
});

describe("C2 catalog entries", () => {
  function catalog(h: C2Home, plugins: object[]) {
    const dir = join(h.root, "cat");
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, "marketplace.json"),
      JSON.stringify({ standardVersion: "1.0.0", name: "team", displayName: "Team plugins", plugins }),
    );
    return dir;
  }

  test("local, github and git entries install; name and version must match; defaultEnabled is honoured", async () => {
    const { h, sb, gh } = githubHome();
    const dir = catalog(h, [
      { name: "alpha", version: "1.0.0", defaultEnabled: false, source: { kind: "local", path: "./alpha" } },
      { name: "gh", version: "2.0.0", source: { kind: "github", repository: "acme/gh", path: "plug" } },
      { name: "plain", version: "1.0.0", source: { kind: "git", url: "" } },
      { name: "wrongname", version: "1.0.0", source: { kind: "local", path: "./alpha" } },
      { name: "alpha2", version: "9.9.9", source: { kind: "local", path: "./alpha2" } },
      {
        name: "closed",
        version: "1.0.0",
        installationPolicy: "NOT_AVAILABLE",
        source: { kind: "local", path: "./alpha" },
      },
      { name: "fromnpm", version: "1.0.0", source: { kind: "npm", package: "fromnpm" } },
    ]);
    const plain = makeRepo(sb, join(h.root, "plain.git"), skillsBundle("plain"));
    const m = JSON.parse(await Bun.file(join(dir, "marketplace.json")).text());
    m.plugins[2].source.url = plain.url;
    writeFileSync(join(dir, "marketplace.json"), JSON.stringify(m));
    h.bundle("cat/alpha", skillsBundle("alpha"));
    h.bundle("cat/alpha2", skillsBundle("alpha2"));
    makeRepo(sb, join(gh, "acme", "gh.git"), manifestOf(skillsBundle("gh", "2.0.0"), "plug/"));

    const alpha = await installC2FromCatalog(h.ctx, { entryName: "alpha", catalogPath: dir });
    expect(alpha).toMatchObject({ status: "installed", enabled: false, c2: { trusted: false } });
    expect(alpha.source.display).toBe("Marketplace · Team plugins");
    expect(
      (await installC2FromCatalog(h.ctx, { entryName: "gh", catalogPath: join(dir, "marketplace.json") })).source.kind,
    ).toBe("github");
    expect((await installC2FromCatalog(h.ctx, { entryName: "plain", catalogPath: dir })).source.kind).toBe("git");

    const before = snapshotTree(h.data);
    const cases: [string, string, number][] = [
      ["wrongname", "catalog_mismatch", 3],
      ["alpha2", "catalog_mismatch", 3],
      ["closed", "not_available", 3],
      ["fromnpm", "unsupported_source", 1],
      ["missing", "not_in_catalog", 1],
    ];
    for (const [entryName, code, exit] of cases) {
      expect(await refusal(() => installC2FromCatalog(h.ctx, { entryName, catalogPath: dir }))).toMatchObject({
        code,
        exit,
      });
    }
    expect(snapshotTree(h.data)).toEqual(before);
  });
});
