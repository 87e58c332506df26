/**
 * `gjc signers add|list|remove|revoke`: the publishers a user (or a project) trusts, kept in
 * ssh-keygen's allowed_signers format, and the user's revocations.
 */
import { existsSync } from "node:fs";
import type { Context } from "../core/context.ts";
import { expandHome } from "../core/context.ts";
import { GjcError, usageError } from "../core/errors.ts";
import { ExitCode } from "../core/exit-codes.ts";
import { formatAllowedSigner, parseAllowedSigners, type AllowedSigner } from "./allowed-signers.ts";
import {
  allowedSignersPath,
  loadSigners,
  readSignerFile,
  revokedFingerprints,
  revokedSignersPath,
  writeSignerFile,
  type SignersScope,
} from "./signer-files.ts";
import { fingerprint, KeyFormatError, parsePublicKeyLine, publicKeyLine, type SshPublicKey } from "./ssh-keys.ts";
import { SIGNATURE_NAMESPACE } from "./sshsig.ts";

export interface SignerRow {
  scope: SignersScope;
  file: string;
  line: number;
  identity: string;
  keyType: string | null;
  fingerprint: string | null;
  namespaces: string | null;
  validAfter: string | null;
  validBefore: string | null;
  forNames: string | null;
  revoked: boolean;
  /** Why gjc cannot use the line (a certificate authority, an unsupported key); null when it can. */
  unusable: string | null;
}

export interface SignersList {
  signers: SignerRow[];
  revoked: { fingerprint: string; keyType: string }[];
  problems: { file: string; line: number; message: string }[];
}

const scopeOf = (project?: boolean): SignersScope => (project ? "project" : "user");

function row(scope: SignersScope, file: string, s: AllowedSigner, revoked: Set<string>): SignerRow {
  const fp = s.key ? fingerprint(s.key.blob) : null;
  return {
    scope,
    file,
    line: s.line,
    identity: s.principals,
    keyType: s.key?.type ?? null,
    fingerprint: fp,
    namespaces: s.namespaces ?? null,
    validAfter: s.validAfter?.toISOString() ?? null,
    validBefore: s.validBefore?.toISOString() ?? null,
    forNames: s.forNames ?? null,
    revoked: fp !== null && revoked.has(fp),
    unusable: s.unusable ?? null,
  };
}

export function listSigners(ctx: Context): SignersList {
  const revoked = revokedFingerprints(ctx);
  const out: SignersList = { signers: [], revoked: [], problems: [] };
  for (const scope of ["user", "project"] as const) {
    const loaded = loadSigners(ctx, scope);
    out.signers.push(...loaded.signers.map((s) => row(scope, loaded.path, s, revoked)));
    out.problems.push(...loaded.problems.map((p) => ({ file: loaded.path, ...p })));
  }
  for (const line of readSignerFile(revokedSignersPath(ctx)).split("\n")) {
    try {
      const key = parsePublicKeyLine(line).key;
      out.revoked.push({ fingerprint: fingerprint(key.blob), keyType: key.type });
    } catch (error) {
      if (!(error instanceof KeyFormatError)) throw error;
    }
  }
  return out;
}

/** A key given as a `type base64` line or as the path of a .pub file. */
function keyFrom(ctx: Context, arg: string): SshPublicKey {
  const text = /^(ssh-|ecdsa-|sk-)\S+\s+\S/.test(arg) ? arg : readPubFile(ctx, arg);
  try {
    return parsePublicKeyLine(text).key;
  } catch (error) {
    if (!(error instanceof KeyFormatError)) throw error;
    throw usageError(
      `${arg} is not a usable OpenSSH public key: ${error.message}.`,
      "Pass the publisher's .pub file or its line (ssh-ed25519 AAAA…).",
      "invalid_signer_key",
    );
  }
}

function readPubFile(ctx: Context, arg: string): string {
  const path = expandHome(ctx, arg);
  if (!existsSync(path))
    throw usageError(
      `${arg} is neither a public key line nor a file.`,
      "Pass the publisher's .pub file or its line (ssh-ed25519 AAAA…).",
      "invalid_signer_key",
    );
  const first = readSignerFile(path)
    .split("\n")
    .find((l) => l.trim() !== "" && !l.trim().startsWith("#"));
  return first ?? "";
}

