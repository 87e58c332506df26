/**
 * Issue #12, class 4, as another local user would try it: the old predictable scratch path
 * (`$TMPDIR/gjc-<uid>`) made first by someone else must neither block gjc nor redirect it,
 * since gjc's scratch now lives in the user's own cache directory. The other user is real
 * (`nobody`, through setpriv) when the tests run as root; the same-user forms (a link, a file,
 * a loose directory, a TMPDIR that does not exist) run everywhere.
 */
import { describe, expect, test } from "bun:test";
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { sandboxPerTest, type Sandbox } from "../helpers/sandbox.ts";
import { gzip, tar } from "../helpers/tar.ts";
import { snapshotTree } from "../helpers/tmp.ts";

const box = sandboxPerTest("gjc-hostile-scratch-");
const canBeNobody = process.getuid?.() === 0 && Bun.which("setpriv") !== null;
const uid = process.getuid?.() ?? "user";
const TOOL = "export default function t_a() { return 'judged'; }\n";

/** A sandbox whose TMPDIR is like /tmp (sticky, world-writable) and reachable by another user, plus a tarball bundle. */
function world(): { s: Sandbox; archive: string; oldPath: string } {
  const s = box();
  chmodSync(s.root, 0o755);
  chmodSync(s.tmp, 0o1777);
  const archive = join(s.root, "b.tgz");
  const manifest = JSON.stringify({
    kind: "gajae-code-plugin",
    name: "tarred",
    version: "1.0.0",
    tools: [{ name: "t_a", path: "tools/t_a.ts" }],
  });
  writeFileSync(
    archive,
    gzip(
      tar([
        { name: "pkg/" },
        { name: "pkg/gajae-plugin.json", data: manifest },
        { name: "pkg/tools/" },
        { name: "pkg/tools/t_a.ts", data: TOOL },
      ]),
    ),
  );
  return { s, archive, oldPath: join(s.tmp, `gjc-${uid}`) };
}

async function asNobody(script: string): Promise<void> {
  const p = Bun.spawn(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "sh", "-c", script], {
    stdout: "pipe",
    stderr: "pipe",
  });
  expect(await p.exited).toBe(0);
}

/** Installs the archive and proves the installed bytes are the judged ones and scratch is private and empty again. */
async function installsCleanly(s: Sandbox, archive: string, env: Record<string, string> = {}) {
  const r = await s.gjc(["plugin", "install", archive, "--user", "--json"], { env });
  expect(r.stderr).toBe("");
  expect(r.exitCode).toBe(0);
  const reg = JSON.parse(readFileSync(join(s.user, "registry.json"), "utf8"));
  expect(readFileSync(join(reg.plugins[0].pluginRoot, "tools", "t_a.ts"), "utf8")).toBe(TOOL);
  const parent = join(s.cache, "scratch");
  const st = lstatSync(parent);
  expect({ dir: st.isDirectory(), mode: st.mode & 0o777, uid: st.uid }).toEqual({
    dir: true,
    mode: 0o700,
    uid: process.getuid?.() ?? st.uid,
  });
  expect(readdirSync(parent)).toEqual([]);
}

describe("hostile scratch: the old shared path is no longer gjc's", () => {
  test.skipIf(!canBeNobody)(
    "another user who made $TMPDIR/gjc-<uid> first (0777, with a file in it) neither blocks nor redirects an install (needs root for a second user)",
    async () => {
      const { s, archive, oldPath } = world();
      await asNobody(
        `mkdir -m 0777 '${oldPath}' && echo planted > '${oldPath}/mine' && ln -s / '${oldPath}/fetch-trap'`,
      );
      const before = snapshotTree(s.tmp);
      await installsCleanly(s, archive);
      // Their directory is exactly as they left it: gjc neither wrote into it nor read from it.
      expect(snapshotTree(s.tmp)).toEqual(before);
      expect(lstatSync(oldPath).uid).toBe(65534);
    },
  );

  test("a link, a file or a loose directory at the old path, or a TMPDIR that does not exist, changes nothing for gjc", async () => {
    for (const plant of ["link", "file", "loose", "missing-tmpdir"] as const) {
      const { s, archive, oldPath } = world();
      const elsewhere = join(s.root, "elsewhere");
      mkdirSync(elsewhere);
      if (plant === "link") symlinkSync(elsewhere, oldPath);
      if (plant === "file") writeFileSync(oldPath, "not a directory");
      if (plant === "loose") mkdirSync(oldPath, { mode: 0o777 });
      const before = snapshotTree(s.tmp);
      await installsCleanly(s, archive, plant === "missing-tmpdir" ? { TMPDIR: join(s.root, "no-such-tmp") } : {});
      expect(snapshotTree(s.tmp)).toEqual(before);
      expect(readdirSync(elsewhere)).toEqual([]);
      expect(existsSync(join(s.root, "no-such-tmp"))).toBe(false);
    }
  });

  test("a cache directory others may write (not sticky) is refused before anything is fetched: security_policy, exit 3, nothing changed", async () => {
    const { s, archive } = world();
    const shared = join(s.root, "shared-cache");
    mkdirSync(shared);
    chmodSync(shared, 0o777);
    const before = snapshotTree(s.root);
    const r = await s.gjc(["plugin", "install", archive, "--user", "--json"], { env: { GJC_CACHE_DIR: shared } });
    expect(r.exitCode).toBe(3);
    const doc = r.json();
    expect(doc.error.code).toBe("security_policy");
    expect(doc.error.message).toContain("writable by other users");
    expect(doc.error.hint).toContain("GJC_CACHE_DIR");
    expect(snapshotTree(s.root)).toEqual(before);
  });

  test.skipIf(!canBeNobody)(
    "a cache directory that belongs to another user is refused, and their directory is untouched (needs root for a second user)",
    async () => {
      const { s, archive } = world();
      const theirs = join(s.tmp, "their-cache");
      await asNobody(`mkdir -m 0755 '${theirs}'`);
      const before = snapshotTree(s.root);
      const r = await s.gjc(["plugin", "install", archive, "--user", "--json"], { env: { GJC_CACHE_DIR: theirs } });
      expect(r.exitCode).toBe(3);
      expect(r.json().error).toMatchObject({ code: "security_policy" });
      expect(r.json().error.message).toContain("another user");
      expect(snapshotTree(s.root)).toEqual(before);
    },
  );
});
