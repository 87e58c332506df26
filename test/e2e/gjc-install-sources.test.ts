/** Install from real git repositories (file:// and an https URL mapped by insteadOf) and from tarballs made here. */
import { afterEach, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gitConfig, gitSandbox, makeRepo, type GitSandbox } from "../helpers/git.ts";
import { gzip, gzipBomb, tar, type TarEntrySpec } from "../helpers/tar.ts";
import { snapshotTree } from "../helpers/tmp.ts";
import { makeWorld, writeBundle, type World } from "./gjc-install-fixture.ts";

let w: World;
afterEach(() => w?.cleanup());

const entry = (root: string, name: string) =>
  JSON.parse(readFileSync(join(root, "registry.json"), "utf8")).plugins.find((p: { name: string }) => p.name === name);

function gitWorld(): { sb: GitSandbox; env: Record<string, string> } {
  w = makeWorld();
  const sb = gitSandbox(join(w.root, "git"));
  const env = {
    GIT_CONFIG_GLOBAL: sb.config,
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_AUTHOR_DATE: sb.env.GIT_AUTHOR_DATE,
    GIT_COMMITTER_DATE: sb.env.GIT_COMMITTER_DATE,
  };
  return { sb, env };
}

describe("git sources", () => {
  test("a branch is followed: install records the commit, upgrade picks up the moved branch", async () => {
    const { sb, env } = gitWorld();
    const dir = join(w.root, "repos", "gb");
    writeBundle(dir, "gitty", { tools: ["g_a"] });
    const repo = makeRepo(sb, dir, {});
    const first = repo.head();
    const r = await w.gjc(["plugin", "install", `${repo.url}#main`, "--user", "--json"], { env });
    expect(r.exitCode).toBe(0);
    expect(entry(w.user, "gitty").source).toMatchObject({ kind: "git", uri: repo.url, ref: "main", sha: first });
    const inspect = await w.gjc(["plugin", "inspect", "gitty", "--user"], { env });
    expect(inspect.stdout).toContain(`commit:    ${first}`);

    writeBundle(dir, "gitty", { version: "1.1.0", tools: ["g_a", "g_b"] });
    const second = repo.commit({}, "v1.1.0");
    const dry = await w.gjc(["plugin", "upgrade", "gitty", "--user", "--dry-run", "--json"], { env });
    expect(dry.json()).toMatchObject({
      status: "would-update",
      version: "1.1.0",
      gjc: { surfaces: { added: ["tool:g_b"], kept: ["tool:g_a"] } },
    });
    expect(entry(w.user, "gitty").source.sha).toBe(first);
    const up = await w.gjc(["plugin", "upgrade", "gitty", "--user", "--json"], { env });
    expect(up.json()).toMatchObject({ status: "updated", version: "1.1.0" });
    expect(entry(w.user, "gitty").source).toMatchObject({ ref: "main", sha: second });
    expect((await w.gjc(["plugin", "verify"], { env })).exitCode).toBe(0);
    // Nothing of the clone is left in the scratch root.
    expect(readdirSync(join(w.cache, "scratch"))).toEqual([]);
  });

  test("a full-SHA pin is verified and stays pinned when the branch moves", async () => {
    const { sb, env } = gitWorld();
    const dir = join(w.root, "repos", "pin");
    writeBundle(dir, "pinned", { tools: ["p_a"] });
    const repo = makeRepo(sb, dir, {}, { allowShaWant: true });
    const sha = repo.head();
    writeBundle(dir, "pinned", { version: "9.0.0", tools: ["p_a"] });
    repo.commit({}, "moved on");
    const r = await w.gjc(["plugin", "install", `${repo.url}#${sha}`, "--project", "--json"], { env });
    expect(r.exitCode).toBe(0);
    expect(r.json().version).toBe("1.0.0");
    expect(entry(w.projectScope, "pinned").source).toMatchObject({ kind: "git", ref: sha, sha });
    const up = await w.gjc(["plugin", "upgrade", "pinned", "--project", "--json"], { env });
    expect(up.json().status).toBe("unchanged");
  });

  test("credentials in a git URL are used, never stored or printed", async () => {
    const { sb, env } = gitWorld();
    const dir = join(w.root, "srv", "o", "r.git");
    writeBundle(dir, "secretive", { tools: ["s_a"] });
    makeRepo(sb, dir, {});
    gitConfig(sb, `url.file://${join(w.root, "srv")}/.insteadOf`, "https://tok:s3cret@git.example/");
    gitConfig(sb, `url.file://${join(w.root, "srv")}/.insteadOf`, "https://git.example/");
    const r = await w.gjc(["plugin", "install", "https://tok:s3cret@git.example/o/r.git", "--user", "--json"], { env });
    expect(r.exitCode).toBe(0);
    expect(r.stdout + r.stderr).not.toContain("s3cret");
    expect(readFileSync(join(w.user, "registry.json"), "utf8")).not.toContain("s3cret");
    expect(entry(w.user, "secretive").source.uri).toBe("https://git.example/o/r.git");
    for (const args of [
      ["plugin", "list"],
      ["plugin", "list", "--json"],
      ["plugin", "inspect", "secretive", "--user", "--json"],
    ]) {
      const out = await w.gjc(args, { env });
      expect(out.stdout).not.toContain("s3cret");
      expect(out.stdout).not.toContain("tok:");
    }
    expect((await w.gjc(["plugin", "upgrade", "secretive", "--user", "--json"], { env })).json().status).toBe(
      "unchanged",
    );
  });
});

