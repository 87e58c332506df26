import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { COMPILE_FLAGS } from "../../scripts/compile-flags.ts";
import { repoRoot } from "./cli.ts";
import { removeAtEndOfRun } from "./end-of-run.ts";

let building: Promise<string> | undefined;

/**
 * The compiled gjc binary for `*.compiled.test.ts` files: `GJC_BINARY` when CI built it
 * already, otherwise compiled once per test process into a temporary folder removed when the
 * run ends (tests leave nothing in the checkout).
 */
export function compiledBinary(): Promise<string> {
  const given = process.env.GJC_BINARY;
  if (given) {
    if (!existsSync(given)) throw new Error(`GJC_BINARY=${given} does not exist`);
    return Promise.resolve(given);
  }
  building ??= (async () => {
    const outDir = mkdtempSync(join(tmpdir(), "gjc-binary-"));
    removeAtEndOfRun(outDir);
    const outfile = join(outDir, "gjc");
    const proc = Bun.spawn(
      [process.execPath, "build", ...COMPILE_FLAGS, join(repoRoot, "src", "cli.ts"), "--outfile", outfile],
      {
        cwd: repoRoot,
        stdout: "pipe",
        stderr: "pipe",
      },
    );
    const [code, err] = await Promise.all([proc.exited, new Response(proc.stderr).text()]);
    if (code !== 0) throw new Error(`bun build --compile failed:\n${err}`);
    return outfile;
  })();
  return building;
}
