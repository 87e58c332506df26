import { rmSync } from "node:fs";

/**
 * Paths shared by every test file of one `bun test` process (the compiled binary, built once)
 * and removed when the whole run ends. Bun's test runner does not emit process "exit", so the
 * preload (test/preload.ts) calls `removeEndOfRunPaths` from a global afterAll.
 */
const paths = new Set<string>();

export function removeAtEndOfRun(path: string): void {
  paths.add(path);
}

export function removeEndOfRunPaths(): void {
  for (const path of paths) rmSync(path, { recursive: true, force: true });
  paths.clear();
}
