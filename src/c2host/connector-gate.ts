import type { C2Capability } from "../families/c2/types.ts";

/**
 * Operation namespaces each connector capability opens (seed, "connectors"). An operation
 * outside every declared capability fails closed before the plugin's command runs.
 */
const NAMESPACES: Record<C2Capability, { exact: string[]; prefixes: string[] }> = {
  connection: { exact: [], prefixes: ["connection."] },
  conversations: { exact: ["resources.list"], prefixes: ["conversation."] },
  documents: { exact: ["resources.list"], prefixes: ["document."] },
  tables: { exact: ["resources.list"], prefixes: ["table."] },
  messaging: { exact: [], prefixes: ["message."] },
  turn_notifications: { exact: [], prefixes: ["notification."] },
};

/** A stable dotted name: two or more segments of letters, digits, `_` and `-`. */
const OPERATION = /^[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)+$/;

export function operationIsWellFormed(operation: string): boolean {
  return OPERATION.test(operation) && operation.length <= 128;
}

/** The capability that allows `operation`, or undefined when none of `declared` does. */
export function capabilityFor(operation: string, declared: readonly C2Capability[]): C2Capability | undefined {
  return declared.find((cap) => {
    const ns = NAMESPACES[cap];
    return (
      ns !== undefined &&
      (ns.exact.includes(operation) || ns.prefixes.some((p) => operation.startsWith(p) && operation.length > p.length))
    );
  });
}
