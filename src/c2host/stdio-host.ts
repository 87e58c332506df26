/**
 * `gjc host --stdio` as one core function: the runtime host, the language servers it keeps,
 * the live-process registry other gjc processes read, the store hooks for changes made through
 * this plane, and the store watch that makes changes by any other gjc process live.
 */
import { statSync } from "node:fs";
import { join } from "node:path";
import type { Context } from "../core/context.ts";
import { c2DataDir } from "../core/context.ts";
import { onSandboxNotice } from "../process/sandbox/notices.ts";
import { createCliHost } from "./cli-host.ts";
import type { ResourceSelection } from "../c2store/hooks.ts";
import { C2_LOCK_FILE } from "../c2store/paths.ts";
import { lockHeld } from "../store/lock.ts";
import { LiveRegistry } from "../store/live-registry.ts";
import { LiveLanguageServers } from "./lsp-live.ts";
import { serveManagementPlane, type ManagementPlaneOptions } from "./management-plane.ts";

export interface StdioHostOptions {
  idleMs?: number;
  input: ReadableStream<Uint8Array>;
  write(line: string): void;
  signal?: AbortSignal;
  /** The management plane's policy use cases (ManagementPlaneOptions.policyCommands). */
  policyCommands: ManagementPlaneOptions["policyCommands"];
}

export async function runStdioHost(ctx: Context, o: StdioHostOptions): Promise<{ served: number }> {
  const write = o.write;
  const idle = o.idleMs;
  const dataRoot = c2DataDir(ctx);
  const registry = new LiveRegistry(dataRoot);
  // Other gjc processes (uninstall) read which bundles have live processes here.
  let lsp: LiveLanguageServers | undefined;
  const liveChanged = () => {
    try {
      registry.update([...new Set([...host.liveBundles(), ...(lsp?.bundles() ?? [])])], host.failures());
    } catch (e) {
      ctx.log.warn(`live registry: ${(e as Error).message}`);
    }
  };
  const host = await createCliHost(ctx, {
    projectIdleMs: idle,
    onConnectorEvent: (pluginId, event) =>
      write(
        JSON.stringify({ jsonrpc: "2.0", method: "plugins.connector_event", params: { plugin_id: pluginId, event } }),
      ),
    onEvent: (pluginId, name, payload) =>
      write(
        JSON.stringify({ jsonrpc: "2.0", method: "plugins.event", params: { plugin_id: pluginId, name, payload } }),
      ),
    onInstancesChanged: liveChanged,
  });
  lsp = new LiveLanguageServers(host, { cwd: ctx.cwd, env: ctx.env }, liveChanged);
  const liveLsp = lsp;
  const { storeRevisions } = await import("../c2store/policy-catalog.ts");
  const stamp = (f: string) => {
    const st = statSync(join(dataRoot, f), { throwIfNoEntry: false });
    return st ? `${st.ino}:${st.mtimeMs}:${st.size}` : "-";
  };
  const revision = () => {
    const r = storeRevisions(ctx);
    // The index stamp also catches what the graph revision leaves out (quarantine by verify).
    return {
      key: `${r.configRevision}|${r.graphRevision}|${r.recovery}|${stamp("installed-index.json")}|${stamp("plugin-config.json")}`,
      configRevision: r.configRevision,
      graphRevision: r.graphRevision,
    };
  };
  const { c2StoreHooks } = await import("../c2store/hooks.ts");
  // Policy applied or a bundle uninstalled through this plane reaches the live processes.
  const beforeUninstall = async (_: unknown, installed: { id: string }) => {
    await host.unloadBundle(installed.id);
    for (const s of liveLsp.list()) if (s.plugin === installed.id) await liveLsp.stop(s.id);
  };
  // Only what the written policy no longer allows stops (a project change: that project's realm).
  const settle = async () => {
    await host.reconcile();
    await liveLsp.reconcile();
  };
  // What a disable planned through this plane would stop: running runtimes and live language servers.
  const activeResources = (
    _: unknown,
    installed: { id: string },
    projectPath: string | undefined,
    which: ResourceSelection,
  ) => [
    // A user-scope change reaches every realm that inherits it; a project change only that project's.
    ...host
      .processes()
      .filter(
        (p) =>
          p.plugin === installed.id &&
          p.phase === "running" &&
          (projectPath === undefined || p.realm === `project ${projectPath}`),
      )
      .map((p) => ({
        plugin: installed.id,
        kind: "process" as const,
        id: `${p.plugin}@${p.realm}`,
        label: `${installed.id} runtime (${p.realm})`,
      })),
    ...(which === "runtime" ? [] : liveLsp.list())
      .filter((l) => l.plugin === installed.id)
      .map((l) => ({
        plugin: installed.id,
        kind: "process" as const,
        id: `${l.plugin}/${l.server}@${l.id}`,
        label: `${installed.id} language server ${l.server} (${l.cwd})`,
      })),
  ];
  c2StoreHooks.beforeUninstall.push(beforeUninstall);
  c2StoreHooks.settle.push(settle);
  c2StoreHooks.activeResources.push(activeResources);
  // What the sandbox says about the processes this plane runs (a refused connection with the
  // grant that would allow it, a sandbox that cannot be enforced here) reaches the client.
  const stopNotices = onSandboxNotice((n) =>
    write(
      JSON.stringify({
        jsonrpc: "2.0",
        method: "plugins.sandbox_notice",
        params: { code: n.code, message: n.message, hint: n.hint },
      }),
    ),
  );
  try {
    const busy = () => lockHeld(dataRoot, C2_LOCK_FILE);
    return await serveManagementPlane({
      ctx,
      host,
      input: o.input,
      write,
      signal: o.signal,
      lsp: liveLsp,
      watch: { root: dataRoot, revision, busy },
      policyCommands: o.policyCommands,
    });
  } finally {
    stopNotices();
    registry.clear();
    c2StoreHooks.beforeUninstall.splice(c2StoreHooks.beforeUninstall.indexOf(beforeUninstall), 1);
    c2StoreHooks.settle.splice(c2StoreHooks.settle.indexOf(settle), 1);
    c2StoreHooks.activeResources.splice(c2StoreHooks.activeResources.indexOf(activeResources), 1);
  }
}
