/**
 * The author's side of signed bundles: `gjc plugin digest` prints the message a signature
 * signs (the bundle's integrity line), `gjc plugin sign` writes the SSHSIG beside an archive
 * (`<archive>.sig`) or at a directory bundle's root (`gjc-signature.sshsig`, outside the
 * digest it signs).
 */
import { lstatSync } from "node:fs";
import { join, resolve } from "node:path";
import { writeFileAtomic } from "../bundle/atomic-fs.ts";
import { SIGNATURE_FILE } from "../bundle/names.ts";
import type { Context } from "../core/context.ts";
import { GjcError } from "../core/errors.ts";
import { ExitCode } from "../core/exit-codes.ts";
import { judgeBundle, type JudgedBundle } from "../store/bundle-digest.ts";
import { digestMessage } from "../signing/check.ts";
import { formatAllowedSigner } from "../signing/allowed-signers.ts";
import { loadSigner } from "../signing/load-signer.ts";
import type { SshSigner } from "../signing/private-key.ts";
import { archiveSignaturePath } from "../signing/locate.ts";
import { fingerprint, publicKeyLine } from "../signing/ssh-keys.ts";
import { armorSignature, SIGNATURE_NAMESPACE, signMessage } from "../signing/sshsig.ts";

export interface DigestResult {
  family: "gjc" | "c2";
  name: string;
  version: string;
  files: number;
  integrity: string;
  /** Exactly the bytes a signature signs. */
  message: string;
}

/** Judges any source install takes (directory, archive, git, GitHub) and returns its digest. */
export async function digestSource(ctx: Context, source: string): Promise<DigestResult> {
  const { fetchSpec } = await import("../install/fetch-source.ts");
  const fetched = await fetchSpec(ctx, source, (m) => ctx.log.progress(m));
  try {
    return digestOf(await judgeBundle(fetched.dir));
  } finally {
    await fetched.cleanup();
  }
}

const digestOf = (b: JudgedBundle): DigestResult => ({
  family: b.family,
  name: b.name,
  version: b.version,
  files: b.files.length,
  integrity: b.integrity,
  message: new TextDecoder().decode(digestMessage(b.integrity)),
});

export interface SignResult extends DigestResult {
  file: string;
  namespace: string;
  keyType: string;
  fingerprint: string;
  /** The line a consumer adds to allowed_signers to trust this key (needs an identity). */
  allowedSignersLine?: string;
}

function kindOf(ctx: Context, target: string): { kind: "dir" | "archive"; path: string } {
  const path = resolve(ctx.cwd, target);
  let st;
  try {
    st = lstatSync(path);
  } catch {
    throw new GjcError({
      code: "not_found",
      message: `There is no ${target}.`,
      hint: "Pass a bundle directory or an archive made by gjc plugin pack.",
      exit: ExitCode.usage,
    });
  }
  if (st.isDirectory()) return { kind: "dir", path };
  if (st.isFile() && /\.(tgz|tar\.gz|tar)$/.test(path)) return { kind: "archive", path };
  throw new GjcError({
    code: "wrong_target",
    message: `${target} is neither a bundle directory nor a .tgz/.tar.gz/.tar archive.`,
    hint: "Sign the bundle directory, or the archive gjc plugin pack wrote.",
    exit: ExitCode.usage,
  });
}

export async function signBundle(
  ctx: Context,
  target: string,
  o: { key: string; identity?: string },
): Promise<SignResult> {
  const { kind, path } = kindOf(ctx, target);
  // The key first: a key that cannot sign must not cost a full judgement of the bundle.
  const signer = await loadSigner(ctx, o.key);
  const result = await signWithSigner(ctx, path, kind, signer);
  if (o.identity !== undefined)
    result.allowedSignersLine = formatAllowedSigner({
      identity: o.identity,
      namespaces: SIGNATURE_NAMESPACE,
      keyText: publicKeyLine(signer.publicKey),
    });
  return result;
}

/** Judges the bundle at `path` (a directory or an archive) and writes its signature. */
export async function signWithSigner(
  ctx: Context,
  path: string,
  kind: "dir" | "archive",
  signer: SshSigner,
): Promise<SignResult> {
  const digest = await digestSource(ctx, path);
  const sig = await signMessage(signer, new TextEncoder().encode(digest.message), SIGNATURE_NAMESPACE);
  const file = kind === "archive" ? archiveSignaturePath(path) : join(path, SIGNATURE_FILE);
  writeFileAtomic(file, armorSignature(sig), 0o644);
  return {
    ...digest,
    file,
    namespace: SIGNATURE_NAMESPACE,
    keyType: signer.publicKey.type,
    fingerprint: fingerprint(signer.publicKey.blob),
  };
}