function checkIdentity(identity: string): void {
  if (identity === "" || /[\s"\u0000-\u001f\u007f]/.test(identity)) {
    throw usageError(
      `The identity ${JSON.stringify(identity)} must be a non-empty word without spaces, quotes or control characters.`,
      "Use an e-mail address or a name like acme-release.",
      "invalid_option_value",
    );
  }
}

export interface AddResult {
  status: "added" | "unchanged";
  scope: SignersScope;
  file: string;
  identity: string;
  fingerprint: string;
  keyType: string;
  forNames: string | null;
}

export function addSigner(
  ctx: Context,
  o: { identity: string; key: string; forNames?: string; project?: boolean; certAuthority?: boolean },
): AddResult {
  checkIdentity(o.identity);
  if (o.forNames !== undefined && (o.forNames === "" || /[\s"]/.test(o.forNames))) {
    throw usageError(
      `--for ${JSON.stringify(o.forNames)} must be a comma-separated list of bundle name patterns without spaces.`,
      "For example --for 'acme-*'.",
      "invalid_option_value",
    );
  }
  const key = keyFrom(ctx, o.key);
  const fp = fingerprint(key.blob);
  if (revokedFingerprints(ctx).has(fp)) {
    throw new GjcError({
      code: "signer_revoked",
      message: `The key ${fp} was revoked; it cannot be trusted again by gjc signers add.`,
      hint: `If the revocation was a mistake, remove its line from ${revokedSignersPath(ctx)} first.`,
      exit: ExitCode.refused,
      details: { fingerprint: fp },
    });
  }
  const scope = scopeOf(o.project);
  const file = allowedSignersPath(ctx, scope);
  const text = readSignerFile(file);
  const result: AddResult = {
    status: "added",
    scope,
    file,
    identity: o.identity,
    fingerprint: fp,
    keyType: key.type,
    forNames: o.forNames ?? null,
  };
  const same = parseAllowedSigners(text).signers.some(
    (s) =>
      s.principals === o.identity &&
      s.key &&
      fingerprint(s.key.blob) === fp &&
      s.forNames === o.forNames &&
      s.namespaces === SIGNATURE_NAMESPACE &&
      s.certAuthority === (o.certAuthority === true),
  );
  if (same) return { ...result, status: "unchanged" };
  const line = formatAllowedSigner({
    identity: o.identity,
    certAuthority: o.certAuthority,
    namespaces: SIGNATURE_NAMESPACE,
    keyText: publicKeyLine(key),
    forNames: o.forNames,
  });
  writeSignerFile(file, `${text}${text === "" || text.endsWith("\n") ? "" : "\n"}${line}\n`);
  return result;
}

/** Lines of `text` with the given 1-based line numbers dropped. */
const withoutLines = (text: string, drop: Set<number>) =>
  text
    .split("\n")
    .filter((_, i) => !drop.has(i + 1))
    .join("\n");

const matches = (s: AllowedSigner, who: string) =>
  s.principals === who || (s.key !== undefined && fingerprint(s.key.blob) === who);

export interface RemoveResult {
  scope: SignersScope;
  file: string;
  removed: { identity: string; fingerprint: string | null }[];
}

export function removeSigner(ctx: Context, o: { who: string; project?: boolean }): RemoveResult {
  const scope = scopeOf(o.project);
  const file = allowedSignersPath(ctx, scope);
  const text = readSignerFile(file);
  const hits = parseAllowedSigners(text).signers.filter((s) => matches(s, o.who));
  if (hits.length === 0) {
    throw new GjcError({
      code: "signer_not_found",
      message: `No line of ${file} names ${o.who}.`,
      hint: "gjc signers list shows the identities and fingerprints.",
      exit: ExitCode.failed,
    });
  }
  writeSignerFile(file, withoutLines(text, new Set(hits.map((h) => h.line))));
  return {
    scope,
    file,
    removed: hits.map((h) => ({ identity: h.principals, fingerprint: h.key ? fingerprint(h.key.blob) : null })),
  };
}

export interface RevokeResult {
  file: string;
  revoked: { fingerprint: string; keyType: string }[];
  /** Lines removed from the user's allowed_signers. */
  removed: number;
}

/**
 * Revokes keys named by identity, fingerprint, key line or .pub file: their keys go to the
 * user's revoked_signers (so no project file can trust them again) and their lines leave the
 * user's allowed_signers.
 */
export function revokeSigner(ctx: Context, who: string): RevokeResult {
  const user = loadSigners(ctx, "user");
  const project = loadSigners(ctx, "project");
  let keys: SshPublicKey[] = [...user.signers, ...project.signers]
    .filter((s) => s.key && matches(s, who))
    .map((s) => s.key!);
  if (keys.length === 0) {
    if (who.startsWith("SHA256:"))
      throw new GjcError({
        code: "signer_not_found",
        message: `No allowed_signers line has the key ${who}, so its key is not known here.`,
        hint: "Revoke by the public key itself: gjc signers revoke <key.pub>.",
        exit: ExitCode.failed,
      });
    keys = [keyFrom(ctx, who)];
  }
  const already = revokedFingerprints(ctx);
  const file = revokedSignersPath(ctx);
  let text = readSignerFile(file);
  const revoked = new Map<string, string>();
  for (const k of keys) {
    const fp = fingerprint(k.blob);
    if (!already.has(fp) && !revoked.has(fp))
      text += `${text === "" || text.endsWith("\n") ? "" : "\n"}${publicKeyLine(k)}\n`;
    revoked.set(fp, k.type);
  }
  writeSignerFile(file, text);
  const fps = new Set(revoked.keys());
  const drop = user.signers.filter((s) => s.key && fps.has(fingerprint(s.key.blob))).map((s) => s.line);
  if (drop.length > 0) writeSignerFile(user.path, withoutLines(readSignerFile(user.path), new Set(drop)));
  return {
    file,
    revoked: [...revoked].map(([fingerprint, keyType]) => ({ fingerprint, keyType })),
    removed: drop.length,
  };
}
