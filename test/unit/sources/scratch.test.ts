/**
 * Issue #12, class 4: fetch scratch lives under a parent only this user can write, and what a
 * fetch hands on is exactly the bytes it judged, even with another local user racing it. The
 * parent's checks are exercised here on a parent in a /tmp-like sticky directory (the harshest
 * place it could be); where gjc puts it by default (the user's cache directory) is
 * test/e2e/hostile-scratch.test.ts. The
 * other user is real: `nobody`, through setpriv, when the tests run as root (the only way to
 * be two users on one machine in a test); the same-user cases run everywhere.
 */
import { afterEach, describe, expect, test } from "bun:test";
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { GJC_LIMITS } from "../../../src/bundle/limits.ts";
import { fetchSource } from "../../../src/sources/fetch-source.ts";
import { parseSourceSpec } from "../../../src/sources/parse-spec.ts";
import { makeScratch, scratchParent } from "../../../src/sources/scratch.ts";
import { gzip, tar } from "../../helpers/tar.ts";
import { spawnScoped, type ScopedProcess } from "../../helpers/sandbox.ts";
import { snapshotTree, tempDir } from "../../helpers/tmp.ts";
import { MANIFESTS, quietContext, refusal } from "./_support.ts";
import { waitFor } from "../../helpers/wait.ts";

const isRoot = process.getuid?.() === 0 && Bun.which("setpriv") !== null;
let cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

/** A world with a sticky, world-writable tmp (like /tmp) that another user can reach. */
function world() {
  const t = tempDir("gjc-scratch-");
  cleanups.push(t.cleanup);
  chmodSync(t.path, 0o755);
  const tmp = join(t.path, "tmp");
  mkdirSync(tmp);
  chmodSync(tmp, 0o1777);
  const scratchRoot = join(tmp, `gjc-${process.getuid?.() ?? "user"}`);
  const manifest = JSON.stringify({ kind: "gajae-code-plugin", name: "demo", version: "1.0.0" });
  const archive = join(t.path, "b.tgz");
  writeFileSync(
    archive,
    gzip(
      tar([
        { name: "pkg/" },
        { name: "pkg/gajae-plugin.json", data: manifest },
        { name: "pkg/skills/a.md", data: "judged bytes\n" },
      ]),
    ),
  );
  chmodSync(archive, 0o644);
  const ctx = quietContext(t.path);
  const fetch = () =>
    fetchSource(ctx, parseSourceSpec(archive, ctx), { scratchRoot, limits: GJC_LIMITS, manifestNames: MANIFESTS });
  return { root: t.path, tmp, scratchRoot, manifest, fetch };
}

/** Runs a shell script as `nobody` (these tests run as root), in its own process group for `await using`. */
function asNobody(script: string): ScopedProcess {
  return spawnScoped(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "sh", "-c", script]);
}

