/**
 * Trust bound to capabilities (C2). What `gjc plugin trust` approves is the process-relevant
 * part of the capability model: every process with its command, arguments, working directory
 * and the digest of the bundled code it runs; every network endpoint; every environment
 * variable it sets or asks for; every host service, command, UI slot and connector. Prompt
 * text, skills and other data are not in it, so an upgrade that changes only text keeps trust.
 *
 * The installer records the digest of these capabilities in the C2 record (`capabilities`), and
 * trust copies it (`trusted_capabilities`); the bundle needs re-trust exactly when the two
 * digests differ. Both carry the capabilities themselves, so the diff can be shown without
 * reading the bundle again. This module stays small: the records loader calls it per bundle.
 */
import { canonicalDigest, canonicalJson } from "./canonical-json.ts";
import type { CapabilityModel } from "./model.ts";

export { canonicalJson };

export interface TrustedCapabilities {
  /** `sha256:<hex>` of the canonical JSON of the other fields. */
  digest: string;
  processes: { id: string; kind: string; command: string; args: string[]; cwd: string; codeSha256: string | null }[];
  endpoints: { id: string; transport: string; url: string; host: string; headers: string[] }[];
  env: { owner: string; name: string; mode: string; from: string | null }[];
  hostCommands: { owner: string; kind: string; name: string }[];
}

const byKey = <T>(key: (x: T) => string) => (a: T, b: T) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0);

/** The process-relevant capabilities of a model and their digest. */
export function trustedCapabilities(model: CapabilityModel): TrustedCapabilities {
  const body = {
    processes: model.processes.map((p) => ({ id: p.id, kind: p.kind, command: p.command, args: [...p.args], cwd: p.cwd, codeSha256: p.codeSha256 ?? null })).sort(byKey((p) => p.id)),
    endpoints: model.endpoints.map((e) => ({ id: e.id, transport: e.transport, url: e.url, host: e.host, headers: [...e.headers].sort() })).sort(byKey((e) => e.id)),
    env: model.env.map((v) => ({ owner: v.owner, name: v.name, mode: v.mode, from: v.from })).sort(byKey((v) => `${v.owner}\0${v.name}`)),
    hostCommands: model.hostCommands.map((h) => ({ owner: h.owner, kind: h.kind, name: h.name })).sort(byKey((h) => `${h.owner}\0${h.kind}\0${h.name}`)),
  };
  const digest = canonicalDigest(body);
  return { digest, ...body };
}

export type TrustState = "untrusted" | "trusted" | "needs-retrust";

/**
 * The trust state of a record: `needs-retrust` when it is trusted but what it can do now is not
 * what was trusted. A record from before capability binding (no digests) stays `trusted`.
 */
export function trustStateOf(r: { trusted: boolean; capabilities?: { digest: string }; trusted_capabilities?: { digest: string } }): TrustState {
  if (!r.trusted) return "untrusted";
  if (r.capabilities && r.trusted_capabilities && r.capabilities.digest !== r.trusted_capabilities.digest) return "needs-retrust";
  return "trusted";
}

/** A record field holding TrustedCapabilities: the reason it is malformed, or undefined. */
export function trustedCapabilitiesProblem(value: unknown, field: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "object" || value === null || Array.isArray(value)) return `${field} must be an object`;
  const v = value as Record<string, unknown>;
  if (typeof v.digest !== "string" || !/^sha256:[0-9a-f]{64}$/.test(v.digest)) return `${field}.digest must be sha256:<64 hex>`;
  for (const key of ["processes", "endpoints", "env", "hostCommands"]) if (!Array.isArray(v[key])) return `${field}.${key} must be a list`;
  const { digest, ...body } = v;
  const recomputed = canonicalDigest(body);
  return recomputed === digest ? undefined : `${field}.digest does not match its capabilities`;
}
