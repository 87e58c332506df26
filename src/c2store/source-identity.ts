import { realpathSync } from "node:fs";
import { basename } from "node:path";
import { fnv1a32Hex } from "../bundle/hash.ts";
import { slug } from "../families/c2/ids.ts";
import type { FetchedSource, SourceRecord } from "../sources/types.ts";
import type { C2SourceKind } from "./record.ts";

/**
 * The content-source identity a C2 installed id is derived from (c2-notes §4.3). The ref or
 * commit is never part of it, so upgrading from the same place keeps the id:
 *   GitHub  `<owner>/<repo>:<root relative to the checkout>` (owner/repo as typed)
 *   local   `local/source-<fnv1a(real path)>:<slug(basename)>`
 *   other   the sources layer's identity (`git:<redacted url>[:<subpath>]`, `tarball:<…>`)
 */
export function c2SourceIdentity(fetched: Pick<FetchedSource, "record" | "identity" | "dir">): string {
  const record = fetched.record;
  switch (record.kind) {
    case "github":
      return `${record.repository}:${record.subpath ?? ""}`;
    case "path": {
      let real = record.uri;
      try {
        real = realpathSync(record.uri);
      } catch {}
      return `local/source-${fnv1a32Hex(real)}:${slug(basename(real)) || "plugin"}`;
    }
    default:
      return fetched.identity;
  }
}

export function c2SourceKind(record: SourceRecord): C2SourceKind {
  switch (record.kind) {
    case "path":
      return "local";
    case "tarball":
      return "archive";
    default:
      return record.kind;
  }
}

/** How a person could type the same source again (no credentials: the record holds none). */
export function sourceSpecOf(record: SourceRecord): string {
  switch (record.kind) {
    case "path":
      return record.uri;
    case "tarball":
      return record.uri;
    case "git":
      return record.ref ? `${record.uri}#${record.ref}` : record.uri;
    case "github":
      return record.subpath || record.ref
        ? `https://github.com/${record.repository}/tree/${record.ref ?? record.sha}/${record.subpath ?? ""}`.replace(
            /\/$/,
            "",
          )
        : record.repository;
  }
}