describe("private scratch", () => {
  test("the scratch parent is created 0700, owned by us, and each fetch gets a fresh random dir inside it", async () => {
    const w = world();
    const got = await w.fetch();
    const st = lstatSync(w.scratchRoot);
    expect(st.isDirectory()).toBe(true);
    expect(st.mode & 0o777).toBe(0o700);
    expect(st.uid).toBe(process.getuid?.() ?? st.uid);
    expect(got.dir.startsWith(join(w.scratchRoot, "fetch-"))).toBe(true);
    await got.cleanup();
    expect(readdirSync(w.scratchRoot)).toEqual([]);
  });

  test("a link planted where the scratch parent goes, or a parent others may write that is not sticky, is refused with nothing fetched", async () => {
    const w = world();
    const elsewhere = join(w.root, "elsewhere");
    mkdirSync(elsewhere);
    symlinkSync(elsewhere, w.scratchRoot);
    const before = snapshotTree(w.root);
    const e = await refusal(w.fetch(), "security_policy", 3);
    expect(e.message).toContain("symbolic link");
    expect(snapshotTree(w.root)).toEqual(before);
    expect(readdirSync(elsewhere)).toEqual([]);

    const loose = world();
    chmodSync(loose.tmp, 0o777); // world-writable, not sticky: anyone could rename our dir away
    await refusal(loose.fetch(), "security_policy", 3);
    expect(existsSync(loose.scratchRoot)).toBe(false);
  });

  test.skipIf(!isRoot)(
    "another user who created the scratch parent first (0777) gets it refused, untouched (needs root for a second user)",
    async () => {
      const w = world();
      await using planter = asNobody(`mkdir -m 0777 '${w.scratchRoot}' && echo planted > '${w.scratchRoot}/mine'`);
      expect(await planter.proc.exited).toBe(0);
      const e = await refusal(w.fetch(), "security_policy", 3);
      expect(e.message).toContain("another user");
      expect(readdirSync(w.scratchRoot)).toEqual(["mine"]);
      expect(lstatSync(w.scratchRoot).uid).toBe(65534);
    },
  );

  test.skipIf(!isRoot)(
    "another user racing the scratch dir in a loop never gets in: every fetch hands on the judged bytes (needs root for a second user)",
    async () => {
      const w = world();
      // Our parent exists first (one fetch made it); a parent the other user makes first is the
      // previous test's case (refused).
      await (await w.fetch()).cleanup();
      const hits = join(w.root, "hits");
      writeFileSync(hits, "");
      chmodSync(hits, 0o666);
      const stop = join(w.root, "stop");
      const rounds = join(w.root, "rounds");
      writeFileSync(rounds, "");
      chmodSync(rounds, 0o666);
      // Bounded: at most 20 000 rounds, or until the stop file appears.
      // Killed with its group if the block ends early (a failed expectation); stopped by its file otherwise.
      await using racing = asNobody(`
      echo started > '${rounds}'
      i=0
      while [ $i -lt 20000 ] && [ ! -e '${stop}' ]; do
        i=$((i+1))
        mkdir '${w.scratchRoot}' 2>/dev/null && echo created-parent >> '${hits}'
        for d in '${w.scratchRoot}'/fetch-*; do
          [ -d "$d" ] || continue
          echo '{"kind":"gajae-code-plugin","name":"evil","version":"6.6.6"}' > "$d/pkg/gajae-plugin.json" 2>/dev/null && echo wrote >> '${hits}'
          mv "$d" "$d.gone" 2>/dev/null && echo renamed >> '${hits}'
          ln -s / "$d/pkg/skills/link" 2>/dev/null && echo linked >> '${hits}'
        done
      done
      echo "$i" > '${rounds}'
    `);
      // The racer is running before the first fetch.
      await waitFor(() => readFileSync(rounds, "utf8") !== "", "the racer's first round");
      for (let n = 0; n < 25; n++) {
        const got = await w.fetch();
        expect(readFileSync(join(got.dir, "gajae-plugin.json"), "utf8")).toBe(w.manifest);
        expect(readFileSync(join(got.dir, "skills/a.md"), "utf8")).toBe("judged bytes\n");
        expect(readdirSync(join(got.dir, "skills"))).toEqual(["a.md"]);
        await got.cleanup();
      }
      writeFileSync(stop, "");
      await racing.proc.exited;
      expect(readFileSync(hits, "utf8")).toBe("");
      expect(Number(readFileSync(rounds, "utf8"))).toBeGreaterThan(0);
    },
  );

  test("the default parent is <cache>/scratch, whatever TMPDIR says", () => {
    const t = tempDir("gjc-scratch-default-");
    cleanups.push(t.cleanup);
    const env = { HOME: t.path, TMPDIR: join(t.path, "does-not-exist") };
    expect(scratchParent(quietContext(t.path, env))).toBe(join(t.path, ".cache", "gjc", "scratch"));
    expect(scratchParent(quietContext(t.path, { ...env, XDG_CACHE_HOME: join(t.path, "xdg") }))).toBe(
      join(t.path, "xdg", "gjc", "scratch"),
    );
    expect(scratchParent(quietContext(t.path, { ...env, GJC_CACHE_DIR: join(t.path, "c") }))).toBe(
      join(t.path, "c", "scratch"),
    );
  });

  test("leftovers of a gjc that died are swept; a live process's or a recent one's are kept", async () => {
    const t = tempDir("gjc-scratch-sweep-");
    cleanups.push(t.cleanup);
    const parent = join(t.path, "scratch");
    const dead = Bun.spawn(["true"]);
    await dead.exited;
    await using sleeper = spawnScoped(["sleep", "30"]);
    const live = sleeper.proc;
    mkdirSync(parent, { mode: 0o700 });
    const hourAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    const make = (name: string, old: boolean) => {
      mkdirSync(join(parent, name, "pkg"), { recursive: true });
      writeFileSync(join(parent, name, "pkg", "f"), "x");
      if (old) utimesSync(join(parent, name), hourAgo, hourAgo);
    };
    make(`fetch-${dead.pid}-aaaaaa`, true); // died, old: swept
    make(`run-${dead.pid}-bbbbbb`, false); // died, but recent: kept (another pid namespace may own it)
    make(`mcp-${live.pid}-cccccc`, true); // still running: kept
    make("not-ours", true); // not a name gjc makes: kept
    const fresh = makeScratch(parent, "fetch");
    expect(readdirSync(parent).sort()).toEqual(
      [`mcp-${live.pid}-cccccc`, `run-${dead.pid}-bbbbbb`, fresh.slice(parent.length + 1), "not-ours"].sort(),
    );
    expect(fresh.startsWith(join(parent, `fetch-${process.pid}-`))).toBe(true);
  });
});
