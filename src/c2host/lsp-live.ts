/**
 * Language servers kept running by the long-running host (`lsp.start` on the plane). Each is
 * owned by the plane: policy that makes it ineligible (its bundle disabled by policy or as a
 * whole, untrusted, uninstalled, a component disabled, a new conflict for one of its
 * languages) stops it at the next reconcile, which the store watcher runs as soon as another
 * gjc process changes the store.
 */
import { GjcError, isGjcError } from "../core/errors.ts";
import { eligibleServer, startLanguageServer, type LanguageServerHandle, type LspStartOptions } from "./lsp.ts";
import type { RuntimeHost } from "./runtime-host.ts";
import { ExitCode } from "../core/exit-codes.ts";

interface Live {
  id: string;
  ref: string;
  project?: string;
  handle: LanguageServerHandle;
  /** The installed generation it runs from; a replaced bundle restarts it on the new files. */
  generation: string;
}

export class LiveLanguageServers {
  private readonly live = new Map<string, Live>();
  /** Stops in progress: a reconcile that finds nothing new still waits for them. */
  private readonly stopping = new Set<Promise<void>>();
  private readonly unannounced: string[] = [];
  private readonly unrestarted: string[] = [];
  private readonly orphans = new Map<string, Live>();
  private next = 1;

  constructor(
    private readonly host: RuntimeHost,
    private readonly base: Omit<LspStartOptions, "project">,
    private readonly onChanged: () => void = () => {},
  ) {}

  async start(ref: string, project?: string) {
    const entry = await this.launch(`lsp-${this.next++}`, ref, project);
    return { id: entry.id, ...this.view(entry) };
  }

  private async launch(id: string, ref: string, project?: string): Promise<Live> {
    const handle = await startLanguageServer(this.host, ref, { ...this.base, project });
    const entry: Live = { id, ref, project, handle, generation: this.generationOf(handle.plugin) };
    this.live.set(id, entry);
    this.onChanged();
    // A server that exits on its own leaves the table.
    void handle.exited.then(() => {
      if (this.live.get(id) === entry) {
        this.live.delete(id);
        this.onChanged();
      }
    });
    return entry;
  }

  private generationOf(bundleId: string): string {
    const b = this.host.bundles().find((x) => x.id === bundleId);
    return b ? JSON.stringify([b.revision ?? null, b.version, b.bundleDir]) : "";
  }

  private view(e: Live) {
    const h = e.handle;
    return {
      plugin: h.plugin,
      pluginName: h.pluginName,
      server: h.server,
      languages: h.languages,
      pid: h.pid,
      cwd: h.cwd,
      capabilities: h.initialize.capabilities,
      serverInfo: h.initialize.serverInfo,
    };
  }

  private get(id: string): Live {
    const e = this.live.get(id);
    if (!e)
      throw new GjcError({
        code: "invalid_params",
        message: `No live language server ${id}.`,
        hint: "lsp.list shows the live ones.",
        exit: ExitCode.usage,
      });
    return e;
  }

  request(id: string, method: string, params: unknown): Promise<unknown> {
    return this.get(id).handle.request(method, params);
  }

  async stop(id: string): Promise<void> {
    const e = this.get(id);
    this.live.delete(id);
    await e.handle.stop();
    this.onChanged();
  }

  list() {
    return [...this.live.values()].map((e) => ({ id: e.id, ...this.view(e) }));
  }

  bundles(): string[] {
    return [...new Set([...this.live.values()].map((e) => e.handle.plugin))];
  }

  /**
   * Stops every server that may no longer run, and restarts (under the same id) every one whose
   * bundle was replaced by a new install while it stays eligible, so it runs the new files.
   * Returns the ids it stopped.
   */
  async reconcile(): Promise<string[]> {
    const stale: Live[] = [];
    const replaced: Live[] = [];
    // Servers stopped by an earlier pass because their bundle was gone: back under the same
    // installed id, it was a replace seen mid-commit, and they start again on the new files;
    // still gone, it was an uninstall, and they are forgotten.
    const returning = [...this.orphans.values()];
    this.orphans.clear();
    const present = new Set(this.host.bundles().map((b) => b.id));
    for (const e of this.live.values()) {
      try {
        eligibleServer(this.host, `${e.handle.plugin}/${e.handle.server}`, e.project);
      } catch (error) {
        stale.push(e);
        if (isGjcError(error) && error.code === "not_installed") this.orphans.set(e.id, e);
        continue;
      }
      if (this.generationOf(e.handle.plugin) !== e.generation) replaced.push(e);
    }
    stale.push(...replaced);
    for (const e of stale) this.live.delete(e.id);
    const ids = stale.map((e) => `${e.id}:${e.handle.plugin}/${e.handle.server}`);
    this.unannounced.push(...ids);
    const stops = Promise.all(stale.map((e) => e.handle.stop())).then(() => {});
    this.stopping.add(stops);
    try {
      await Promise.all([...this.stopping]);
    } finally {
      this.stopping.delete(stops);
    }
    if (stale.length > 0) this.onChanged();
    for (const e of [...replaced, ...returning.filter((o) => present.has(o.handle.plugin))]) {
      try {
        await this.launch(e.id, e.ref, e.project);
        this.unrestarted.push(`${e.id}:${e.handle.plugin}/${e.handle.server}`);
      } catch {
        // The new files do not start: it stays stopped, as listed.
      }
    }
    return ids;
  }

  /** The servers reconcile restarted on a replaced bundle's new files since the last call. */
  takeRestarted(): string[] {
    return this.unrestarted.splice(0);
  }

  /** The servers reconcile stopped since the last call (the change notification lists them). */
  takeStopped(): string[] {
    return this.unannounced.splice(0);
  }

  async shutdown(): Promise<void> {
    const all = [...this.live.values()];
    this.live.clear();
    await Promise.all(all.map((e) => e.handle.stop()));
  }
}
