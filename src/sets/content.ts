/**
 * The content of one lock entry, found without moving its pin: the set archive (sync --from),
 * else the content cache, else (not --offline) its source at the pinned commit or archive
 * sha256. Whatever the origin, the bundle is judged again by its family (GJC compile, C2
 * plan) and its integrity recomputed from what was judged; sync compares that to the lock.
 */
import { isAbsolute, resolve } from "node:path";
import { GJC_LIMITS } from "../bundle/limits.ts";
import type { Context } from "../core/context.ts";
import { C2_MANIFEST, GJC_MANIFEST } from "../families/detect.ts";
import { GjcError } from "../core/errors.ts";
import { judgeBundle } from "../store/bundle-digest.ts";
import { compileForInstall, type CompiledBundle } from "../families/gjc/compile-for-install.ts";
import { scratchParent } from "../sources/scratch.ts";
import type { Scope } from "../install/registry-types.ts";
import type { FetchedSource, SourceRecord, SourceSpec } from "../sources/types.ts";
import { usableCacheEntry } from "../store/cache.ts";
import { integrityOf, type ContentFile } from "../store/integrity.ts";
import type { LockEntry } from "../store/plugins-lock-schema.ts";
import { ExitCode } from "../core/exit-codes.ts";

export type ContentOrigin = "set" | "cache" | "source";

export interface JudgedContent {
  entry: LockEntry;
  origin: ContentOrigin;
  /** The bundle root the content was judged from (kept until `cleanup`). */
  dir: string;
  /** Where the bundle came from, as the registry/record keeps it (resolvedAt added by the store). */
  record: SourceRecord;
  identity: string;
  display: string;
  /** Recomputed from the judged files. */
  integrity: string;
  /** Name and version from the judged manifest. */
  name: string;
  version: string;
  files: (ContentFile & { bytes: number })[];
  gjc?: CompiledBundle;
  /** A detached signature fetched beside the source. */
  signature?: { text: string; label: string };
  cleanup(): Promise<void>;
}

/** A lock source's local path on this machine: relative ones are relative to the project. */
export function localPath(ctx: Context, path: string): string {
  return isAbsolute(path) ? path : resolve(ctx.cwd, path);
}

/** The registry-style source record of a lock entry (what sync records for content from cache or set). */
export function recordOf(ctx: Context, e: LockEntry): SourceRecord {
  const s = e.source;
  switch (s.kind) {
    case "path":
      return { kind: "path", uri: localPath(ctx, s.path ?? ".") };
    case "tarball":
      return { kind: "tarball", uri: s.url ?? localPath(ctx, s.path ?? ""), sha256: e.pin.sha256 ?? "" };
    case "git": {
      const r: SourceRecord = { kind: "git", uri: s.url ?? "", sha: e.pin.commit ?? "" };
      if (s.ref !== undefined) r.ref = s.ref;
      if (s.subpath !== undefined) r.subpath = s.subpath;
      return r;
    }
    case "github": {
      const r: SourceRecord = { kind: "github", repository: s.repository ?? "", sha: e.pin.commit ?? "" };
      if (s.ref !== undefined) r.ref = s.ref;
      if (s.subpath !== undefined) r.subpath = s.subpath;
      return r;
    }
  }
}

/** The sources layer's identity of a record (C2 derives its installed id from it). */
function identityOf(r: SourceRecord): string {
  switch (r.kind) {
    case "path":
      return `path:${r.uri}`;
    case "tarball":
      return `tarball:${r.uri}`;
    case "git":
      return `git:${r.uri}${r.subpath !== undefined ? `:${r.subpath}` : ""}`;
    case "github":
      return `github:${r.repository}:${r.subpath ?? ""}`;
  }
}

export function describeSource(e: LockEntry): string {
  const s = e.source;
  const where = s.url ?? s.repository ?? s.path ?? "";
  const at = e.pin.commit
    ? ` at ${e.pin.commit.slice(0, 12)}`
    : e.pin.sha256
      ? ` (sha256 ${e.pin.sha256.slice(0, 12)}…)`
      : "";
  return `${s.kind} ${where}${s.ref !== undefined ? `#${s.ref}` : ""}${s.subpath !== undefined ? ` (${s.subpath})` : ""}${at}`;
}

