import { sourceError } from "./errors.ts";
import { isFullSha } from "./git-ref.ts";
import { hasRedactedParts } from "./redact.ts";
import type { SourceRecord, SourceSpec } from "./types.ts";

/**
 * The spec that re-resolves a stored record (upgrade). The recorded ref is followed again
 * (a branch may have moved); a recorded full-SHA ref stays a pin. A URL whose query had to be
 * redacted for storage cannot be fetched again and is refused with a hint.
 */
export function specFromRecord(record: SourceRecord): SourceSpec {
  switch (record.kind) {
    case "path":
      return { kind: "path", raw: record.uri, path: record.uri };
    case "tarball":
      if (/^https:\/\//i.test(record.uri)) {
        refuseRedacted(record.uri);
        return { kind: "tarball", raw: record.uri, location: "https", url: record.uri };
      }
      return { kind: "tarball", raw: record.uri, location: "file", path: record.uri };
    case "git": {
      refuseRedacted(record.uri);
      const spec: SourceSpec = { kind: "git", raw: record.uri, url: record.uri };
      withRef(spec, record.ref);
      if (record.subpath !== undefined) spec.subpath = record.subpath;
      return spec;
    }
    case "github": {
      const [owner, repo] = record.repository.split("/");
      const spec: SourceSpec = { kind: "github", raw: record.repository, owner, repo };
      withRef(spec, record.ref);
      if (record.subpath !== undefined) spec.subpath = record.subpath;
      return spec;
    }
  }
}

function withRef(spec: { ref?: string; pin?: string }, ref: string | undefined): void {
  if (ref === undefined) return;
  if (isFullSha(ref)) spec.pin = ref.toLowerCase();
  else spec.ref = ref;
}

function refuseRedacted(uri: string): void {
  if (hasRedactedParts(uri)) {
    throw sourceError(
      "invalid_source",
      `The recorded source ${uri} had secrets removed before it was stored and cannot be fetched again as is.`,
      "Install again from the full URL (the secret is used once and never stored).",
    );
  }
}
