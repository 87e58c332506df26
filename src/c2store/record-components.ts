/**
 * A C2 record stores its component summaries as install made them, with the record format's
 * own status spelling (`requires_trust`); gjc's documents spell statuses with `-`
 * (`requires-trust`). The record on disk never changes: statuses are mapped when a record is
 * written and when it is read.
 */
import type { ComponentSummary } from "../families/types.ts";

type Status = ComponentSummary["status"];
type StoredStatus = "ready" | "requires_trust" | "requires_auth" | "unsupported";

/** A component summary as an installed record stores it. */
export type StoredComponent = Omit<ComponentSummary, "status"> & { status: StoredStatus };

const STORED = {
  ready: "ready",
  "requires-trust": "requires_trust",
  "requires-auth": "requires_auth",
  unsupported: "unsupported",
} as const satisfies Record<Status, StoredStatus>;
const CORE = {
  ready: "ready",
  requires_trust: "requires-trust",
  requires_auth: "requires-auth",
  unsupported: "unsupported",
} as const satisfies Record<StoredStatus, Status>;

export const storedComponents = (components: readonly ComponentSummary[]): StoredComponent[] =>
  components.map((c) => ({ kind: c.kind, name: c.name, path: c.path, status: STORED[c.status] }));

export const componentsOf = (components: readonly StoredComponent[]): ComponentSummary[] =>
  components.map((c) => ({ kind: c.kind, name: c.name, path: c.path, status: CORE[c.status] }));
