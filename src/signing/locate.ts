/**
 * Where a fetched bundle's signature is: `gjc-signature.sshsig` at the bundle root (directories
 * and repositories), else `<archive>.sig` beside a local archive.
 */
import { existsSync, lstatSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { SIGNATURE_FILE } from "../bundle/names.ts";
import { readRegularFile } from "../bundle/read-file.ts";

/** An armored SSHSIG is well under 2 KiB even for a 16384-bit RSA key. */
const MAX_SIGNATURE_BYTES = 64 * 1024;

export const archiveSignaturePath = (archive: string) => `${archive}.sig`;

export function readSignatureAt(path: string): { text: string; label: string } | undefined {
  if (!existsSync(path) && !isLink(path)) return undefined;
  // Read without following links; a link, FIFO or huge file is refused by readRegularFile.
  const bytes = readRegularFile(path, MAX_SIGNATURE_BYTES, path).bytes;
  return { text: new TextDecoder().decode(bytes), label: path };
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

/** The signature of a fetched source, if it carries one. */
export function locateSignature(fetched: {
  dir: string;
  record: { kind: string; uri?: string };
  signature?: { text: string; label: string };
}): { text: string; label: string } | undefined {
  const inside = readSignatureAt(join(fetched.dir, SIGNATURE_FILE));
  if (inside) return inside;
  if (fetched.signature) return fetched.signature;
  const uri = fetched.record.uri;
  if (fetched.record.kind === "tarball" && uri !== undefined && isAbsolute(uri))
    return readSignatureAt(archiveSignaturePath(uri));
  return undefined;
}
