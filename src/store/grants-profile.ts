/**
 * What grants add to a sandboxed process's default profile, and the command line that would
 * grant a denied access. The enforcer (src/process/sandbox) asks for both; it owns the default
 * profile and applies the union.
 */
import { realpathSync } from "node:fs";
import { isAbsolute, relative, resolve } from "node:path";
import type { Context } from "../core/context.ts";
import type { SandboxProfile, SandboxSubject } from "../process/sandbox/profile.ts";
import {
  bundleKey,
  emptyGrantSet,
  grantStore,
  mergeGrantSets,
  processKey,
  readGrants,
  type GrantFamily,
  type GrantScope,
  type GrantSet,
} from "./grants.ts";

export interface GrantLookup {
  /** The bundle's family and scope when the caller knows them; otherwise the first store holding grants for the name. */
  family?: GrantFamily;
  scope?: GrantScope;
  /** The project the process runs for (default: the context's working directory). */
  project?: string;
}

const STORES: { family: GrantFamily; scope: GrantScope }[] = [
  { family: "gjc", scope: "project" },
  { family: "gjc", scope: "user" },
  { family: "c2", scope: "user" },
];

/**
 * The grants recorded for a subject: the bundle's own plus its process's, from signed grants
 * files only. Without a family and scope, the one store holding grants for the name answers;
 * when several do (the same name in both GJC scopes, or in both families), the store where the
 * bundle is installed does, and when that is still more than one, nothing is granted: the
 * caller must say which bundle it launches rather than have gjc guess in the wider direction.
 */
export async function grantsFor(ctx: Context, subject: SandboxSubject, lookup: GrantLookup = {}): Promise<GrantSet> {
  const found = STORES.filter(
    (s) => (!lookup.family || lookup.family === s.family) && (!lookup.scope || lookup.scope === s.scope),
  )
    .map((s) => ({
      ...s,
      entry: readGrants(ctx, grantStore(ctx, s.family, s.scope)).bundles[bundleKey(s.family, subject.bundle)],
    }))
    .filter((s) => s.entry !== undefined);
  // Several stores hold grants for the name (both GJC scopes, or both families): only the
  // caller's family and scope may pick one; gjc never guesses in the wider direction.
  const chosen = found.length === 1 ? found[0] : undefined;
  if (!chosen?.entry) return emptyGrantSet();
  const key = processKey(subject.process);
  return mergeGrantSets(
    chosen.entry.bundle,
    key !== undefined ? (chosen.entry.processes[key] ?? emptyGrantSet()) : emptyGrantSet(),
  );
}

const real = (p: string) => {
  try {
    return realpathSync(p);
  } catch {
    return resolve(p);
  }
};

/**
 * A grant set as profile paths: project access becomes the project directory itself, unless
 * that directory is the home or holds it (a command run from `~` would otherwise hand the
 * whole home to a plugin that was only meant to see a project).
 */
export function profileOfGrants(grants: GrantSet, project: string, home: string): SandboxProfile {
  const dir = real(project);
  const rel = relative(dir, real(home));
  const access = rel === "" || (!rel.startsWith("..") && !isAbsolute(rel)) ? null : grants.project;
  return {
    read: access === "read" ? [...new Set([...grants.read, dir])].sort() : grants.read,
    write: access === "write" ? [...new Set([...grants.write, dir])].sort() : grants.write,
    net: grants.net,
  };
}

/** The read, write and net that a bundle's grants add to the default profile of one of its processes. */
export async function grantedProfileAdditions(
  ctx: Context,
  subject: SandboxSubject,
  lookup: GrantLookup = {},
): Promise<SandboxProfile> {
  return profileOfGrants(await grantsFor(ctx, subject, lookup), lookup.project ?? ctx.cwd, ctx.home);
}

export { allowCommand, processFlags, shellWord } from "../process/sandbox/allow-command.ts";
