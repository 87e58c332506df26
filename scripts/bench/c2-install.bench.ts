// C2 install of a bundle at the limits (5,000 files, 20 MiB) against `cp -r` + `sha256sum`
// (target ≤1.5x), and `gjc plugin policy catalog` with 50 installed bundles against a bare
// compiled program (target ≤2x). Each measured run starts from an empty C2 data directory
// (ours) or an empty copy target (baseline); both sides pay the same `rm -rf`.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gjcBinary, helloBinary, printTable, timePair } from "./_lib.ts";

const MiB = 1024 * 1024;
const SCHEMA = "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json";
const gjc = await gjcBinary();
const hello = await helloBinary();
const runs = Number(process.env.BENCH_RUNS ?? 9);
const root = mkdtempSync(join(tmpdir(), "gjc-c2-install-bench-"));

function writeManifest(dir: string, name: string, withRuntime: boolean): void {
  mkdirSync(join(dir, "skills", "main"), { recursive: true });
  const codetwo: Record<string, unknown> = { standardVersion: "1.2.0" };
  if (withRuntime) {
    const command = `${name.replace(/[^a-z0-9]/g, "")}.run`;
    codetwo.commands = [{ id: command, title: "Run" }];
    codetwo.runtime = { command: "node", args: ["plugin.js"], scopeSupport: ["user", "project"] };
    codetwo.ui = [{ id: "go", slot: "composer.toolbar", label: "Go", command }];
    writeFileSync(join(dir, "plugin.js"), "process.exit(0);\n");
  }
  writeFileSync(
    join(dir, "plugin.json"),
    JSON.stringify({ $schema: SCHEMA, name, version: "1.0.0", extensions: { "dev.codetwo": codetwo } }),
  );
  writeFileSync(join(dir, "skills", "main", "SKILL.md"), `---\nname: main\ndescription: ${name} skill.\n---\nBody.\n`);
}

/** Exactly 5,000 files and just under 20 MiB, spread over 50 folders. */
function limitBundle(): string {
  const dir = join(root, "limit");
  writeManifest(dir, "limit", false);
  const dataFiles = 5000 - 2;
  const buf = new Uint8Array(Math.floor((20 * MiB - 4096) / dataFiles));
  for (let i = 0; i < dataFiles; i++) {
    new DataView(buf.buffer).setUint32(0, i);
    const sub = join(dir, "data", `d${i % 50}`);
    if (i < 50) mkdirSync(sub, { recursive: true });
    writeFileSync(join(sub, `f${i}.bin`), buf);
  }
  return dir;
}

let ok = false;
try {
  const bundle = limitBundle();
  const data = join(root, "data-install");
  const copy = join(root, "copy");
  // The previous run's output is removed and flushed before the clock starts (see sets.bench.ts):
  // timed, the rm -rf and its discards landed on whichever side ran next (0.43x in one run).
  const [install, baseline] = await timePair(
    [gjc, "plugin", "install", bundle],
    ["sh", "-c", `cp -r "${bundle}" "${copy}" && find "${copy}" -type f -print0 | xargs -0 sha256sum > /dev/null`],
    {
      runs: Math.max(5, runs),
      env: { GJC_C2_DATA_DIR: data, HOME: root },
      before: ["sh", "-c", `rm -rf "${data}" && sync`],
      baselineOptions: { before: ["sh", "-c", `rm -rf "${copy}" && sync`] },
    },
  );

  // 50 installed bundles for the catalog, half of them with a runtime (installed untrusted, default policy).
  const catalogData = join(root, "data-catalog");
  const env = { GJC_C2_DATA_DIR: catalogData, HOME: root };
  for (let i = 0; i < 50; i++) {
    const dir = join(root, "many", `b${i}`);
    writeManifest(dir, `bundle-${i}`, i % 2 === 0);
    const p = Bun.spawnSync([gjc, "plugin", "install", dir], {
      env: { ...process.env, ...env },
      stdout: "ignore",
      stderr: "pipe",
    });
    if (p.exitCode !== 0) throw new Error(`install of ${dir} failed: ${p.stderr}`);
  }
  const [catalog, helloRun] = await timePair([gjc, "plugin", "policy", "catalog"], [hello], {
    runs: Math.max(15, runs),
    env,
  });
  const [catalogJson] = await timePair([gjc, "plugin", "policy", "catalog", "--json"], [hello], {
    runs: Math.max(15, runs),
    env,
  });

  ok = printTable("C2 install and policy catalog (median of alternating runs)", [
    {
      name: "plugin install (5,000 files, 20 MiB)",
      oursMs: install.medianMs,
      baselineMs: baseline.medianMs,
      baseline: "cp -r + sha256sum",
      limit: 1.5,
    },
    {
      name: "plugin policy catalog (50 bundles)",
      oursMs: catalog.medianMs,
      baselineMs: helloRun.medianMs,
      baseline: "compiled hello",
      limit: 2,
    },
    {
      name: "plugin policy catalog --json (50 bundles)",
      oursMs: catalogJson.medianMs,
      baselineMs: helloRun.medianMs,
      baseline: "compiled hello",
      limit: 2,
    },
  ]);
} finally {
  rmSync(root, { recursive: true, force: true });
}
process.exit(ok ? 0 : 1);