const M: TarEntrySpec = {
  name: "pkg/gajae-plugin.json",
  data: JSON.stringify({
    kind: "gajae-code-plugin",
    name: "tarred",
    version: "1.0.0",
    tools: [{ name: "t_a", path: "tools/t_a.ts" }],
  }),
};
const T: TarEntrySpec = { name: "pkg/tools/t_a.ts", data: "export default 1;\n" };

describe("tarball sources", () => {
  test("a .tgz with one top folder installs; the archive hash is recorded; reinstall is a no-op", async () => {
    w = makeWorld();
    const file = join(w.root, "b.tgz");
    writeFileSync(file, gzip(tar([{ name: "pkg/" }, M, { name: "pkg/tools/" }, T])));
    const r = await w.gjc(["plugin", "install", file, "--user", "--json"]);
    expect(r.exitCode).toBe(0);
    const e = entry(w.user, "tarred");
    expect(e.source).toMatchObject({ kind: "tarball", uri: file });
    expect(e.source.sha256).toBe(new Bun.CryptoHasher("sha256").update(readFileSync(file)).digest("hex"));
    expect((await w.gjc(["plugin", "install", file, "--user", "--json"])).json().status).toBe("unchanged");
    expect(readdirSync(join(w.cache, "scratch"))).toEqual([]);
  });

  const hostile: [string, () => Promise<Uint8Array> | Uint8Array, string, number][] = [
    ["an absolute name", () => tar([M, T, { name: "/etc/evil", data: "x" }]), "security_policy", 3],
    ["a .. name", () => tar([M, T, { name: "pkg/../../evil", data: "x" }]), "security_policy", 3],
    [
      "a symlink",
      () => tar([M, T, { name: "pkg/link", type: "symlink", linkname: "/etc/passwd" }]),
      "security_policy",
      3,
    ],
    [
      "a hard link",
      () => tar([M, T, { name: "pkg/hard", type: "hardlink", linkname: "pkg/tools/t_a.ts" }]),
      "security_policy",
      3,
    ],
    ["a device", () => tar([M, T, { name: "pkg/tty", type: "chardev" }]), "security_policy", 3],
    ["a duplicate", () => tar([M, T, { name: "pkg/tools/t_a.ts", data: "evil" }]), "security_policy", 3],
    ["a case collision", () => tar([M, T, { name: "pkg/TOOLS/t_a.ts", data: "x" }]), "security_policy", 3],
    [
      "an NFC collision",
      () => tar([M, T, { name: "pkg/caf\u00e9", data: "1" }, { name: "pkg/cafe\u0301", data: "2" }]),
      "security_policy",
      3,
    ],
    [
      "a PAX path override to ..",
      () => tar([M, T, { name: "pkg/innocent", pax: { path: "../evil" }, data: "x" }]),
      "security_policy",
      3,
    ],
    ["a truncated archive", () => gzip(tar([M, T])).subarray(0, 60), "invalid_archive", 1],
    ["a decompression bomb (160 MiB of zeros)", () => gzipBomb(160, 1024 * 1024, "pkg"), "source_too_large", 1],
  ];
  for (const [what, make, code, exit] of hostile) {
    test(`refused whole, nothing written: ${what}`, async () => {
      w = makeWorld();
      const file = join(w.root, "evil.tgz");
      const bytes = await make();
      writeFileSync(file, what.startsWith("a truncated") || what.startsWith("a decompression") ? bytes : gzip(bytes));
      const before = snapshotTree(w.root);
      const r = await w.gjc(["plugin", "install", file, "--project", "--json"]);
      expect({ exit: r.exitCode, code: r.json().error?.code }).toEqual({ exit, code });
      expect(snapshotTree(w.root)).toEqual(before);
    });
  }
});
