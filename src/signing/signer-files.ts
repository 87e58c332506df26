/**
 * Where the publishers a user trusts live, in ssh-keygen's allowed_signers format so the same
 * file works with `ssh-keygen -Y verify -f`:
 *
 *   $XDG_CONFIG_HOME/gjc/allowed_signers   the user's (default ~/.config/gjc)
 *   <project>/.gjc/allowed_signers         a project's, for that project's bundles only
 *   $XDG_CONFIG_HOME/gjc/revoked_signers   keys the user revoked, one public key a line
 *
 * Revocations are user state on purpose: a repository can add a project's publishers, but no
 * file that arrives with a repository can bring back a key the user revoked.
 */
import { existsSync, mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { writeFileAtomic } from "../bundle/atomic-fs.ts";
import { readRegularFile } from "../bundle/read-file.ts";
import type { Context } from "../core/context.ts";
import { GjcError } from "../core/errors.ts";
import { ExitCode } from "../core/exit-codes.ts";
import { parseAllowedSigners, type AllowedSigner } from "./allowed-signers.ts";
import { fingerprint, KeyFormatError, parsePublicKeyLine } from "./ssh-keys.ts";

/** A signer list larger than this is not a list of people. */
const MAX_SIGNERS_BYTES = 1024 * 1024;

export type SignersScope = "user" | "project";

export function gjcConfigDir(ctx: Context): string {
  return ctx.env.XDG_CONFIG_HOME
    ? join(resolve(ctx.cwd, ctx.env.XDG_CONFIG_HOME), "gjc")
    : join(ctx.home, ".config", "gjc");
}

export function allowedSignersPath(ctx: Context, scope: SignersScope): string {
  return scope === "user" ? join(gjcConfigDir(ctx), "allowed_signers") : join(ctx.cwd, ".gjc", "allowed_signers");
}

export const revokedSignersPath = (ctx: Context) => join(gjcConfigDir(ctx), "revoked_signers");

/** The text of a signer file, or "" when there is none; a link or an oversized file is refused. */
export function readSignerFile(path: string): string {
  if (!existsSync(path)) return "";
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(readRegularFile(path, MAX_SIGNERS_BYTES, path).bytes);
  } catch (error) {
    throw new GjcError({
      code: "signers_unreadable",
      message: `The signer list ${path} cannot be read: ${(error as Error).message}`,
      hint: "It must be a regular UTF-8 file (not a link) of at most 1 MiB in ssh-keygen's allowed_signers format.",
      exit: ExitCode.refused,
    });
  }
}

export interface LoadedSigners {
  path: string;
  scope: SignersScope;
  signers: AllowedSigner[];
  problems: { line: number; message: string }[];
}

export function loadSigners(ctx: Context, scope: SignersScope): LoadedSigners {
  const path = allowedSignersPath(ctx, scope);
  return { path, scope, ...parseAllowedSigners(readSignerFile(path)) };
}

/** The fingerprints the user revoked. Lines that are not keys are kept and ignored. */
export function revokedFingerprints(ctx: Context): Set<string> {
  const out = new Set<string>();
  for (const line of readSignerFile(revokedSignersPath(ctx)).split("\n")) {
    if (line.trim() === "" || line.trim().startsWith("#")) continue;
    try {
      out.add(fingerprint(parsePublicKeyLine(line).key.blob));
    } catch (error) {
      if (!(error instanceof KeyFormatError)) throw error;
    }
  }
  return out;
}

export function writeSignerFile(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  writeFileAtomic(path, text, 0o644);
}
