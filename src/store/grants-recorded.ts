/** The grants recorded for one bundle, as inspect, audit and the lock show them. */
import type { Context } from "../core/context.ts";
import {
  bundleKey,
  emptyGrantSet,
  grantStore,
  processOfKey,
  readGrants,
  type GrantFamily,
  type GrantScope,
  type GrantSet,
  type GrantsState,
} from "./grants.ts";
import type { SandboxSubject } from "../process/sandbox/profile.ts";

export interface RecordedGrants {
  state: GrantsState;
  bundle: GrantSet;
  processes: { process: NonNullable<SandboxSubject["process"]>; grants: GrantSet }[];
}

export function recordedGrants(ctx: Context, family: GrantFamily, scope: GrantScope, name: string): RecordedGrants {
  const read = readGrants(ctx, grantStore(ctx, family, scope));
  const entry = read.bundles[bundleKey(family, name)];
  return {
    state: read.state,
    bundle: entry?.bundle ?? emptyGrantSet(),
    processes: Object.entries(entry?.processes ?? {}).map(([key, grants]) => ({ process: processOfKey(key), grants })),
  };
}
