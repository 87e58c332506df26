/**
 * Trust bound to capabilities (C2). What `gjc plugin trust` approves is the process-relevant
 * part of the capability model: every process with its command, arguments, working directory
 * and the digest of the bundled code it runs; every network endpoint; every environment
 * variable it sets or asks for; every host service, command, UI slot and connector. Prompt
 * text, skills and other data are not in it, so an upgrade that changes only text keeps trust.
 *
 * The code a process runs is more than its first argument: a runtime imports other modules of
 * its bundle and reads its data files, and an entry may be spelt `lib/../plugin.js`. So trust
 * also binds `code`: the integrity of every installed file but prompt text (Markdown: skills,
 * commands, agents, docs) and the root `plugin.json` (its process-relevant fields are the
 * capabilities above, field by field; its version and descriptions change at every release),
 * by path, mode and sha256. Editing any module, data file or script needs re-trust; editing
 * prompt text or bumping the version does not.
 *
 * The installer records the digest of these capabilities in the C2 record (`capabilities`), and
 * trust copies it (`trusted_capabilities`); the bundle needs re-trust exactly when the two
 * digests differ. Both carry the capabilities themselves, so the diff can be shown without
 * reading the bundle again. This module stays small: the records loader calls it per bundle.
 */
import { sha256Hex } from "../../bundle/hash.ts";
import { canonicalJson, canonicalDigest } from "../../bundle/canonical-json.ts";
import type { CapabilityModel } from "../capability-model.ts";

export { canonicalJson };

export interface TrustedCapabilities {
  /** `sha256:<hex>` of the canonical JSON of the other fields. */
  digest: string;
  processes: { id: string; kind: string; command: string; args: string[]; cwd: string; codeSha256: string | null }[];
  endpoints: { id: string; transport: string; url: string; host: string; headers: string[] }[];
  env: { owner: string; name: string; mode: string; from: string | null }[];
  hostCommands: { owner: string; kind: string; name: string }[];
  /** `sha256:<hex>` of the bundle's non-prompt files; absent in records made before it was bound. */
  code?: string;
}

/** A file as the collector and the record list it. */
export interface CodeFile {
  path: string;
  sha256: string;
  mode: number;
}

/** What `code` leaves out: Markdown prompt text anywhere, and the manifest the capabilities describe. */
export const outsideCode = (path: string) => path === "plugin.json" || /\.md$/i.test(path);

/** The integrity of the files a process of the bundle can load, but for what `outsideCode` leaves out. */
export function codeIntegrity(files: readonly CodeFile[]): string {
  const lines = files
    .filter((f) => !outsideCode(f.path))
    .map((f) => `${f.path}\u0000${(f.mode & 0o777).toString(8)}\u0000${f.sha256}\n`)
    .sort();
  return `sha256:${sha256Hex(lines.join(""))}`;
}

const byKey =
  <T>(key: (x: T) => string) =>
  (a: T, b: T) =>
    key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;

/** The process-relevant capabilities of a model, the code of `files` when given, and their digest. */
export function trustedCapabilities(model: CapabilityModel, files?: readonly CodeFile[]): TrustedCapabilities {
  const body = {
    processes: model.processes
      .map((p) => ({
        id: p.id,
        kind: p.kind,
        command: p.command,
        args: [...p.args],
        cwd: p.cwd,
        codeSha256: p.codeSha256 ?? null,
      }))
      .sort(byKey((p) => p.id)),
    endpoints: model.endpoints
      .map((e) => ({ id: e.id, transport: e.transport, url: e.url, host: e.host, headers: [...e.headers].sort() }))
      .sort(byKey((e) => e.id)),
    env: model.env
      .map((v) => ({ owner: v.owner, name: v.name, mode: v.mode, from: v.from }))
      .sort(byKey((v) => `${v.owner}\0${v.name}`)),
    hostCommands: model.hostCommands
      .map((h) => ({ owner: h.owner, kind: h.kind, name: h.name }))
      .sort(byKey((h) => `${h.owner}\0${h.kind}\0${h.name}`)),
    ...(files !== undefined ? { code: codeIntegrity(files) } : {}),
  };
  const digest = canonicalDigest(body);
  return { digest, ...body };
}

export type TrustState = "untrusted" | "trusted" | "needs-retrust";

/**
 * The trust state of a record: `needs-retrust` when it is trusted but what it can do now is not
 * what was trusted. A record from before capability binding (no digests) stays `trusted` until
 * its content first changes: the install then records capabilities with nothing trusted to
 * compare them with, and that record needs re-trust (an upgrade to `sh -c` is never trusted
 * on the old word).
 */
export function trustStateOf(r: {
  trusted: boolean;
  capabilities?: { digest: string };
  trusted_capabilities?: { digest: string };
}): TrustState {
  if (!r.trusted) return "untrusted";
  if (r.capabilities && !r.trusted_capabilities) return "needs-retrust";
  if (r.capabilities && r.trusted_capabilities && r.capabilities.digest !== r.trusted_capabilities.digest)
    return "needs-retrust";
  return "trusted";
}

/** A record field holding TrustedCapabilities: the reason it is malformed, or undefined. */
export function trustedCapabilitiesProblem(value: unknown, field: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "object" || value === null || Array.isArray(value)) return `${field} must be an object`;
  const v = value as Record<string, unknown>;
  if (typeof v.digest !== "string" || !/^sha256:[0-9a-f]{64}$/.test(v.digest))
    return `${field}.digest must be sha256:<64 hex>`;
  if (v.code !== undefined && (typeof v.code !== "string" || !/^sha256:[0-9a-f]{64}$/.test(v.code)))
    return `${field}.code must be sha256:<64 hex>`;
  for (const key of ["processes", "endpoints", "env", "hostCommands"])
    if (!Array.isArray(v[key])) return `${field}.${key} must be a list`;
  const { digest, ...body } = v;
  const recomputed = canonicalDigest(body);
  return recomputed === digest ? undefined : `${field}.digest does not match its capabilities`;
}
