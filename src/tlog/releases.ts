/**
 * The releases of a log, one line each, in log order; line i is leaf i of the Merkle tree
 * (its UTF-8 bytes without the newline):
 *
 *     <name> SP <version> SP sha256:<64 hex> SP <signer fingerprint or "-"> LF
 *
 * The signer is the SSH key fingerprint (`SHA256:<base64>`, as `ssh-keygen -l` prints it) of
 * the key that signed the bundle; gjc treats it as an opaque string.
 */
import { invalidLog } from "./errors.ts";
import { leafHash, type Hash } from "./merkle.ts";

export interface Release {
  name: string;
  version: string;
  digest: string;
  signer?: string;
}

const TOKEN = /^[\x21-\x7e]{1,256}$/;
const DIGEST = /^sha256:[0-9a-f]{64}$/;
const SIGNER = /^SHA256:[A-Za-z0-9+/]{1,128}$/;
const NO_SIGNER = "-";

/** Why a release cannot be written to a log, or undefined. */
export function releaseProblem(r: Release): string | undefined {
  if (!TOKEN.test(r.name)) return `the name "${r.name}" must be 1-256 visible ASCII characters without spaces`;
  if (!TOKEN.test(r.version)) return `the version "${r.version}" must be 1-256 visible ASCII characters without spaces`;
  if (!DIGEST.test(r.digest)) return `the digest "${r.digest}" is not sha256:<64 lower-case hex>`;
  if (r.signer !== undefined && !SIGNER.test(r.signer))
    return `the signer "${r.signer}" is not an SSH key fingerprint (SHA256:<base64>)`;
  return undefined;
}

export function releaseLine(r: Release): string {
  return `${r.name} ${r.version} ${r.digest} ${r.signer ?? NO_SIGNER}`;
}

export function releaseLeaf(r: Release): Hash {
  return leafHash(new TextEncoder().encode(releaseLine(r)));
}

export function parseReleaseLine(line: string, what: string): Release {
  const parts = line.split(" ");
  if (parts.length !== 4) throw invalidLog(what, "it is not <name> <version> <digest> <signer>, one space apart");
  const [name, version, digest, signer] = parts;
  const r: Release = signer === NO_SIGNER ? { name, version, digest } : { name, version, digest, signer };
  const problem = releaseProblem(r);
  if (problem !== undefined) throw invalidLog(what, problem);
  return r;
}

/** The releases file's text, parsed line by line; refuses anything not exactly in the format. */
export function parseReleases(text: string, file: string): Release[] {
  if (text === "") return [];
  if (!text.endsWith("\n")) throw invalidLog(file, "its last line does not end with a newline");
  return text
    .slice(0, -1)
    .split("\n")
    .map((line, i) => parseReleaseLine(line, `${file} line ${i + 1}`));
}

export function releasesText(releases: readonly Release[]): string {
  return releases.map((r) => `${releaseLine(r)}\n`).join("");
}

export const sameRelease = (a: Release, b: Release) => releaseLine(a) === releaseLine(b);
