import { createCliHost } from "../../c2host/cli-host.ts";
import { serveManagementPlane } from "../../c2host/management-plane.ts";
import { usageError } from "../../core/errors.ts";
import { defineVerb, jsonArg } from "../define-verb.ts";

export default defineVerb({
  name: "host",
  description: "Serve the C2 management plane as newline-delimited JSON-RPC on stdin/stdout",
  schema: "gjc/host@1",
  args: {
    stdio: { type: "boolean", description: "Use stdin/stdout (the only transport)" },
    "idle-ms": { type: "string", description: "Reap idle project realms after this many milliseconds (default 300000)", valueHint: "ms" },
    ...jsonArg,
  },
  examples: ["gjc host --stdio"],
  async run({ args, ctx }) {
    if (!args.stdio) throw usageError("gjc host needs a transport.", "Run gjc host --stdio.", "missing_argument");
    let idle: number | undefined;
    if (args["idle-ms"] !== undefined) {
      idle = Number(args["idle-ms"]);
      if (!Number.isInteger(idle) || idle < 1) throw usageError(`--idle-ms must be a positive integer, not "${args["idle-ms"]}".`, undefined, "invalid_option_value");
    }
    const write = (line: string) => void process.stdout.write(`${line}\n`);
    const host = await createCliHost(ctx, {
      projectIdleMs: idle,
      onConnectorEvent: (pluginId, event) => write(JSON.stringify({ jsonrpc: "2.0", method: "plugins.connector_event", params: { plugin_id: pluginId, event } })),
      onEvent: (pluginId, name, payload) => write(JSON.stringify({ jsonrpc: "2.0", method: "plugins.event", params: { plugin_id: pluginId, name, payload } })),
    });
    const { c2StoreHooks } = await import("../../c2store/hooks.ts");
    // Policy applied or a bundle uninstalled through this plane reaches the live processes.
    const beforeUninstall = async (_: unknown, installed: { id: string }) => void (await host.unloadBundle(installed.id));
    const settle = async (_: unknown, req: { installed: { id: string } }) => void (await host.unloadBundle(req.installed.id));
    const activeResources = (_: unknown, installed: { id: string }) =>
      host.processes().filter((p) => p.plugin === installed.id && p.phase === "running").map((p) => ({ plugin: installed.id, kind: "process" as const, id: `${p.plugin}@${p.realm}`, label: `${installed.id} runtime (${p.realm})` }));
    c2StoreHooks.beforeUninstall.push(beforeUninstall);
    c2StoreHooks.settle.push(settle);
    c2StoreHooks.activeResources.push(activeResources);
    const stop = new AbortController();
    const onSignal = () => stop.abort();
    process.once("SIGTERM", onSignal);
    process.once("SIGINT", onSignal);
    try {
      const { served } = await serveManagementPlane({ ctx, host, input: Bun.stdin.stream(), write, signal: stop.signal });
      return { json: { schema: "gjc/host@1", ok: true, served }, human: "" };
    } finally {
      process.off("SIGTERM", onSignal);
      process.off("SIGINT", onSignal);
      c2StoreHooks.beforeUninstall.splice(c2StoreHooks.beforeUninstall.indexOf(beforeUninstall), 1);
      c2StoreHooks.settle.splice(c2StoreHooks.settle.indexOf(settle), 1);
      c2StoreHooks.activeResources.splice(c2StoreHooks.activeResources.indexOf(activeResources), 1);
    }
  },
});
