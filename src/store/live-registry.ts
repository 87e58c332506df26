/**
 * Which bundles have live processes in a long-running gjc host, visible to other gjc
 * processes: each `gjc host --stdio` keeps `<c2 data>/live/<pid>.json` (its pid, start time
 * and the installed ids with a runtime instance or a language server) up to date, and removes
 * it when it stops. `gjc plugin uninstall`, `upgrade` and `install --force` read it to say which
 * host will stop the bundle's processes. A file whose process is gone, or whose pid was reused
 * (different start time), is stale and ignored.
 */
import { mkdirSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { Static } from "typebox";
import { writeFileAtomic } from "../bundle/atomic-fs.ts";
import type { Diagnostic } from "../core/diagnostics.ts";
import { GjcError } from "../core/errors.ts";
import { ExitCode } from "../core/exit-codes.ts";
import { LiveFile as LiveFileCheck } from "./disk-schemas.generated.ts";
import { ownStartTicks, processAlive, processStartTicks } from "../process/process-identity.ts";
import type { LiveFileSchema } from "./live-file-schema.ts";
import { parseStateJson, readStateText } from "../store/state-file.ts";

type LiveFile = Static<typeof LiveFileSchema>;
/** A runtime whose process failed in a host, in one realm, with the refusal's code and message. */
export type LiveFailure = NonNullable<LiveFile["failed"]>[number];

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

  /** Records the bundles this process has live and its failed runtimes; nothing is written when they did not change. */
  update(bundles: readonly string[], failed: readonly LiveFailure[] = []): void {
    const sorted = [...bundles].sort();
    const key = JSON.stringify([sorted, failed]);
    if (key === this.last) return;
    this.last = key;
    if (bundles.length === 0 && failed.length === 0) {
      rmSync(this.path, { force: true });
      return;
    }
    mkdirSync(liveDir(this.dataRoot), { recursive: true, mode: 0o700 });
    const doc: LiveFile = {
      pid: process.pid,
      startTicks: ownStartTicks() ?? null,
      bundles: sorted,
      ...(failed.length > 0 ? { failed: [...failed] } : {}),
    };
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
      const read = readStateText(path, { maxBytes: 64 * 1024 });
      const json = read.kind === "text" ? parseStateJson(read.text) : undefined;
      if (!json?.ok) continue;
      parsed = json.value;
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

/** Runtimes of `bundleId` that failed in other live gjc hosts (list and inspect show them). */
export function liveFailures(dataRoot: string, bundleId: string): ({ host: number } & Omit<LiveFailure, "bundle">)[] {
  const out: ({ host: number } & Omit<LiveFailure, "bundle">)[] = [];
  for (const { doc, alive } of liveFiles(dataRoot)) {
    if (!alive || doc.pid === process.pid) continue;
    for (const f of doc.failed ?? [])
      if (f.bundle === bundleId) out.push({ host: doc.pid, realm: f.realm, code: f.code, message: f.message });
  }
  return out;
}

/**
 * What a change does to another gjc host that runs a process of the bundle. The standard has
 * replacing or uninstalling a bundle terminate its live language servers and runtimes, so the
 * change goes through; that host sees it through its store watch and stops them at once (after
 * a replace its language servers start again on the new files, its runtimes on their next
 * call). The command says so with this notice.
 */
export function liveProcessesNotice(
  dataRoot: string,
  bundleId: string,
  name: string,
  change: "uninstall" | "replace",
): Diagnostic | undefined {
  const holders = liveHolders(dataRoot, bundleId);
  if (holders.length === 0) return undefined;
  const after =
    change === "uninstall"
      ? "stops them"
      : "stops them and runs the new files (language servers at once, runtimes on their next call)";
  return {
    code: "bundle_in_use",
    severity: "warning",
    path: bundleId,
    message: `${name} has live processes in a running gjc host (pid ${holders.join(", ")}); that host ${after}.`,
  };
}
