import { join } from "node:path";
import { publicHostCommands, type HostCommand } from "../../../src/c2host/host-commands.ts";
import { RuntimeInstance, type InstanceBindings, type RuntimeSpec } from "../../../src/c2host/runtime-instance.ts";
import { writeRuntimeBundle, type BundleOptions } from "./_bundle.ts";

export interface Recorded {
  logs: { plugin: string; level: string; message: string }[];
  events: { bundleId: string; name: string; payload: unknown }[];
  connectorEvents: { bundleId: string; event: unknown }[];
}

/** A runtime instance over a freshly written bundle, with every host callback recorded. */
export function makeInstance(
  root: string,
  options: BundleOptions & {
    projectPath?: string;
    config?: unknown;
    extraHostCommands?: Record<string, HostCommand>;
    binding?: Partial<InstanceBindings>;
  } = {},
): { instance: RuntimeInstance; recorded: Recorded; spec: RuntimeSpec } {
  const bundle = writeRuntimeBundle(join(root, "bundle"), options);
  const recorded: Recorded = { logs: [], events: [], connectorEvents: [] };
  const hostCommands = publicHostCommands({
    env: process.env,
    listPlugins: async () => [{ id: "demo-runtime-1", name: "demo-runtime" }],
  });
  for (const [k, v] of Object.entries(options.extraHostCommands ?? {})) hostCommands.set(k, v);
  const spec: RuntimeSpec = {
    bundleId: "demo-runtime-1",
    name: bundle.manifest.name,
    version: bundle.manifest.version,
    bundleDir: bundle.dir,
    dataDir: join(root, "data", options.projectPath ? "project" : "user"),
    manifest: bundle.manifest,
    config: options.config ?? null,
    projectPath: options.projectPath,
    visibleCommands: [...hostCommands.keys()],
  };
  const bindings: InstanceBindings = {
    env: process.env,
    hostCommands,
    log: (plugin, level, message) => recorded.logs.push({ plugin, level, message }),
    onEvent: (bundleId, name, payload) => recorded.events.push({ bundleId, name, payload }),
    onConnectorEvent: (bundleId, event) => recorded.connectorEvents.push({ bundleId, event }),
    termGraceMs: 50,
    ...options.binding,
  };
  return { instance: new RuntimeInstance(spec, bindings), recorded, spec };
}
