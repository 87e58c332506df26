// GJC install lifecycle, side by side in one run (compiled binary):
//   install of a generated 2,000-file / 20 MiB bundle  vs  cp -r + sha256sum of the copies  (≤1.5x)
//   verify of 50 installed bundles of 40 files          vs  sha256sum -c of the same files   (≤1.1x, issue #11)
//   gjc plugin list with 50 installed bundles           vs  the bare compiled hello program   (≤2x)
// Each measured install starts from an empty scope (ours) or an empty copy target (baseline);
// both sides pay the same rm -rf. What issue #12's defences cost on the install and verify rows
// (≤10 %) is measured directly, against the same source with them switched off: security-cost.bench.ts.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bigToolBundle, installedSums, setup, verifyBundle } from "./_fixtures.ts";
import { gjcBinary, helloBinary, printTable, timePair } from "./_lib.ts";

const gjc = await gjcBinary();
const hello = await helloBinary();
const runs = Number(process.env.BENCH_RUNS ?? 9);
const root = mkdtempSync(join(tmpdir(), "gjc-install-bench-"));

let ok = false;
try {
  // 1. install: 1,999 declared files + the manifest, just under 20 MiB in all.
  const big = bigToolBundle(join(root, "big"));
  const scope = join(root, "scope-install");
  const copy = join(root, "copy");
  const env = { HOME: root, GJC_USER_DIR: scope, GJC_C2_DATA_DIR: join(root, "c2") };
  // The previous run's output is removed and flushed before the clock starts (see sets.bench.ts:
  // install's fsync would otherwise wait for the rm -rf, on this disk with online discard).
  const [install, installBase] = await timePair(
    [gjc, "plugin", "install", big, "--user"],
    ["sh", "-c", `cp -r "${big}" "${copy}" && find "${copy}" -type f -print0 | xargs -0 sha256sum > /dev/null`],
    {
      runs: Math.max(5, runs),
      env,
      cwd: root,
      before: ["sh", "-c", `rm -rf "${scope}" && sync`],
      baselineOptions: { before: ["sh", "-c", `rm -rf "${copy}" && sync`] },
    },
  );

  // 2 and 3: 50 installed bundles of 40 files (1-16 KiB each).
  const many = join(root, "scope-many");
  const manyEnv = { HOME: root, GJC_USER_DIR: many, GJC_C2_DATA_DIR: join(root, "c2") };
  for (let b = 0; b < 50; b++)
    setup(gjc, ["plugin", "install", verifyBundle(join(root, "src", `b${b}`), b), "--user"], {
      env: manyEnv,
      cwd: root,
    });
  const sums = installedSums(many).lines;
  const sumsFile = join(root, "SHA256SUMS");
  writeFileSync(sumsFile, `${sums.join("\n")}\n`);
  const [verify, verifyBase] = await timePair([gjc, "plugin", "verify"], ["sha256sum", "-c", "--quiet", sumsFile], {
    runs,
    env: manyEnv,
    cwd: root,
  });
  const [list, listBase] = await timePair([gjc, "plugin", "list"], [hello], { runs, env: manyEnv, cwd: root });

  ok = printTable("GJC install lifecycle (compiled binary)", [
    {
      name: "install 2,000 files / 20 MiB",
      oursMs: install.medianMs,
      baselineMs: installBase.medianMs,
      baseline: "cp -r + sha256sum",
      limit: 1.5,
    },
    {
      name: `verify 50 bundles x 40 files (${sums.length} files)`,
      oursMs: verify.medianMs,
      baselineMs: verifyBase.medianMs,
      baseline: "sha256sum -c",
      limit: 1.1,
    },
    {
      name: "list with 50 bundles",
      oursMs: list.medianMs,
      baselineMs: listBase.medianMs,
      baseline: "hello binary",
      limit: 2,
    },
  ]);
} finally {
  rmSync(root, { recursive: true, force: true });
}
if (!ok) process.exitCode = 1;
