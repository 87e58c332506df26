// Author tooling, side by side in one run:
//  1. `gjc plugin test` of a scaffolded C2 bun bundle (compiled binary) vs spawning its
//     runtime until the first stdout line (a bare start of the same script);
//  2. `gjc plugin pack` of a 2,000-file bundle vs `tar czf` of the same folder.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gjcBinary, printTable, timePair } from "./_lib.ts";

const runs = Number(process.env.BENCH_RUNS ?? 10);
const work = mkdtempSync(join(tmpdir(), "gjc-bench-authoring-"));
try {
  const gjc = await gjcBinary();
  const scaffold = Bun.spawnSync([gjc, "plugin", "init", join(work, "demo"), "--family", "c2", "--runtime", "bun"]);
  if (scaffold.exitCode !== 0) throw new Error(scaffold.stderr.toString());
  // The baseline runtime start: the same script answering one initialize line, then exiting.
  const firstLine = join(work, "first-line.sh");
  writeFileSync(
    firstLine,
    `echo '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}' | ${process.execPath} ${join(work, "demo", "plugin.cjs")} | head -n 1 >/dev/null\n`,
  );
  const [test, spawn] = await timePair([gjc, "plugin", "test", join(work, "demo")], ["sh", firstLine], { runs });

  const big = join(work, "big");
  mkdirSync(join(big, "skills", "notes"), { recursive: true });
  writeFileSync(
    join(big, "plugin.json"),
    JSON.stringify({
      $schema: "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json",
      name: "big",
      version: "1.0.0",
      extensions: { "dev.codetwo": { standardVersion: "1.2.0" } },
    }),
  );
  writeFileSync(join(big, "skills", "notes", "SKILL.md"), "---\nname: notes\ndescription: Notes.\n---\n\nBody.\n");
  for (let d = 0; d < 40; d++) {
    mkdirSync(join(big, "data", `d${d}`), { recursive: true });
    for (let f = 0; f < 50; f++)
      writeFileSync(join(big, "data", `d${d}`, `f${f}.txt`), `file ${d}/${f}\n`.repeat(40 + ((d * 50 + f) % 200)));
  }
  const [pack, tar] = await timePair(
    [gjc, "plugin", "pack", big, "-o", join(work, "big.tgz")],
    ["tar", "czf", join(work, "big-tar.tgz"), "-C", big, "."],
    { runs },
  );

  printTable("authoring (compiled binary)", [
    {
      name: "plugin test (C2 bun scaffold)",
      oursMs: test.medianMs,
      baselineMs: spawn.medianMs,
      baseline: "runtime spawn to first line",
    },
    { name: "plugin pack (2,002 files)", oursMs: pack.medianMs, baselineMs: tar.medianMs, baseline: "tar czf" },
  ]);
} finally {
  rmSync(work, { recursive: true, force: true });
}
