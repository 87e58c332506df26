// GJC install lifecycle, side by side in one run (compiled binary):
//   install of a generated 2,000-file / 20 MiB bundle  vs  cp -r + sha256sum of the copies  (≤1.5x)
//   verify of 50 installed bundles of 40 files          vs  sha256sum -c of the same files   (≤1.0x, issue #12: within 10 % of 0.90x)
//   gjc plugin list with 50 installed bundles           vs  the bare compiled hello program   (≤2x)
// Each measured install starts from an empty scope (ours) or an empty copy target (baseline);
// both sides pay the same rm -rf.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gjcBinary, helloBinary, printTable, timePair } from "./_lib.ts";

const MiB = 1024 * 1024;
const gjc = await gjcBinary();
const hello = await helloBinary();
const runs = Number(process.env.BENCH_RUNS ?? 9);
const root = mkdtempSync(join(tmpdir(), "gjc-install-bench-"));

/** A GJC bundle whose manifest declares `files` tool modules of `bytes` each, in 50 folders. */
function bundle(dir: string, name: string, files: number, bytes: (i: number) => number): string {
  const tools = [];
  for (let i = 0; i < files; i++) {
    const rel = `tools/d${i % 50}/${name}_t${i}.ts`;
    tools.push({ name: `${name}_t${i}`, path: rel });
    mkdirSync(join(dir, "tools", `d${i % 50}`), { recursive: true });
    const body = new Uint8Array(bytes(i)).fill(0x61);
    body.set(new TextEncoder().encode(`// ${name} ${i}\n`));
    writeFileSync(join(dir, rel), body);
  }
  writeFileSync(join(dir, "gajae-plugin.json"), JSON.stringify({ kind: "gajae-code-plugin", name, version: "1.0.0", tools }));
  return dir;
}

let ok = false;
try {
  // 1. install: 1,999 declared files + the manifest, just under 20 MiB in all.
  const big = bundle(join(root, "big"), "big", 1999, () => Math.floor((20 * MiB - 256 * 1024) / 1999));
  const scope = join(root, "scope-install");
  const copy = join(root, "copy");
  const env = { HOME: root, GJC_USER_DIR: scope, GJC_C2_DATA_DIR: join(root, "c2") };
  // The previous run's output is removed and flushed before the clock starts (see sets.bench.ts:
  // install's fsync would otherwise wait for the rm -rf, on this disk with online discard).
  const [install, installBase] = await timePair(
    [gjc, "plugin", "install", big, "--user"],
    ["sh", "-c", `cp -r "${big}" "${copy}" && find "${copy}" -type f -print0 | xargs -0 sha256sum > /dev/null`],
    { runs: Math.max(5, runs), env, cwd: root, before: ["sh", "-c", `rm -rf "${scope}" && sync`], baselineOptions: { before: ["sh", "-c", `rm -rf "${copy}" && sync`] } },
  );

  // 2 and 3: 50 installed bundles of 40 files (1-16 KiB each).
  const many = join(root, "scope-many");
  const manyEnv = { HOME: root, GJC_USER_DIR: many, GJC_C2_DATA_DIR: join(root, "c2") };
  for (let b = 0; b < 50; b++) {
    const src = bundle(join(root, "src", `b${b}`), `b${b}`, 39, (i) => 1024 + ((i * 7919 + b * 104729) % (15 * 1024)));
    const p = Bun.spawnSync([gjc, "plugin", "install", src, "--user"], { env: { ...process.env, ...manyEnv }, cwd: root, stdout: "ignore", stderr: "pipe" });
    if (p.exitCode !== 0) throw new Error(`setup install failed: ${p.stderr.toString()}`);
  }
  const registry = JSON.parse(readFileSync(join(many, "registry.json"), "utf8"));
  const sums = registry.plugins.flatMap((p: { pluginRoot: string; copiedFiles: { relativePath: string; sha256: string }[] }) =>
    p.copiedFiles.map((f) => `${f.sha256}  ${join(p.pluginRoot, f.relativePath)}`),
  );
  const sumsFile = join(root, "SHA256SUMS");
  writeFileSync(sumsFile, `${sums.join("\n")}\n`);
  const [verify, verifyBase] = await timePair([gjc, "plugin", "verify"], ["sha256sum", "-c", "--quiet", sumsFile], { runs, env: manyEnv, cwd: root });
  const [list, listBase] = await timePair([gjc, "plugin", "list"], [hello], { runs, env: manyEnv, cwd: root });

  ok = printTable("GJC install lifecycle (compiled binary)", [
    { name: "install 2,000 files / 20 MiB", oursMs: install.medianMs, baselineMs: installBase.medianMs, baseline: "cp -r + sha256sum", limit: 1.5 },
    { name: `verify 50 bundles x 40 files (${sums.length} files)`, oursMs: verify.medianMs, baselineMs: verifyBase.medianMs, baseline: "sha256sum -c", limit: 1.0 },
    { name: "list with 50 bundles", oursMs: list.medianMs, baselineMs: listBase.medianMs, baseline: "hello binary", limit: 2 },
  ]);
} finally {
  rmSync(root, { recursive: true, force: true });
}
if (!ok) process.exitCode = 1;
