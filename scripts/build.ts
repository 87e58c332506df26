// Compiles src/cli.ts into one self-contained executable at dist/gjc.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { COMPILE_FLAGS } from "./compile-flags.ts";

const root = join(import.meta.dir, "..");
mkdirSync(join(root, "dist"), { recursive: true });
const outfile = join(root, "dist", process.platform === "win32" ? "gjc.exe" : "gjc");
const proc = Bun.spawnSync(
  [process.execPath, "build", ...COMPILE_FLAGS, join(root, "src", "cli.ts"), "--outfile", outfile],
  {
    cwd: root,
    stdout: "inherit",
    stderr: "inherit",
  },
);
if (proc.exitCode !== 0) process.exit(proc.exitCode ?? 1);
console.error(`built ${outfile}`);
