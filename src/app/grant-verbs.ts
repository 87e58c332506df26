/**
 * `gjc plugin allow` and `gjc plugin permissions`: the use cases behind the two verbs. The
 * bundle is found by the store's one name resolver; a process selector must name a process the
 * installed bundle declares (its stdio MCP servers, its C2 runtime, its language servers).
 */
import type { Context } from "../core/context.ts";
import { GjcError, usageError } from "../core/errors.ts";
import { ExitCode } from "../core/exit-codes.ts";
import { LOCK_FILE, scopeLabel } from "../families/gjc/layout.ts";
import type { NetGrant, SandboxProfile, SandboxSubject } from "../process/sandbox/profile.ts";
import { judgePath, parseNetGrant, type JudgedPath } from "../store/grant-values.ts";
import {
  bundleKey,
  emptyGrantSet,
  grantsForeign,
  grantStore,
  mergeGrantSets,
  processKey,
  processOfKey,
  readGrants,
  sameGrantSet,
  writeGrants,
  type GrantFamily,
  type GrantScope,
  type GrantSet,
  type GrantsState,
  type ProjectAccess,
} from "../store/grants.ts";
import { profileOfGrants } from "../store/grants-profile.ts";
import { withStoreLock } from "../sets/grant-writes.ts";
import type { StoreSelection } from "../store/resolve.ts";
import { resolveInstalled } from "./stores.ts";

export type GrantProcess = NonNullable<SandboxSubject["process"]>;

export interface AllowRequest {
  read?: string[];
  write?: string[];
  net?: string[];
  project?: string;
  process?: GrantProcess;
  reset?: boolean;
  force?: boolean;
  dryRun?: boolean;
}

export interface GrantWarning {
  code: string;
  message: string;
}

export interface GrantedBundle {
  name: string;
  family: GrantFamily;
  scope: GrantScope;
}

export interface AllowResult {
  bundle: GrantedBundle;
  process: GrantProcess | null;
  status: "granted" | "unchanged" | "reset";
  dryRun: boolean;
  /** What is recorded for this bundle (or process) after the change. */
  grants: GrantSet;
  warnings: GrantWarning[];
}

export interface ProcessPermissions {
  process: GrantProcess;
  /** Grants recorded for this process alone. */
  grants: GrantSet;
  /** The default profile parts gjc can compute here plus every grant that applies. */
  profile: SandboxProfile;
}

export interface PermissionsResult {
  bundle: GrantedBundle & { root: string };
  grantsFile: { path: string; state: GrantsState; problem: string | null };
  /** Grants for every process of the bundle. */
  grants: GrantSet;
  processes: ProcessPermissions[];
}

interface Located {
  bundle: GrantedBundle;
  root: string;
  processes: GrantProcess[];
}

/** The installed bundle, its directory, and the processes it declares. */
async function locate(ctx: Context, name: string, sel: StoreSelection): Promise<Located> {
  const target = await resolveInstalled(ctx, name, sel);
  const family = target.adapter.family as GrantFamily;
  const [{ installedRoot }, { planAuditRoot }] = await Promise.all([
    import("../audit/audit.ts"),
    import("../families/root-capabilities.ts"),
  ]);
  const found = await installedRoot(ctx, name, family === "gjc" ? target.scope : undefined);
  const model = (await planAuditRoot(found.dir)).model;
  const processes: GrantProcess[] = [];
  for (const p of model.processes) {
    if (p.kind === "mcp-stdio") processes.push({ kind: "server", id: p.name });
    else if (p.kind === "c2-runtime") processes.push({ kind: "runtime" });
    else if (p.kind === "language-server") processes.push({ kind: "lsp", id: p.name });
  }
  // The recorded name, not what was typed (a C2 bundle may be named by its installed id).
  return { bundle: { name: model.name, family, scope: target.scope as GrantScope }, root: found.dir, processes };
}

