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
  return {
    read: [...base.read, ...granted.read],
    write: [...base.write, ...granted.write],
    net: [...base.net, ...granted.net],
  };
}

/** What the user granted the subject with `gjc plugin allow` (signed grants files only). */
async function grantedAdditions(ctx: Context, subject: SandboxSubject): Promise<SandboxProfile> {
  const { grantedProfileAdditions } = await import("./grants-profile.ts");
  return grantedProfileAdditions(ctx, subject);
}

export const EMPTY_PROFILE: SandboxProfile = { read: [], write: [], net: [] };
