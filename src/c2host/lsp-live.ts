/**
 * Language servers kept running by the long-running host (`lsp.start` on the plane). Each is
 * owned by the plane: policy that makes it ineligible (its bundle disabled by policy or as a
 * whole, untrusted, uninstalled, a component disabled, a new conflict for one of its
 * languages) stops it at the next reconcile, which the store watcher runs as soon as another
 * gjc process changes the store.
 */
import { GjcError } from "../core/errors.ts";
import { eligibleServer, startLanguageServer, type LanguageServerHandle, type LspStartOptions } from "./lsp.ts";
import type { RuntimeHost } from "./runtime-host.ts";
import { ExitCode } from "../core/exit-codes.ts";

interface Live {
  id: string;
  ref: string;
  project?: string;
  handle: LanguageServerHandle;
}

export class LiveLanguageServers {
  private readonly live = new Map<string, Live>();
  /** Stops in progress: a reconcile that finds nothing new still waits for them. */
  private readonly stopping = new Set<Promise<void>>();
  private readonly unannounced: string[] = [];
  private next = 1;

  constructor(
    private readonly host: RuntimeHost,
    private readonly base: Omit<LspStartOptions, "project">,
    private readonly onChanged: () => void = () => {},
  ) {}

  async start(ref: string, project?: string) {
    const handle = await startLanguageServer(this.host, ref, { ...this.base, project });
    const id = `lsp-${this.next++}`;
    const entry: Live = { id, ref, project, handle };
    this.live.set(id, entry);
    this.onChanged();
    // A server that exits on its own leaves the table.
    void handle.exited.then(() => {
      if (this.live.get(id) === entry) {
        this.live.delete(id);
        this.onChanged();
      }
    });
    return { id, ...this.view(entry) };
  }

  private view(e: Live) {
    const h = e.handle;
    return { plugin: h.plugin, pluginName: h.pluginName, server: h.server, languages: h.languages, pid: h.pid, cwd: h.cwd, capabilities: h.initialize.capabilities, serverInfo: h.initialize.serverInfo };
  }

  private get(id: string): Live {
    const e = this.live.get(id);
    if (!e) throw new GjcError({ code: "invalid_params", message: `No live language server ${id}.`, hint: "lsp.list shows the live ones.", exit: ExitCode.usage });
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

  /** Stops every server that may no longer run; returns their ids. */
  async reconcile(): Promise<string[]> {
    const stale: Live[] = [];
    for (const e of this.live.values()) {
      try {
        eligibleServer(this.host, `${e.handle.plugin}/${e.handle.server}`, e.project);
      } catch {
        stale.push(e);
      }
    }
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
    return ids;
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