function unknownProcess(located: Located, wanted: GrantProcess): GjcError {
  const known = located.processes.map((p) => (p.kind === "runtime" ? "--runtime" : `--${p.kind} ${p.id}`));
  return new GjcError({
    code: "unknown_process",
    message: `${located.bundle.name} has no ${wanted.kind === "runtime" ? "runtime" : `${wanted.kind === "server" ? "stdio MCP server" : "language server"} ${JSON.stringify(wanted.id)}`}.`,
    hint: known.length
      ? `Its processes: ${known.join(", ")}. Leave the selector out to grant every process of the bundle.`
      : "It starts no process of its own; a grant would have nothing to apply to.",
    details: { bundle: located.bundle.name, processes: located.processes },
    exit: ExitCode.usage,
  });
}

function refusePath(j: JudgedPath, flag: string): GjcError {
  const tooBroad = j.class === "too-broad";
  return new GjcError({
    code: tooBroad ? "grant_too_broad" : "sensitive_grant",
    message: tooBroad
      ? `--${flag} ${j.given} grants ${j.path}, which holds your whole home: the plugin could then ${flag === "write" ? "change" : "read"} your keys, tokens, browser profiles and gjc's own state, so the sandbox would no longer protect anything.`
      : `--${flag} ${j.given} grants ${j.path}, which ${j.path === j.sensitive ? "is" : "overlaps"} ${j.sensitive}: credentials, a browser profile or gjc's own state and signing key live there.`,
    hint: `Grant the one directory the plugin needs instead. If you really mean it, add --force (audit then reports it as a finding).`,
    details: { path: j.path, class: j.class, ...(j.sensitive ? { sensitive: j.sensitive } : {}) },
    exit: ExitCode.refused,
  });
}

function projectAccess(value: string | undefined): ProjectAccess | null {
  if (value === undefined) return null;
  if (value === "read" || value === "write") return value;
  throw usageError(
    `--project must be read or write, not ${JSON.stringify(value)}.`,
    "--project read lets the process read the project it runs for; --project write lets it change it too.",
    "invalid_option_value",
  );
}

/** `gjc plugin allow <name> …` and `--reset`. */
export async function allowGrants(
  ctx: Context,
  name: string,
  sel: StoreSelection,
  req: AllowRequest,
): Promise<AllowResult> {
  const wantsGrant =
    (req.read?.length ?? 0) + (req.write?.length ?? 0) + (req.net?.length ?? 0) > 0 || req.project !== undefined;
  if (req.reset && wantsGrant)
    throw usageError(
      "--reset takes back grants; it cannot be combined with --read, --write, --net or --project.",
      "Run the reset first, then grant again.",
      "invalid_option_value",
    );
  if (!req.reset && !wantsGrant)
    throw usageError(
      "Say what to allow: --read PATH, --write PATH, --net HOST[:PORT] or --project read|write, or --reset to take grants back.",
      "For example: gjc plugin allow my-bundle --net api.example.com:443",
      "missing_argument",
    );
  // Values are judged before anything is looked up, so junk is refused with nothing read or written.
  const net: NetGrant[] = (req.net ?? []).map(parseNetGrant);
  const project = projectAccess(req.project);
  const paths = [
    ...(req.read ?? []).map((p) => ({ flag: "read" as const, j: judgePath(ctx, "read", p) })),
    ...(req.write ?? []).map((p) => ({ flag: "write" as const, j: judgePath(ctx, "write", p) })),
  ];
  const warnings: GrantWarning[] = [];
  for (const { flag, j } of paths) {
    if (j.class !== "ordinary" && !req.force) throw refusePath(j, flag);
    if (j.class === "too-broad")
      warnings.push({
        code: "grant_too_broad",
        message: `--${flag} ${j.path} holds your whole home: the sandbox no longer protects your files from this plugin.`,
      });
    if (j.class === "sensitive")
      warnings.push({
        code: "sensitive_grant",
        message: `--${flag} ${j.path} reaches ${j.sensitive}, where credentials or gjc's own state live.`,
      });
    if (!j.exists)
      warnings.push({ code: "path_missing", message: `${j.path} does not exist yet; the grant applies once it does.` });
  }
  const located = await locate(ctx, name, sel).catch((error: unknown) => {
    // On allow, --project is the project grant: the scope is picked with --user or --scope.
    if (error instanceof GjcError && error.code === "ambiguous_plugin")
      throw new GjcError({
        code: error.code,
        message: error.message,
        hint: "Say which one: --user, or --scope project (and --family gjc|c2 when both families have it).",
        details: error.details,
        exit: error.exit,
      });
    throw error;
  });
  if (
    req.process &&
    !located.processes.some((p) => p.kind === req.process!.kind && (p.kind === "runtime" || p.id === req.process!.id))
  )
    throw unknownProcess(located, req.process);
  const { family, scope } = located.bundle;
  const store = grantStore(ctx, family, scope);
  const added: GrantSet = {
    read: paths.filter((p) => p.flag === "read").map((p) => p.j.path),
    write: paths.filter((p) => p.flag === "write").map((p) => p.j.path),
    net,
    project,
  };
  const change = () => {
    const current = readGrants(ctx, store);
    if (current.state === "foreign") throw grantsForeign(current);
    const key = bundleKey(family, located.bundle.name);
    const entry = current.bundles[key] ?? { bundle: emptyGrantSet(), processes: {} };
    const pkey = processKey(req.process);
    const before = pkey === undefined ? entry.bundle : (entry.processes[pkey] ?? emptyGrantSet());
    const after = req.reset ? emptyGrantSet() : mergeGrantSets(before, added);
    // A reset of the whole bundle takes back its per-process grants too.
    const dropsProcesses = req.reset === true && pkey === undefined && Object.keys(entry.processes).length > 0;
    const status: AllowResult["status"] =
      sameGrantSet(before, after) && !dropsProcesses ? "unchanged" : req.reset ? "reset" : "granted";
    if (status !== "unchanged" && !req.dryRun) {
      const next =
        pkey === undefined
          ? { ...entry, bundle: after }
          : { ...entry, processes: { ...entry.processes, [pkey]: after } };
      if (dropsProcesses) next.processes = {};
      writeGrants(ctx, store, { ...current.bundles, [key]: next });
    }
    return {
      bundle: located.bundle,
      process: req.process ?? null,
      status,
      dryRun: req.dryRun === true,
      grants: after,
      warnings,
    };
  };
  if (req.dryRun) return change();
  return withStoreLock(ctx, family, scope, store.root, change);
}

