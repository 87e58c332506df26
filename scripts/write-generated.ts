import { readFileSync, writeFileSync } from "node:fs";

/**
 * The tail every generator shares: write the generated module when it changed, or with
 * `--check` only compare and exit 1 when the committed file is stale (tests and CI use it).
 */
export function writeGenerated(target: string, source: string, o: { label: string; regenerate: string }): void {
  let current = "";
  try {
    current = readFileSync(target, "utf8");
  } catch {}
  if (current === source) {
    console.error(`${o.label} up to date`);
    return;
  }
  if (process.argv.includes("--check")) {
    console.error(`${o.label} is stale: run ${o.regenerate}`);
    process.exit(1);
  }
  writeFileSync(target, source);
  console.error(`wrote ${target}`);
}
