/**
 * Which bundles have live processes in a long-running gjc host, visible to other gjc
 * processes: each `gjc host --stdio` keeps `<c2 data>/live/<pid>.json` (its pid, start time
 * and the installed ids with a runtime instance or a language server) up to date, and removes
 * it when it stops. `gjc plugin uninstall` reads it so it never deletes a bundle's files under
 * a live process: it refuses and says which host holds it (disabling or untrusting the bundle
 * reaches the host live and stops them; then uninstall goes through). A file whose process is
 * gone, or whose pid was reused (different start time), is stale and ignored.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { Static } from "typebox";
import { writeFileAtomic } from "../bundle/atomic-fs.ts";
import { GjcError } from "../core/errors.ts";
import { ExitCode } from "../core/exit-codes.ts";
import { LiveFile as LiveFileCheck } from "./disk-schemas.generated.ts";
import { ownStartTicks, processAlive, processStartTicks } from "../process/process-identity.ts";
import type { LiveFileSchema } from "./live-file-schema.ts";

type LiveFile = Static<typeof LiveFileSchema>;

const liveDir = (dataRoot: string) => join(dataRoot, "live");

export class LiveRegistry {
  private last = "";
  constructor(private readonly dataRoot: string) {
    // Files of hosts that were killed (no clean shutdown) are stale: remove them once.
    for (const { path, alive } of liveFiles(dataRoot)) if (!alive) rmSync(path, { force: true });
  }

  private get path(): string {
    return join(liveDir(this.dataRoot), `${process.pid}.json`);
  }

  /** Records the bundles this process has live; nothing is written when they did not change. */
  update(bundles: readonly string[]): void {
    const key = [...bundles].sort().join(",");
    if (key === this.last) return;
    this.last = key;
    if (bundles.length === 0) {
      rmSync(this.path, { force: true });
      return;
    }
    mkdirSync(liveDir(this.dataRoot), { recursive: true, mode: 0o700 });
    const doc: LiveFile = { pid: process.pid, startTicks: ownStartTicks() ?? null, bundles: [...bundles].sort() };
    writeFileAtomic(this.path, `${JSON.stringify(doc)}\n`, { mode: 0o600, durable: false });
  }

  clear(): void {
    this.last = "";
    rmSync(this.path, { force: true });
  }
}

/** Every live file with whether its process still runs (a reused pid counts as gone). */
function liveFiles(dataRoot: string): { path: string; doc: LiveFile; alive: boolean }[] {
  let names: string[];
  try {
    names = readdirSync(liveDir(dataRoot));
  } catch {
    return [];
  }
  const out: { path: string; doc: LiveFile; alive: boolean }[] = [];
  for (const name of names) {
    if (!name.endsWith(".json")) continue;
    const path = join(liveDir(dataRoot), name);
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(path, "utf8"));
    } catch {
      continue;
    }
    if (!LiveFileCheck.check(parsed)) continue;
    const doc = parsed as LiveFile;
    const ticks = processAlive(doc.pid) ? processStartTicks(doc.pid) : undefined;
    const alive = processAlive(doc.pid) && !(doc.startTicks && ticks && ticks !== doc.startTicks);
    out.push({ path, doc, alive });
  }
  return out;
}

/** Other live gjc processes that hold `bundleId`, as pids. */
export function liveHolders(dataRoot: string, bundleId: string): number[] {
  const holders: number[] = [];
  for (const { doc, alive } of liveFiles(dataRoot)) {
    if (!alive || doc.pid === process.pid || !doc.bundles.includes(bundleId)) continue;
    holders.push(doc.pid);
  }
  return holders;
}

/**
 * Refuses to go on while another gjc host runs a process of the bundle: uninstall would remove
 * its files, an upgrade or `install --force` would replace them, under the running process.
 */
export function assertNotLive(dataRoot: string, bundleId: string, name: string, change: "uninstall" | "replace" = "uninstall"): void {
  const holders = liveHolders(dataRoot, bundleId);
  if (holders.length === 0) return;
  throw new GjcError({
    code: "bundle_in_use",
    message: `${name} has live processes in a running gjc host (pid ${holders.join(", ")}), so its files were not ${change === "uninstall" ? "removed" : "replaced"}.`,
    hint: `Run "gjc plugin disable ${name}" (or untrust it): the host stops them at once; then ${change === "uninstall" ? "uninstall" : "upgrade"} again${change === "uninstall" ? "" : ` and enable it (gjc plugin enable ${name})`}.`,
    details: { hosts: holders },
    exit: ExitCode.refused,
  });
}