/** `gjc plugin permissions <name>`: what each process of the bundle may touch. */
export async function bundlePermissions(ctx: Context, name: string, sel: StoreSelection): Promise<PermissionsResult> {
  const located = await locate(ctx, name, sel);
  const { family, scope } = located.bundle;
  const read = readGrants(ctx, grantStore(ctx, family, scope));
  const entry = read.bundles[bundleKey(family, located.bundle.name)] ?? { bundle: emptyGrantSet(), processes: {} };
  const subjects = located.processes.length ? located.processes : [];
  const processes = subjects.map((process): ProcessPermissions => {
    const own = entry.processes[processKey(process)!] ?? emptyGrantSet();
    const granted = profileOfGrants(mergeGrantSets(entry.bundle, own), ctx.cwd, ctx.home);
    const base = defaultProfileParts(located.root);
    return {
      process,
      grants: own,
      profile: {
        read: [...new Set([...base.read, ...granted.read])],
        write: [...new Set([...base.write, ...granted.write])],
        net: granted.net,
      },
    };
  });
  // Grants recorded for a process the bundle no longer declares are still shown.
  for (const key of Object.keys(entry.processes)) {
    const process = processOfKey(key);
    if (!processes.some((p) => processKey(p.process) === key))
      processes.push({
        process,
        grants: entry.processes[key],
        profile: profileOfGrants(mergeGrantSets(entry.bundle, entry.processes[key]), ctx.cwd, ctx.home),
      });
  }
  return {
    bundle: { ...located.bundle, root: located.root },
    grantsFile: { path: read.path, state: read.state, problem: read.problem ?? null },
    grants: entry.bundle,
    processes,
  };
}

/**
 * The part of the default profile known from the store: the bundle's installed content. The
 * enforcer adds the rest (system directories, the command's interpreter, the data and private
 * temporary directories) when it builds the real profile.
 */
export function defaultProfileParts(bundleRoot: string): SandboxProfile {
  return { read: [bundleRoot], write: [], net: [] };
}
