import { randomHex } from "../../core/random.ts";
import { join } from "node:path";
import { gjcProjectRoot, gjcUserRoot, type Context } from "../../core/context.ts";
import type { Scope } from "../../core/scope.ts";

/**
 * What lives in a GJC scope root, and the names only gjc ever creates there:
 *
 *   registry.json              the commit point: what is installed
 *   registry.last-good.json    a copy of the last registry we committed (doctor restores it)
 *   registry.index.json        list's summaries of registry.json, bound to its hash (disposable)
 *   registry.lock              held while a command changes the scope
 *   mcp-pins.json              pinned MCP tool definitions (src/mcp/pins.ts)
 *   grants.json                sandbox grants of the scope's bundles (src/store/grants.ts)
 *   <name>@<id>/               one immutable content directory per install
 *   .staging-<name>-<token>/   a content directory being written (renamed into place)
 *   .trash-<token>/            a directory on its way out (renamed aside, then removed)
 *   .registry.json.tmp-*       a registry being written (renamed over registry.json)
 *
 * Everything transient starts with a dot and carries a pattern below, so cleanup can tell our
 * leftovers from anything else, and never touches the latter.
 */
export const REGISTRY_FILE = "registry.json";
export const LAST_GOOD_FILE = "registry.last-good.json";
export const LOCK_FILE = "registry.lock";
export const INDEX_FILE = "registry.index.json";
/** MCP tool pins (src/mcp/pins.ts), written by gjc plugin mcp probe/accept and verify --mcp. */
export const MCP_PINS_FILE = "mcp-pins.json";
/** Sandbox grants (src/store/grants.ts), written by gjc plugin allow. */
export const GRANTS_FILE = "grants.json";
/** A registry (or its list index) larger than this was not written by us: a full install of 8,192 files is ~2 MiB of entry. */
export const MAX_REGISTRY_BYTES = 64 * 1024 * 1024;

export const CONTENT_DIR = /^([a-zA-Z0-9][a-zA-Z0-9._-]{0,127})@([0-9a-f]{12})$/;
export const STAGING_DIR = /^\.staging-.+-\d+-[0-9a-f]{8,}$/;
export const TRASH_DIR = /^\.trash-\d+-[0-9a-f]{8,}$/;
/** Temp files of writeFileAtomic (`.<name>.tmp-<pid>-<rand>`) and of the lock (`.registry.lock.<token>.tmp`), and stale locks set aside. */
export const TEMP_FILE =
  /^(\.(registry\.json|registry\.last-good\.json|registry\.index\.json|mcp-pins\.json|grants\.json)\.tmp-\d+-[0-9a-z]+|\.registry\.lock\.\d+-[0-9a-f]+\.tmp|registry\.lock\.stale-\d+-[0-9a-f]+)$/;

export function scopeRoot(ctx: Context, scope: Scope): string {
  return scope === "user" ? gjcUserRoot(ctx) : gjcProjectRoot(ctx.cwd);
}

/** The mode a content directory holds a file with: 0755 if any execute bit was set, else 0644. */
export const installedMode = (mode: number) => ((mode & 0o111) !== 0 ? 0o755 : 0o644);

export const registryPath = (root: string) => join(root, REGISTRY_FILE);
export const lastGoodPath = (root: string) => join(root, LAST_GOOD_FILE);

export { randomHex };

/** A fresh content directory name: the content fingerprint's head, plus randomness so a repair never reuses a dir. */
export function contentDirName(name: string, fingerprint: string): string {
  return `${name}@${fingerprint.slice(0, 6)}${randomHex(6)}`;
}

export function stagingDirName(name: string): string {
  return `.staging-${name}-${process.pid}-${randomHex(12)}`;
}

export function trashDirName(): string {
  return `.trash-${process.pid}-${randomHex(12)}`;
}

export const scopeLabel = (scope: Scope) => (scope === "user" ? "the user scope" : "the project scope");
export const scopeFlag = (scope: Scope) => (scope === "user" ? "--user" : "--project");
