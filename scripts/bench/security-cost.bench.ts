// What issue #12's defences cost on the bench rows of issue #11 ("no slowdown beyond 10 %"),
// measured directly: the binary built from this checkout against the same source built with
// those defences switched off (security-off.patch), alternating run by run on the same inputs.
// The rows' own benches compare with outside baselines (hello, sha256sum, cp), whose ratios
// also carry what other issues added on purpose (citty for #11, the runtime check at session
// start for #13); this bench isolates #12.
//   validate of a small C2 bundle, validate at the C2 limits, install of 2,000 files,
//   verify of 50 x 40 files, session start of 100 bundles: each ≤1.1x the defences-off build.
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { COMPILE_FLAGS } from "../compile-flags.ts";
import { bigToolBundle, limitBundle, sessionBundle, setup, verifyBundle } from "./_fixtures.ts";
import { gjcBinary, printTable, repoRoot, timePair, type Timing } from "./_lib.ts";

const gjc = await gjcBinary();
const runs = Number(process.env.BENCH_RUNS ?? 15);
const root = mkdtempSync(join(tmpdir(), "gjc-security-cost-"));

/** This checkout's source with security-off.patch applied, compiled with the release flags. */
function buildDefencesOff(): string {
  const work = join(root, "source");
  mkdirSync(work);
  for (const p of ["src", "docs", "package.json", "tsconfig.json"])
    cpSync(join(repoRoot, p), join(work, p), { recursive: true });
  symlinkSync(join(repoRoot, "node_modules"), join(work, "node_modules"));
  const patch = Bun.spawnSync(["git", "apply", join(import.meta.dir, "security-off.patch")], {
    cwd: work,
    stdout: "ignore",
    stderr: "pipe",
  });
  if (patch.exitCode !== 0)
    throw new Error(
      `security-off.patch no longer applies to src/ (update it to switch the same checks off):\n${patch.stderr.toString()}`,
    );
  const out = join(root, "gjc-defences-off");
  const build = Bun.spawnSync(
    [process.execPath, "build", ...COMPILE_FLAGS, join(work, "src", "cli.ts"), "--outfile", out],
    { cwd: work, stdout: "ignore", stderr: "pipe" },
  );
  if (build.exitCode !== 0) throw new Error(`building the defences-off binary failed:\n${build.stderr.toString()}`);
  return out;
}

let ok = false;
try {
  const off = buildDefencesOff();
  const pair = (args: string[], o: Parameters<typeof timePair>[2] = {}) =>
    timePair([gjc, ...args], [off, ...args], { runs, ...o });
  const rows: { name: string; times: [Timing, Timing] }[] = [];

  rows.push({
    name: "validate small C2 bundle",
    times: await pair(["plugin", "validate", join(repoRoot, "fixtures", "examples", "notes-skills")]),
  });
  const limits = limitBundle(join(root, "limits"));
  rows.push({
    name: "validate at the C2 limits (5,000 files)",
    times: await pair(["plugin", "validate", limits], { runs: Math.max(5, Math.ceil(runs / 2)) }),
  });

  // Each install starts from an empty scope. The previous one is renamed away, not deleted, and
  // the disk flushed: an rm -rf right before would be paid by the next fsync (see sets.bench.ts).
  const big = bigToolBundle(join(root, "big"));
  const fresh = (scope: string) => [
    "sh",
    "-c",
    `if [ -d "${scope}" ]; then mv "${scope}" "${scope}.$(date +%s%N)"; fi; sync`,
  ];
  const scopeOn = join(root, "install-on");
  const scopeOff = join(root, "install-off");
  const installEnv = (scope: string) => ({ HOME: root, GJC_USER_DIR: scope, GJC_C2_DATA_DIR: join(root, "c2") });
  rows.push({
    name: "install 2,000 files / 20 MiB",
    // As many runs as the fast rows: each install waits on fsync, whose time swings with
    // write-back on this VM (13 pairs gave 1.13x in one run and 1.03x in the next).
    times: await pair(["plugin", "install", big, "--user"], {
      runs,
      cwd: root,
      env: installEnv(scopeOn),
      before: fresh(scopeOn),
      baselineOptions: { env: installEnv(scopeOff), before: fresh(scopeOff) },
    }),
  });

  const many = { env: installEnv(join(root, "verify-scope")), cwd: root };
  for (let b = 0; b < 50; b++)
    setup(gjc, ["plugin", "install", verifyBundle(join(root, "verify-src", `b${b}`), b), "--user"], many);
  rows.push({ name: "verify 50 bundles x 40 files", times: await pair(["plugin", "verify"], many) });

  const project = join(root, "project");
  mkdirSync(project);
  const session = { env: installEnv(join(root, "session-scope")), cwd: project };
  for (let b = 0; b < 100; b++)
    setup(gjc, ["plugin", "install", sessionBundle(join(root, "session-src", `b${b}`), b), "--user"], session);
  rows.push({
    name: "session start, 100 bundles / 2,000 files",
    times: await pair(["plugin", "session", "--json"], session),
  });

  ok = printTable(
    "Issue #12's defences: this build against the same source with them off (median of alternating runs)",
    rows.map(({ name, times: [on, offT] }) => ({
      name,
      oursMs: on.medianMs,
      baselineMs: offT.medianMs,
      baseline: "defences off",
      limit: 1.1,
      note: `min ${on.minMs.toFixed(1)} / ${offT.minMs.toFixed(1)} ms`,
    })),
  );
} finally {
  rmSync(root, { recursive: true, force: true });
}
process.exit(ok ? 0 : 1);
