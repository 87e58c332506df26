/**
 * `plugin-config.json` (c2-notes §7.1): durable user and project intent for bundle runtimes.
 *
 *   { "schema_version": 1, "revision": 7,
 *     "user":     { "bundle:<id>": { "state": "enabled|disabled", "config": …, "components": { "<c>": "enabled|disabled" } } },
 *     "projects": { "<normalized project path>": { "bundle:<id>": { … } } } }
 *
 * The format is closed (policy-doc-schema.ts): anything unexpected makes the document
 * unusable, and the store then falls back to the last good copy (a half-understood policy
 * must never be acted on).
 */
import type { Static } from "typebox";
import { Policy as PolicyDocument } from "./disk-schemas.generated.ts";
import type * as Schema from "./policy-doc-schema.ts";
import { documentProblem } from "../store/document-problem.ts";
import { parseStateJson } from "../store/state-file.ts";

export const POLICY_SCHEMA_VERSION = 1;

export type PolicyState = Static<typeof Schema.State>;
export type RequestedState = PolicyState | "inherit";
export type PluginPolicy = Static<typeof Schema.PluginPolicy>;
export type PolicyMap = Static<typeof Schema.PolicyMap>;
/** The document as parsed: both maps are always there in memory (absent on disk means empty). */
export type PolicyDocument = Required<Static<typeof Schema.PolicyDocumentSchema>>;

export function emptyPolicy(revision = 0): PolicyDocument {
  return { schema_version: POLICY_SCHEMA_VERSION, revision, user: {}, projects: {} };
}

export type ParseResult = { ok: true; doc: PolicyDocument } | { ok: false; error: string };

/** Parses and checks a policy document; never throws. */
export function parsePolicyDocument(text: string): ParseResult {
  // Bounded like bundle JSON (src/store/state-file.ts): a policy nested thousands deep is damaged, not a crash.
  const json = parseStateJson(text);
  if (!json.ok) return { ok: false, error: json.problem.replace(/^it is /, "") };
  const raw = json.value;
  if (typeof raw !== "object" || raw === null || Array.isArray(raw))
    return { ok: false, error: "the document must be a JSON object" };
  const doc = raw as Partial<PolicyDocument>;
  // A newer gjc's policy is named as such rather than field by field.
  if (doc.schema_version !== POLICY_SCHEMA_VERSION)
    return { ok: false, error: `plugin configuration schema ${JSON.stringify(doc.schema_version)} is not supported` };
  const problem = documentProblem(PolicyDocument, raw);
  if (problem !== undefined) return { ok: false, error: problem };
  return {
    ok: true,
    doc: {
      schema_version: POLICY_SCHEMA_VERSION,
      revision: doc.revision!,
      user: doc.user ?? {},
      projects: doc.projects ?? {},
    },
  };
}

/** Removes empty policies and empty project maps (c2-notes §7.1), so equal intent has one form. */
export function compactPolicy(doc: PolicyDocument): PolicyDocument {
  const compactMap = (map: PolicyMap): PolicyMap => {
    const out: PolicyMap = {};
    for (const key of Object.keys(map).sort()) {
      const p = map[key];
      const next: PluginPolicy = {};
      if (p.state !== undefined) next.state = p.state;
      if (p.config !== undefined) next.config = p.config;
      if (p.components && Object.keys(p.components).length > 0) {
        next.components = Object.fromEntries(
          Object.keys(p.components)
            .sort()
            .map((c) => [c, p.components![c]]),
        );
      }
      if (Object.keys(next).length > 0) out[key] = next;
    }
    return out;
  };
  const projects: Record<string, PolicyMap> = {};
  for (const path of Object.keys(doc.projects).sort()) {
    const map = compactMap(doc.projects[path]);
    if (Object.keys(map).length > 0) projects[path] = map;
  }
  return { schema_version: POLICY_SCHEMA_VERSION, revision: doc.revision, user: compactMap(doc.user), projects };
}

/** The bytes we write: pretty JSON with a trailing newline. */
export function serializePolicy(doc: PolicyDocument): string {
  return `${JSON.stringify(compactPolicy(doc), null, 2)}\n`;
}

/** True when two documents hold the same intent (revision ignored). */
export function samePolicyContent(a: PolicyDocument, b: PolicyDocument): boolean {
  const strip = (d: PolicyDocument) => serializePolicy({ ...d, revision: 0 });
  return strip(a) === strip(b);
}

export function clonePolicy(doc: PolicyDocument): PolicyDocument {
  return JSON.parse(JSON.stringify(doc)) as PolicyDocument;
}
