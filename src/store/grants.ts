/**
 * Sandbox grants as store state: what the user allowed a bundle's processes beyond the default
 * profile. One file per store, `grants.json`, beside the state it belongs to (a GJC scope root,
 * the C2 data directory), signed with the state key like registry.json. A grant widens what a
 * plugin can touch, so a grants file that gjc did not write for this user (a repository that
 * ships `.gjc/gjc-plugins/grants.json`, a hand edit) is foreign: shown, never believed, never
 * overwritten.
 *
 * Per bundle, grants apply to every process it starts; per process (`server:<id>`, `runtime`,
 * `lsp:<id>`) they apply to that one only, on top of the bundle's.
 */
import { join } from "node:path";
import { writeFileAtomic } from "../bundle/atomic-fs.ts";
import { readRegularFile } from "../bundle/read-file.ts";
import { canonicalJson } from "../bundle/canonical-json.ts";
import { c2DataDir, type Context } from "../core/context.ts";
import { GjcError, isGjcError } from "../core/errors.ts";
import { ExitCode } from "../core/exit-codes.ts";
import type { NetGrant, SandboxSubject } from "../process/sandbox/profile.ts";
import { GRANTS_FILE, scopeRoot } from "../families/gjc/layout.ts";

export { GRANTS_FILE };
import type { DoctorFinding } from "./documents.ts";
import { registryMac, sameMac, stateKey } from "./state-mac.ts";

/** A grants file larger than this was not written by us. */
const MAX_GRANTS_BYTES = 4 * 1024 * 1024;

export type GrantFamily = "gjc" | "c2";
export type GrantScope = "user" | "project";
export type ProjectAccess = "read" | "write";

/** What one grant entry allows. Paths absolute and normalized; net as host and optional port. */
export interface GrantSet {
  read: string[];
  write: string[];
  net: NetGrant[];
  /** Access to the project the process runs for (the launching command's project directory). */
  project: ProjectAccess | null;
}

export interface BundleGrants {
  /** For every process of the bundle. */
  bundle: GrantSet;
  /** Keyed `server:<id>`, `runtime`, `lsp:<id>`. */
  processes: Record<string, GrantSet>;
}

export interface GrantsFile {
  version: 1;
  /** Keyed `<family>:<bundle name>`. */
  bundles: Record<string, BundleGrants>;
  mac: string;
}

/** Where a bundle's grants live. */
export interface GrantStore {
  family: GrantFamily;
  scope: GrantScope;
  root: string;
}

export type GrantsState = "absent" | "signed" | "foreign";

export interface ReadGrants {
  store: GrantStore;
  path: string;
  state: GrantsState;
  /** Why the file is foreign. */
  problem?: string;
  /** Believed grants: empty unless the file is signed. */
  bundles: Record<string, BundleGrants>;
}

export const emptyGrantSet = (): GrantSet => ({ read: [], write: [], net: [], project: null });
export const isEmptyGrantSet = (g: GrantSet) =>
  g.read.length === 0 && g.write.length === 0 && g.net.length === 0 && g.project === null;
export const bundleKey = (family: GrantFamily, name: string) => `${family}:${name}`;

/** `server:<id>`, `runtime`, `lsp:<id>`; undefined for the bundle as a whole. */
export function processKey(p: SandboxSubject["process"]): string | undefined {
  if (!p) return undefined;
  return p.kind === "runtime" ? "runtime" : `${p.kind}:${p.id ?? ""}`;
}

export function processOfKey(key: string): NonNullable<SandboxSubject["process"]> {
  if (key === "runtime") return { kind: "runtime" };
  const [kind, ...rest] = key.split(":");
  return { kind: kind as "server" | "lsp", id: rest.join(":") };
}

export function grantStore(ctx: Context, family: GrantFamily, scope: GrantScope): GrantStore {
  return { family, scope, root: family === "c2" ? c2DataDir(ctx) : scopeRoot(ctx, scope) };
}

/** The scope label the MAC covers: a user file copied into a project does not verify there. */
const macScope = (s: GrantStore) => `grants:${s.family}:${s.scope}`;

function macOf(key: Uint8Array, store: GrantStore, bundles: Record<string, BundleGrants>): string {
  return registryMac(key, macScope(store), canonicalJson(bundles));
}

const isStringList = (v: unknown): v is string[] =>
  Array.isArray(v) && v.every((s) => typeof s === "string" && s.startsWith("/"));

function grantSetProblem(v: unknown, at: string): string | undefined {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return `${at} is not an object`;
  const g = v as Record<string, unknown>;
  const keys = Object.keys(g).sort().join(",");
  if (keys !== "net,project,read,write") return `${at} has the fields ${keys || "(none)"}`;
  if (!isStringList(g.read) || !isStringList(g.write)) return `${at} paths must be absolute strings`;
  if (g.project !== null && g.project !== "read" && g.project !== "write")
    return `${at}.project must be read, write or null`;
  if (!Array.isArray(g.net)) return `${at}.net is not a list`;
  for (const n of g.net as unknown[]) {
    const e = n as Record<string, unknown>;
    if (
      typeof e !== "object" ||
      e === null ||
      typeof e.host !== "string" ||
      (e.port !== undefined && (!Number.isInteger(e.port) || (e.port as number) < 1 || (e.port as number) > 65535))
    )
      return `${at}.net has a bad entry`;
    if (Object.keys(e).some((k) => k !== "host" && k !== "port")) return `${at}.net has an unknown field`;
  }
  return undefined;
}

