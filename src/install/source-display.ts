import { redactUrl } from "../sources/redact.ts";
import type { DocSource } from "../store/documents.ts";
import type { RegistrySource } from "./registry-types.ts";

/**
 * The recorded source for people: URLs with any userinfo or query values replaced by `***`
 * (even though we never store credentials, a hand-edited registry might), the ref, and the
 * short commit.
 */
export function sourceDisplay(source: RegistrySource): string {
  const where =
    source.kind === "github"
      ? `github:${source.repository ?? "?"}`
      : source.kind === "path"
        ? (source.uri ?? "?")
        : redactUrl(source.uri ?? "?");
  const sub = source.subpath ? `//${source.subpath}` : "";
  const ref = source.ref ? `#${source.ref}` : "";
  const sha = source.sha ? ` @${source.sha.slice(0, 12)}` : "";
  return `${where}${sub}${ref}${sha}`;
}

/** The recorded source in the documents' vocabulary (display, ref, pins; never credentials). */
export function docSource(source: RegistrySource): DocSource {
  return {
    kind: source.kind,
    display: sourceDisplay(source),
    ...(source.ref ? { ref: source.ref } : {}),
    ...(source.sha ? { sha: source.sha } : {}),
    ...(source.sha256 ? { sha256: source.sha256 } : {}),
    ...(source.subpath ? { subpath: source.subpath } : {}),
    resolvedAt: source.resolvedAt,
  };
}
