import { copyFileSync, mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { removeAtEndOfRun } from "../../helpers/end-of-run.ts";
import { waitFor } from "../../helpers/wait.ts";
import { procTable, signalGroup } from "../../../src/process/proc-table.ts";

export const FIXTURES = join(import.meta.dir, "../../../fixtures/mcp");

let built: Promise<string> | undefined;

/**
 * The SDK fixture server bundled into one self-contained file, the way a bundle would ship
 * it (no node_modules next to it). Built once per test process into a temporary folder that
 * outlives every test's temp dir and is removed when the run ends (nothing is left in the
 * checkout). An out dir
 * given by older callers is ignored: a memoized build inside one caller's temp dir would be
 * gone for the next test file of the same process.
 */
export function sdkServerBuild(_legacyOutDir?: string): Promise<string> {
  built ??= (async () => {
    const outDir = mkdtempSync(join(tmpdir(), "gjc-mcp-fixtures-"));
    removeAtEndOfRun(outDir);
    const naming = "sdk-server.mjs";
    const result = await Bun.build({
      entrypoints: [join(FIXTURES, "sdk-server/stdio-server.ts")],
      target: "node",
      outdir: outDir,
      naming,
    });
    if (!result.success) throw new Error(result.logs.map(String).join("\n"));
    return join(outDir, naming);
  })();
  return built;
}

/** Copies fixture files into a bundle root: `{ "server.ts": "misbehaving/silent.ts" }`. */
export function bundleWith(root: string, files: Record<string, string>): string {
  for (const [rel, from] of Object.entries(files)) {
    const dest = join(root, rel);
    mkdirSync(join(dest, ".."), { recursive: true });
    copyFileSync(from.startsWith("/") ? from : join(FIXTURES, from), dest);
  }
  return root;
}

/**
 * Waits until no process of the group is left (test/helpers/wait.ts). A killed group can
 * linger for a moment as zombies until init reaps them; false when it outlived the bound.
 */
export async function waitGroupGone(pid: number, boundMs = 5000): Promise<boolean> {
  return waitFor(() => !signalGroup(pid, 0), `process group ${pid} to be gone`, boundMs).then(
    () => true,
    () => {
      // Say who is left (a zombie and its parent, or a live process), so a failure can be explained.
      const left = procTable().filter((p) => p.pgid === pid);
      console.error(
        `process group ${pid} outlived ${boundMs} ms (this test process is ${process.pid}): ${JSON.stringify(left)}`,
      );
      return false;
    },
  );
}

export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