/** The spec that fetches exactly the pinned content: the commit (the ref only recorded), or the archive checked by its sha256. */
function pinnedSpec(ctx: Context, e: LockEntry): { spec: SourceSpec; expectedSha256?: string } {
  const s = e.source;
  switch (s.kind) {
    case "path": {
      const path = localPath(ctx, s.path ?? ".");
      return { spec: { kind: "path", raw: path, path } };
    }
    case "tarball":
      if (s.url !== undefined)
        return { spec: { kind: "tarball", raw: s.url, location: "https", url: s.url }, expectedSha256: e.pin.sha256 };
      return {
        spec: { kind: "tarball", raw: s.path ?? "", location: "file", path: localPath(ctx, s.path ?? "") },
        expectedSha256: e.pin.sha256,
      };
    case "git": {
      const spec: SourceSpec = { kind: "git", raw: s.url ?? "", url: s.url ?? "" };
      if (e.pin.commit) spec.pin = e.pin.commit;
      if (s.ref !== undefined) spec.ref = s.ref;
      if (s.subpath !== undefined) spec.subpath = s.subpath;
      return { spec };
    }
    case "github": {
      const [owner, repo] = (s.repository ?? "/").split("/");
      const spec: SourceSpec = { kind: "github", raw: s.repository ?? "", owner, repo };
      if (e.pin.commit) spec.pin = e.pin.commit;
      if (s.ref !== undefined) spec.ref = s.ref;
      if (s.subpath !== undefined) spec.subpath = s.subpath;
      return { spec };
    }
  }
}

/** Judges a bundle root as its family does and recomputes its integrity. */
async function judge(
  dir: string,
  e: LockEntry,
): Promise<{ files: JudgedContent["files"]; name: string; version: string; gjc?: CompiledBundle }> {
  try {
    return await judgeBundle(dir, e.family);
  } catch (error) {
    if (e.family === "c2" && (error as { code?: string }).code === "invalid_manifest") {
      throw new GjcError({
        code: "invalid_manifest",
        message: `The content for C2 bundle ${e.name} does not validate.`,
        hint: "Run gjc plugin validate on its source.",
        exit: ExitCode.failed,
      });
    }
    throw error;
  }
}

const noCleanup = async () => {};

export type Acquired = { ok: true; content: JudgedContent } | { ok: false; reason: "offline_miss" };

export async function acquireContent(
  ctx: Context,
  _scope: Scope,
  e: LockEntry,
  o: { offline?: boolean; setDir?: (integrity: string) => string | undefined; fromSource?: boolean },
): Promise<Acquired> {
  const make = async (
    dir: string,
    origin: ContentOrigin,
    record: SourceRecord,
    identity: string,
    display: string,
    cleanup: () => Promise<void>,
    signature?: JudgedContent["signature"],
  ): Promise<Acquired> => {
    try {
      const judged = await judge(dir, e);
      return {
        ok: true,
        content: {
          entry: e,
          origin,
          dir,
          record,
          identity,
          display,
          integrity: integrityOf(judged.files),
          name: judged.name,
          version: judged.version,
          files: judged.files,
          gjc: judged.gjc,
          ...(signature ? { signature } : {}),
          cleanup,
        },
      };
    } catch (error) {
      await cleanup();
      throw error;
    }
  };
  const fromSet = o.setDir?.(e.integrity);
  if (fromSet) {
    const record = recordOf(ctx, e);
    return make(fromSet, "set", record, identityOf(record), describeSource(e), noCleanup);
  }
  // Signed entries come from their source when it can be reached: the signature lives there.
  const cached = o.fromSource && !o.offline ? undefined : usableCacheEntry(ctx, e.integrity);
  if (cached) {
    const record = recordOf(ctx, e);
    return make(cached.dir, "cache", record, identityOf(record), describeSource(e), noCleanup);
  }
  if (o.offline || o.setDir) return { ok: false, reason: "offline_miss" };
  const { fetchSource } = await import("../sources/index.ts");
  const { spec, expectedSha256 } = pinnedSpec(ctx, e);
  const fetched: FetchedSource = await fetchSource(ctx, spec, {
    scratchRoot: scratchParent(ctx),
    ...(expectedSha256 !== undefined ? { expectedSha256 } : {}),
    limits: GJC_LIMITS,
    manifestNames: [GJC_MANIFEST, C2_MANIFEST],
    onProgress: (m) => ctx.log.progress(m),
  });
  return make(
    fetched.dir,
    "source",
    fetched.record,
    fetched.identity,
    fetched.display,
    () => fetched.cleanup(),
    fetched.signature,
  );
}
