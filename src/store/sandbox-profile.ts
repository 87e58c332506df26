import type { Context } from "../core/context.ts";
import type { SandboxProfile, SandboxSubject } from "../process/sandbox/profile.ts";

/**
 * The profile one bundle process runs with: what the caller knows it needs (`base`: its
 * installed content to read, its data directories to write) plus what the user granted it with
 * `gjc plugin allow`. The launcher adds the system paths, the command's own install and a
 * private temporary directory (src/process/sandbox/confine.ts).
 */
export async function profileFor(ctx: Context, subject: SandboxSubject, base: SandboxProfile): Promise<SandboxProfile> {
  const granted = await grantedAdditions(ctx, subject);
  return { read: [...base.read, ...granted.read], write: [...base.write, ...granted.write], net: [...base.net, ...granted.net] };
}

/** Grants recorded for the subject; none until the grants store is in place. */
async function grantedAdditions(_ctx: Context, _subject: SandboxSubject): Promise<SandboxProfile> {
  return EMPTY_PROFILE;
}

export const EMPTY_PROFILE: SandboxProfile = { read: [], write: [], net: [] };
