// Release logs, side by side in one run (compiled binary): the same small bundle installed from
// a source without a log (the baseline) and from one whose gjc-log/ holds 1,000 releases (this
// one the last): the log read, the tree recomputed, the checkpoint's signature, an inclusion
// proof, and the remembered state written. Each measured install starts from an empty scope and
// no remembered checkpoint, flushed before the clock starts.
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { judgeBundle } from "../../src/store/bundle-digest.ts";
import { signCheckpoint } from "../../src/tlog/checkpoint.ts";
import { LOG_DIR, LOG_FILES } from "../../src/tlog/layout.ts";
import { treeRoot } from "../../src/tlog/merkle.ts";
import { generateSigner } from "../../src/tlog/note.ts";
import { releaseLeaf, releasesText, type Release } from "../../src/tlog/releases.ts";
import { toolBundle } from "./_fixtures.ts";
import { gjcBinary, printTable, timePair } from "./_lib.ts";

const gjc = await gjcBinary();
const runs = Number(process.env.BENCH_RUNS ?? 15);
const root = mkdtempSync(join(tmpdir(), "gjc-release-log-bench-"));
const RELEASES = 1000;

let ok = false;
try {
  const plain = toolBundle(join(root, "plain"), "small", 2, () => 512, 1);
  const logged = join(root, "logged");
  cpSync(plain, logged, { recursive: true });
  const { name, version, integrity } = await judgeBundle(logged);
  const releases: Release[] = Array.from({ length: RELEASES - 1 }, (_, i) => ({
    name: `other-${i}`,
    version: "1.0.0",
    digest: `sha256:${i.toString(16).padStart(64, "0")}`,
  }));
  releases.push({ name, version, digest: integrity });
  const signer = generateSigner("bench.example/log");
  const log = join(logged, LOG_DIR);
  mkdirSync(log);
  writeFileSync(join(log, LOG_FILES.key), `${signer.text}\n`);
  writeFileSync(join(log, LOG_FILES.releases), releasesText(releases));
  writeFileSync(
    join(log, LOG_FILES.checkpoint),
    signCheckpoint(
      { origin: signer.name, size: releases.length, root: treeRoot(releases.map(releaseLeaf)), extensions: [] },
      signer,
    ),
  );

  const homeA = join(root, "home-a");
  const homeB = join(root, "home-b");
  const scopeA = join(root, "scope-a");
  const scopeB = join(root, "scope-b");
  const env = (home: string, scope: string) => ({ HOME: home, GJC_USER_DIR: scope, GJC_C2_DATA_DIR: join(home, "c2") });
  const [ours, base] = await timePair(
    [gjc, "plugin", "install", logged, "--user"],
    [gjc, "plugin", "install", plain, "--user"],
    {
      runs,
      env: env(homeA, scopeA),
      cwd: root,
      before: ["sh", "-c", `rm -rf "${scopeA}" "${homeA}/.gjc/release-logs.json" && sync`],
      baselineOptions: { env: env(homeB, scopeB), before: ["sh", "-c", `rm -rf "${scopeB}" && sync`] },
    },
  );
  const addedMs = ours.medianMs - base.medianMs;
  ok = printTable("Release log (compiled binary)", [
    {
      name: `install small bundle, logged (${RELEASES} releases)`,
      oursMs: ours.medianMs,
      baselineMs: base.medianMs,
      baseline: "no log",
      note: `${addedMs >= 0 ? "+" : ""}${addedMs.toFixed(2)} ms`,
    },
  ]);
} finally {
  rmSync(root, { recursive: true, force: true });
}
if (!ok) process.exitCode = 1;
