import { ExitCode } from "../core/exit-codes.ts";
import { capabilityFor, operationIsWellFormed } from "./connector-gate.ts";
import type { InvokeOptions } from "./runtime-instance.ts";
import { runtimeError } from "./runtime-errors.ts";
import type { InvokeResult, RuntimeHost } from "./runtime-host.ts";

/**
 * Invokes a connector operation: ownership, trust and realm checks, then the capability gate,
 * all before the process is reached; the command gets `{operation, input}`.
 */
export async function invokeConnector(
  host: RuntimeHost,
  plugin: string,
  connectorId: string,
  operation: string,
  input: unknown,
  opts: InvokeOptions & { project?: string } = {},
): Promise<InvokeResult & { connector: string; provider: string; operation: string; capability: string }> {
  const bundle = host.findBundle(plugin);
  const connector = bundle.manifest.codetwo.connectors.find((c) => c.id === connectorId);
  if (!connector) {
    const ids = bundle.manifest.codetwo.connectors.map((c) => c.id);
    throw runtimeError(
      "unknown_contribution",
      `${bundle.name} has no connector ${connectorId}.`,
      ids.length > 0 ? `Its connectors: ${ids.join(", ")}.` : `${bundle.name} declares no connectors.`,
    );
  }
  const target = host.ownedTarget(bundle, connector.command, `Connector ${connector.id}`, opts.project);
  const componentId = `bundle:${bundle.id}:connector:${connector.id}`;
  if (host.componentDisabled(target, componentId)) {
    throw runtimeError(
      "component_disabled",
      `The connector ${componentId} is disabled by policy.`,
      "Enable the component in plugin policy first.",
      undefined,
      ExitCode.refused,
    );
  }
  if (!operationIsWellFormed(operation)) {
    throw runtimeError(
      "invalid_operation",
      `The connector operation "${operation}" is not a dotted name such as conversation.list.`,
      "Operations are namespace.verb names chosen by the provider adapter.",
      undefined,
      ExitCode.usage,
    );
  }
  const capability = capabilityFor(operation, connector.capabilities);
  if (!capability) {
    throw runtimeError(
      "capability_denied",
      `The connector ${connector.id} of ${bundle.name} does not declare the capability for ${operation} (declared: ${connector.capabilities.join(", ")}).`,
      "Operations outside the declared capabilities fail closed before the plugin runs.",
      { plugin: bundle.id, connector: connector.id, operation },
      ExitCode.refused,
    );
  }
  const r = await host.invokeTarget(
    target,
    connector.command,
    { operation, input: input === undefined ? null : input },
    opts,
  );
  return { ...r, connector: connector.id, provider: connector.provider, operation, capability };
}