function fileProblem(doc: unknown): string | undefined {
  if (typeof doc !== "object" || doc === null || Array.isArray(doc)) return "it is not an object";
  const d = doc as Record<string, unknown>;
  if (d.version !== 1) return "it is not a version 1 grants file";
  if (typeof d.bundles !== "object" || d.bundles === null || Array.isArray(d.bundles))
    return "bundles is not an object";
  for (const [name, b] of Object.entries(d.bundles as Record<string, unknown>)) {
    const e = b as Record<string, unknown>;
    if (
      typeof e !== "object" ||
      e === null ||
      typeof e.processes !== "object" ||
      e.processes === null ||
      Array.isArray(e.processes)
    )
      return `bundles.${name} is malformed`;
    const problem =
      grantSetProblem(e.bundle, `bundles.${name}.bundle`) ??
      Object.entries(e.processes as Record<string, unknown>)
        .map(([k, g]) => grantSetProblem(g, `bundles.${name}.processes.${k}`))
        .find(Boolean);
    if (problem) return problem;
  }
  return undefined;
}

/** The grants of a store: absent, signed (believed) or foreign (reported, nothing believed). */
export function readGrants(ctx: Context, store: GrantStore): ReadGrants {
  const path = join(store.root, GRANTS_FILE);
  const foreign = (problem: string): ReadGrants => ({ store, path, state: "foreign", problem, bundles: {} });
  let text: string;
  try {
    // Never through a link: a repository's grants.json pointing at a file this user signed
    // elsewhere would otherwise lend that file's grants to the repository's bundles.
    text = new TextDecoder().decode(readRegularFile(path, MAX_GRANTS_BYTES, path).bytes);
  } catch (error) {
    if (!isGjcError(error)) throw error;
    if (error.code === "missing_file") return { store, path, state: "absent", bundles: {} };
    return foreign(
      error.code === "unsafe_path"
        ? "it is a symbolic link"
        : error.code === "file_too_large"
          ? "it is larger than any grants file gjc writes"
          : error.code === "special_file"
            ? "it is not a regular file"
            : "it cannot be read",
    );
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return foreign("it is not valid JSON");
  }
  const problem = fileProblem(doc);
  if (problem) return foreign(problem);
  const file = doc as GrantsFile;
  const key = stateKey(ctx, false);
  if (!key) return foreign("there is no state key to check its signature with");
  if (!sameMac(file.mac, macOf(key, store, file.bundles)))
    return foreign("its signature does not match: gjc did not write it for you, or it was edited by hand");
  return { store, path, state: "signed", bundles: file.bundles };
}

export function grantsForeign(read: ReadGrants): GjcError {
  return new GjcError({
    code: "grants_foreign",
    message: `The grants file ${read.path} was not written by gjc for you (${read.problem}); none of its grants are used, and gjc will not change it.`,
    hint: `Look at it: a repository or another program may have put it there. Remove it (rm ${read.path}) and grant again with gjc plugin allow.`,
    details: { path: read.path, problem: read.problem },
    exit: ExitCode.refused,
  });
}

/** Writes the store's grants, signed; empty entries are dropped. */
export function writeGrants(ctx: Context, store: GrantStore, bundles: Record<string, BundleGrants>): void {
  const kept: Record<string, BundleGrants> = {};
  for (const [name, b] of Object.entries(bundles).sort(([a], [c]) => (a < c ? -1 : a > c ? 1 : 0))) {
    const processes = Object.fromEntries(
      Object.entries(b.processes)
        .filter(([, g]) => !isEmptyGrantSet(g))
        .sort(([a], [c]) => (a < c ? -1 : a > c ? 1 : 0)),
    );
    if (!isEmptyGrantSet(b.bundle) || Object.keys(processes).length > 0) kept[name] = { bundle: b.bundle, processes };
  }
  const key = stateKey(ctx, true)!;
  const file: GrantsFile = { version: 1, bundles: kept, mac: macOf(key, store, kept) };
  writeFileAtomic(join(store.root, GRANTS_FILE), `${JSON.stringify(file, null, 2)}\n`, 0o600);
}

/** The union of two grant sets, de-duplicated (a host with any port covers that host's ports). */
export function mergeGrantSets(a: GrantSet, b: GrantSet): GrantSet {
  const paths = (x: string[], y: string[]) => [...new Set([...x, ...y])].sort();
  const net: NetGrant[] = [];
  for (const n of [...a.net, ...b.net]) {
    if (net.some((m) => m.host === n.host && (m.port === undefined || m.port === n.port))) continue;
    const covered = n.port === undefined ? net.filter((m) => m.host === n.host) : [];
    for (const c of covered) net.splice(net.indexOf(c), 1);
    net.push(n.port === undefined ? { host: n.host } : { host: n.host, port: n.port });
  }
  net.sort((x, y) => (x.host < y.host ? -1 : x.host > y.host ? 1 : (x.port ?? 0) - (y.port ?? 0)));
  const project = a.project === "write" || b.project === "write" ? "write" : (a.project ?? b.project);
  return { read: paths(a.read, b.read), write: paths(a.write, b.write), net, project };
}

export function sameGrantSet(a: GrantSet, b: GrantSet): boolean {
  return canonicalJson(a) === canonicalJson(b);
}

/**
 * doctor's view of a store's grants file: a foreign one is reported, never repaired (removing
 * it is the user's call: it may be evidence of tampering, and it grants nothing meanwhile).
 */
export function grantsFinding(ctx: Context, family: GrantFamily, scope: GrantScope): DoctorFinding | undefined {
  const read = readGrants(ctx, grantStore(ctx, family, scope));
  if (read.state !== "foreign") return undefined;
  return {
    family,
    scope,
    kind: "foreign_grants",
    severity: "warning",
    path: read.path,
    message: `${read.path} was not written by gjc for you (${read.problem}); none of its sandbox grants apply.`,
    fix: "Nothing is done automatically: look at it, remove it, and grant again with gjc plugin allow.",
    fixable: false,
    command: `rm ${read.path}`,
  };
}
