/**
 * The grants side of a capability diff: which sandbox grants of the installed bundle would apply
 * to the candidate. Grants belong to the bundle's name, so they carry over an upgrade: bundle-wide
 * grants reach every process the candidate adds, and a per-process grant whose process the
 * candidate no longer declares stays recorded but applies to nothing.
 */
import type { CapabilityDiff } from "../families/capability-diff.ts";
import type { CapabilityModel, ProcessCapability } from "../families/capability-model.ts";
import { isEmptyGrantSet } from "./grants.ts";
import type { RecordedGrants } from "./grants-recorded.ts";

export interface CarriedGrants {
  bundle: RecordedGrants["bundle"];
  processes: (RecordedGrants["processes"][number] & { declared: boolean })[];
  /** Processes the candidate adds that get the bundle-wide grants. */
  inheritedBy: string[];
}

/** A capability diff with the installed bundle's sandbox grants that would apply to the candidate. */
export type GrantedCapabilityDiff = CapabilityDiff & { grants?: CarriedGrants };

const SANDBOXED: ReadonlySet<ProcessCapability["kind"]> = new Set(["c2-runtime", "language-server", "mcp-stdio"]);

function declares(model: CapabilityModel, p: RecordedGrants["processes"][number]["process"]): boolean {
  return model.processes.some((x) =>
    p.kind === "runtime"
      ? x.kind === "c2-runtime"
      : p.kind === "lsp"
        ? x.kind === "language-server" && x.name === p.id
        : x.kind === "mcp-stdio" && x.name === p.id,
  );
}

/** Undefined when the installed bundle has no (believed) grants. */
export function carriedGrants(
  diff: CapabilityDiff,
  candidate: CapabilityModel,
  grants: RecordedGrants,
): CarriedGrants | undefined {
  if (grants.state !== "signed" || (isEmptyGrantSet(grants.bundle) && grants.processes.length === 0)) return undefined;
  return {
    bundle: grants.bundle,
    processes: grants.processes.map((p) => ({ ...p, declared: declares(candidate, p.process) })),
    inheritedBy: isEmptyGrantSet(grants.bundle)
      ? []
      : diff.processes.added.filter((p) => SANDBOXED.has(p.kind)).map((p) => p.id),
  };
}
