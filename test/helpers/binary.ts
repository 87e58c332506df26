import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { COMPILE_FLAGS } from "../../scripts/compile-flags.ts";
import { processAlive } from "../../src/process/process-identity.ts";
import { repoRoot } from "./cli.ts";
import { removeAtEndOfRun } from "./end-of-run.ts";

let building: Promise<string> | undefined;

const RUN_DIR_PREFIX = "gjc-binary-run-";

/**
 * The compiled gjc binary for `*.compiled.test.ts` files: `GJC_BINARY` when CI built it
 * already, otherwise compiled once per run into a temporary folder (tests leave nothing in the
 * checkout).
 *
 * A serial `bun test` is one process: the binary is built once and removed when the run ends.
 * Under `bun test --parallel` every file starts with fresh modules in one of several workers,
 * and nothing runs when the whole run ends; the workers share their coordinator (their parent),
 * so the binary is built once per coordinator, in a folder named after it, and a later run
 * removes the folders of coordinators that are gone.
 */
export function compiledBinary(): Promise<string> {
  const given = process.env.GJC_BINARY;
  if (given) {
    if (!existsSync(given)) throw new Error(`GJC_BINARY=${given} does not exist`);
    return Promise.resolve(given);
  }
  building ??= process.env.BUN_TEST_WORKER_ID === undefined ? buildForThisProcess() : buildForThisRun();
  return building;
}

async function buildForThisProcess(): Promise<string> {
  const outDir = mkdtempSync(join(tmpdir(), "gjc-binary-"));
  removeAtEndOfRun(outDir);
  const outfile = join(outDir, "gjc");
  await compileTo(outfile);
  return outfile;
}

async function buildForThisRun(): Promise<string> {
  removeFinishedRuns();
  const runDir = join(tmpdir(), `${RUN_DIR_PREFIX}${process.ppid}`);
  const outfile = join(runDir, "gjc");
  if (existsSync(outfile)) return outfile;
  mkdirSync(runDir, { recursive: true });
  // Two workers may build at once: each writes its own file and renames it into place, so a
  // reader only ever sees a complete binary.
  const mine = join(runDir, `gjc.${process.pid}`);
  await compileTo(mine);
  renameSync(mine, outfile);
  return outfile;
}

function removeFinishedRuns(): void {
  for (const name of readdirSync(tmpdir())) {
    if (!name.startsWith(RUN_DIR_PREFIX)) continue;
    const pid = Number(name.slice(RUN_DIR_PREFIX.length));
    if (pid === process.ppid || !Number.isInteger(pid) || processAlive(pid)) continue;
    rmSync(join(tmpdir(), name), { recursive: true, force: true });
  }
}

async function compileTo(outfile: string): Promise<void> {
  const proc = Bun.spawn(
    [process.execPath, "build", ...COMPILE_FLAGS, join(repoRoot, "src", "cli.ts"), "--outfile", outfile],
    { cwd: repoRoot, stdout: "pipe", stderr: "pipe" },
  );
  const [code, err] = await Promise.all([proc.exited, new Response(proc.stderr).text()]);
  if (code !== 0) throw new Error(`bun build --compile failed:\n${err}`);
}
