// Sources: judging and extracting an archive, and fetching a git source, against the plain
// tools doing the same job in the same run. Ours runs as a bun process (this file with
// --extract / --clone), so both sides pay a process start.
//   extract: gjc's streaming tar judge + O_EXCL writes of a 2,000-file / 20 MiB .tgz
//            vs `tar xzf` of the same archive (both into a fresh directory, then removed)
//   git:     fetchSource of a local 500-file repository over file:// (clone --depth 1 with
//            the hardening flags, rev-parse, .git removed) vs a plain `git clone --depth 1`
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { printTable, repoRoot, timePair } from "./_lib.ts";

const mode = process.argv[2];
if (mode === "--extract" || mode === "--clone") {
  const { fetchSource } = await import("../../src/sources/fetch-source.ts");
  const { GJC_LIMITS } = await import("../../src/bundle/limits.ts");
  const { createContext } = await import("../../src/core/context.ts");
  const ctx = createContext({ env: process.env, cwd: process.cwd(), quiet: true });
  const [source, scratchRoot] = process.argv.slice(3);
  const spec =
    mode === "--extract"
      ? ({ kind: "tarball", raw: source, location: "file", path: source } as const)
      : ({ kind: "git", raw: source, url: source } as const);
  const got = await fetchSource(ctx, spec, { scratchRoot, limits: GJC_LIMITS, manifestNames: ["gajae-plugin.json"] });
  await got.cleanup();
  process.exit(0);
}

const work = join(repoRoot, "dist", "bench", "sources");
rmSync(work, { recursive: true, force: true });
const src = join(work, "src", "pkg");
mkdirSync(src, { recursive: true });
// 2,000 files of ~10 KiB, half random (so gzip works about as hard as on real bundles).
const half = 5 * 1024;
for (let i = 0; i < 2000; i++) {
  const dir = join(src, `d${String(i % 50).padStart(2, "0")}`);
  mkdirSync(dir, { recursive: true });
  const bytes = new Uint8Array(2 * half + 245);
  crypto.getRandomValues(bytes.subarray(0, half));
  bytes.fill(97, half);
  writeFileSync(join(dir, `f${i}.txt`), bytes);
}
writeFileSync(join(src, "gajae-plugin.json"), "{}\n");
const tgz = join(work, "b.tgz");
Bun.spawnSync(["tar", "czf", tgz, "-C", join(work, "src"), "pkg"]);

const repo = join(work, "repo");
mkdirSync(repo);
const git = (...args: string[]) =>
  Bun.spawnSync(["git", "-c", "user.name=b", "-c", "user.email=b@b", ...args], {
    cwd: repo,
    stdout: "ignore",
    stderr: "ignore",
  });
git("init", "-q", "-b", "main");
for (let i = 0; i < 500; i++) writeFileSync(join(repo, `file${i}.md`), `# file ${i}\n${"text ".repeat(200)}\n`);
writeFileSync(join(repo, "gajae-plugin.json"), "{}\n");
git("add", "-A");
git("commit", "-q", "-m", "bench");
const repoUrl = `file://${repo}`;

const scratch = join(work, "scratch");
const out = join(work, "out");
mkdirSync(scratch);
const self = import.meta.path;
const runs = Number(process.env.BENCH_RUNS ?? 9);

const [extractOurs, extractBase] = await timePair(
  [process.execPath, self, "--extract", tgz, scratch],
  ["sh", "-c", `rm -rf '${out}' && mkdir '${out}' && tar xzf '${tgz}' -C '${out}' && rm -rf '${out}'`],
  { runs, warmup: 1 },
);
const [cloneOurs, cloneBase] = await timePair(
  [process.execPath, self, "--clone", repoUrl, scratch],
  ["sh", "-c", `rm -rf '${out}' && git clone -q --depth 1 --no-local '${repoUrl}' '${out}' && rm -rf '${out}'`],
  { runs, warmup: 1 },
);

printTable("sources (ours includes a bun process start)", [
  {
    name: "extract 2,000 files / 20 MiB .tgz",
    oursMs: extractOurs.medianMs,
    baselineMs: extractBase.medianMs,
    baseline: "tar xzf + rm",
  },
  {
    name: "git fetch 500-file repo (file://)",
    oursMs: cloneOurs.medianMs,
    baselineMs: cloneBase.medianMs,
    baseline: "git clone --depth 1 + rm",
  },
]);
rmSync(work, { recursive: true, force: true });
