/** Public surface of the sources layer; see types.ts for the contract and the error codes. */
export type { FetchedSource, FetchOptions, NetworkOverrides, SourceRecord, SourceSpec } from "./types.ts";
export { parseSourceSpec, isTarballName } from "./parse-spec.ts";
export { fetchSource } from "./fetch-source.ts";
export { specFromRecord } from "./spec-from-record.ts";
export { redactUrl, redactText, storableUrl } from "./redact.ts";
export { isFullSha } from "./git-ref.ts";
