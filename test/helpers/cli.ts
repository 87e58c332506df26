import { join } from "node:path";

export const repoRoot = join(import.meta.dir, "..", "..");
export const cliEntry = join(repoRoot, "src", "cli.ts");
export const fixturesDir = join(repoRoot, "fixtures");

export interface CliResult {
  exitCode: number;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON (throws if it is not one document). */
  json<T = any>(): T;
}

export interface CliOptions {
  cwd?: string;
  env?: Record<string, string | undefined>;
  /** Run this binary instead of `bun src/cli.ts` (the compiled smoke test). */
  binary?: string;
  stdin?: string;
  /** An argv prefix the CLI runs under (e.g. a read-only mount namespace, test/helpers/read-only.ts). */
  wrap?: string[];
}

/** Spawns the real CLI as a child process and waits for it to finish. */
export async function runCli(args: string[], options: CliOptions = {}): Promise<CliResult> {
  const cmd = [...(options.wrap ?? []), ...(options.binary ? [options.binary, ...args] : [process.execPath, cliEntry, ...args])];
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...process.env, NO_COLOR: "1", ...options.env })) if (v !== undefined) env[k] = v;
  const proc = Bun.spawn(cmd, {
    cwd: options.cwd ?? repoRoot,
    env,
    stdin: options.stdin !== undefined ? new TextEncoder().encode(options.stdin) : "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, exitCode] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return {
    exitCode,
    stdout,
    stderr,
    json() {
      try {
        return JSON.parse(stdout);
      } catch {
        throw new Error(`stdout is not JSON (exit ${exitCode}):\n${stdout}\n--- stderr ---\n${stderr}`);
      }
    },
  };
}
