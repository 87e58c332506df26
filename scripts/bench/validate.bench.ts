// `gjc --version` and `gjc plugin validate` against a bare compiled program, and validate of
// a bundle at the C2 limits (5,000 files, 20 MiB) against `find | xargs sha256sum` over it.
// Targets: --version ≤1.5x; validate of a small bundle ≤2.1x hello (issue #12: no slowdown beyond
// 10 % of the 1.89x measured before the issue #11 restructuring); validate at the limits ≤1.0x.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gjcBinary, helloBinary, peakRssMiB, printTable, repoRoot, timePair } from "./_lib.ts";

const MiB = 1024 * 1024;
const gjc = await gjcBinary();
const hello = await helloBinary();
const small = join(repoRoot, "fixtures", "examples", "notes-skills");

/** A valid C2 bundle with exactly 5,000 files and just under 20 MiB, spread over 50 folders. */
function makeLimitBundle(): string {
  const root = mkdtempSync(join(tmpdir(), "gjc-bench-"));
  const dir = join(root, "bundle");
  mkdirSync(join(dir, "skills", "bench"), { recursive: true });
  writeFileSync(
    join(dir, "plugin.json"),
    JSON.stringify({ $schema: "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json", name: "bench", version: "1.0.0", extensions: { "dev.codetwo": { standardVersion: "1.2.0" } } }),
  );
  writeFileSync(join(dir, "skills", "bench", "SKILL.md"), "---\nname: bench\ndescription: Bench skill.\n---\nBody.\n");
  const dataFiles = 5000 - 2;
  const size = Math.floor((20 * MiB - 4096) / dataFiles);
  const buf = new Uint8Array(size);
  for (let i = 0; i < dataFiles; i++) {
    new DataView(buf.buffer).setUint32(0, i); // distinct contents
    const sub = join(dir, "data", `d${i % 50}`);
    if (i < 50) mkdirSync(sub, { recursive: true });
    writeFileSync(join(sub, `f${i}.bin`), buf);
  }
  return root;
}

const runs = Number(process.env.BENCH_RUNS ?? 15);
const [version, helloA] = await timePair([gjc, "--version"], [hello], { runs });
const [validateSmall, helloB] = await timePair([gjc, "plugin", "validate", small], [hello], { runs });

const root = makeLimitBundle();
const bundle = join(root, "bundle");
let ok: boolean;
try {
  const [limits, sha] = await timePair([gjc, "plugin", "validate", bundle], ["sh", "-c", `find "${bundle}" -type f -print0 | xargs -0 sha256sum > /dev/null`], { runs: Math.max(5, Math.floor(runs / 2)) });
  const rss = await peakRssMiB([gjc, "plugin", "validate", bundle]);
  const rssSmall = await peakRssMiB([gjc, "plugin", "validate", small]);
  const rssHello = await peakRssMiB([hello]);
  ok = printTable("gjc validate (median of alternating runs)", [
    { name: "gjc --version", oursMs: version.medianMs, baselineMs: helloA.medianMs, baseline: "compiled hello", limit: 1.5 },
    { name: "plugin validate (small bundle)", oursMs: validateSmall.medianMs, baselineMs: helloB.medianMs, baseline: "compiled hello", limit: 2.1, note: `peak ${rssSmall.toFixed(1)} MiB (hello ${rssHello.toFixed(1)} MiB)` },
    { name: "plugin validate (5,000 files, 20 MiB)", oursMs: limits.medianMs, baselineMs: sha.medianMs, baseline: "find|xargs sha256sum", limit: 1.0, note: `peak ${rss.toFixed(1)} MiB (target <100)` },
  ]);
  if (rss >= 100) {
    console.log(`peak memory ${rss.toFixed(1)} MiB MISSED the 100 MiB target`);
    ok = false;
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
process.exit(ok ? 0 : 1);
