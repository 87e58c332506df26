// Plugin sets (issue #14), side by side in one run (compiled binary):
//   sync of a 20-bundle lock (2,000 files) from the content cache  vs  cp -r + sha256sum of the same files  (≤1.5x)
//   lock --check of that set                                       vs  sha256sum -c of the installed files  (≤1.2x)
// Each measured sync starts from an empty project scope (ours) or an empty copy target
// (baseline), removed and flushed to disk before the clock starts: sync makes its commit
// durable (fsync), and an ext4 fsync waits for the journal commit that holds every pending
// change of the file system, the rm -rf included (with its discards, on a disk mounted with
// online discard), so without the flush ours paid for work the baseline never waits for
// (3.58x in one run, 1.11x in the next). The baseline copies the cached files, which is exactly what sync reads.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { installedSums, toolBundle } from "./_fixtures.ts";
import { gjcBinary, printTable, timePair } from "./_lib.ts";

const gjc = await gjcBinary();
const runs = Number(process.env.BENCH_RUNS ?? 9);
const root = mkdtempSync(join(tmpdir(), "gjc-sets-bench-"));

/** A GJC bundle of 99 tool modules (1-16 KiB) in 10 folders and its manifest: 100 files. */
const bundle = (dir: string, name: string, b: number) =>
  toolBundle(dir, name, 99, (i) => 1024 + ((i * 7919 + b * 104729) % (15 * 1024)), 10);

let ok = false;
try {
  const project = join(root, "project");
  const cache = join(root, "cache");
  const scope = join(project, ".gjc", "gjc-plugins");
  mkdirSync(project, { recursive: true });
  const env = { HOME: root, GJC_USER_DIR: join(root, "user"), GJC_C2_DATA_DIR: join(root, "c2"), GJC_CACHE_DIR: cache };
  const run = (args: string[]) => {
    const p = Bun.spawnSync([gjc, ...args], {
      env: { ...process.env, ...env },
      cwd: project,
      stdout: "ignore",
      stderr: "pipe",
    });
    if (p.exitCode !== 0) throw new Error(`${args.join(" ")} failed: ${p.stderr.toString()}`);
  };
  for (let b = 0; b < 20; b++) run(["plugin", "install", bundle(join(root, "src", `b${b}`), `b${b}`, b), "--project"]);
  run(["plugin", "lock", "--project"]);

  const copy = join(root, "copy");
  const [sync, syncBase] = await timePair(
    [gjc, "plugin", "sync", "--project", "--frozen", "--offline"],
    [
      "sh",
      "-c",
      `cp -r "${join(cache, "content")}" "${copy}" && find "${copy}" -type f -path '*/files/*' -print0 | xargs -0 sha256sum > /dev/null`,
    ],
    {
      runs: Math.max(5, runs),
      env,
      cwd: project,
      before: ["sh", "-c", `rm -rf "${scope}" && sync`],
      baselineOptions: { before: ["sh", "-c", `rm -rf "${copy}" && sync`] },
    },
  );

  const sums = installedSums(scope).lines;
  const sumsFile = join(root, "SHA256SUMS");
  writeFileSync(sumsFile, `${sums.join("\n")}\n`);
  const [check, checkBase] = await timePair(
    [gjc, "plugin", "lock", "--project", "--check"],
    ["sha256sum", "-c", "--quiet", sumsFile],
    { runs, env, cwd: project },
  );

  ok = printTable("Plugin sets (compiled binary)", [
    {
      name: `sync 20 bundles / ${sums.length} files from the cache`,
      oursMs: sync.medianMs,
      baselineMs: syncBase.medianMs,
      baseline: "cp -r + sha256sum",
      limit: 1.5,
    },
    {
      name: `lock --check of the set (${sums.length} files)`,
      oursMs: check.medianMs,
      baselineMs: checkBase.medianMs,
      baseline: "sha256sum -c",
      limit: 1.2,
    },
  ]);
} finally {
  rmSync(root, { recursive: true, force: true });
}
if (!ok) process.exitCode = 1;
