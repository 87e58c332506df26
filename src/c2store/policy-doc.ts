/**
 * `plugin-config.json` (c2-notes §7.1): durable user and project intent for bundle runtimes.
 *
 *   { "schema_version": 1, "revision": 7,
 *     "user":     { "bundle:<id>": { "state": "enabled|disabled", "config": …, "components": { "<c>": "enabled|disabled" } } },
 *     "projects": { "<normalized project path>": { "bundle:<id>": { … } } } }
 *
 * The format is closed: anything unexpected makes the document unusable, and the store then
 * falls back to the last good copy (a half-understood policy must never be acted on).
 */

export const POLICY_SCHEMA_VERSION = 1;

export type PolicyState = "enabled" | "disabled";
export type RequestedState = PolicyState | "inherit";

export interface PluginPolicy {
  /** Absent means inherit. */
  state?: PolicyState;
  /** Absent means inherit; any JSON value (bundle runtimes declare no config schema in 1.2.0). */
  config?: unknown;
  /** Per-component overrides; absent means inherit. */
  components?: Record<string, PolicyState>;
}

export type PolicyMap = Record<string, PluginPolicy>;

export interface PolicyDocument {
  schema_version: 1;
  revision: number;
  user: PolicyMap;
  projects: Record<string, PolicyMap>;
}

export function emptyPolicy(revision = 0): PolicyDocument {
  return { schema_version: POLICY_SCHEMA_VERSION, revision, user: {}, projects: {} };
}

const PLUGIN_KEY = /^[A-Za-z0-9_.:-]{1,200}$/;
const COMPONENT_KEY = /^[A-Za-z0-9_.:-]{1,300}$/;

class PolicyFormatError extends Error {}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function fail(message: string): never {
  throw new PolicyFormatError(message);
}

function checkKeys(value: Record<string, unknown>, allowed: readonly string[], where: string): void {
  for (const key of Object.keys(value)) if (!allowed.includes(key)) fail(`${where} has an unknown field "${key}"`);
}

function parseState(value: unknown, where: string): PolicyState {
  if (value !== "enabled" && value !== "disabled") fail(`${where} must be "enabled" or "disabled"`);
  return value;
}

function parsePluginPolicy(value: unknown, where: string): PluginPolicy {
  if (!isObject(value)) fail(`${where} must be an object`);
  checkKeys(value, ["state", "config", "components"], where);
  const out: PluginPolicy = {};
  if (value.state !== undefined) out.state = parseState(value.state, `${where}.state`);
  if ("config" in value) out.config = value.config;
  if (value.components !== undefined) {
    if (!isObject(value.components)) fail(`${where}.components must be an object`);
    const components: Record<string, PolicyState> = {};
    for (const [k, v] of Object.entries(value.components)) {
      if (!COMPONENT_KEY.test(k)) fail(`${where}.components has an invalid component id`);
      components[k] = parseState(v, `${where}.components.${k}`);
    }
    out.components = components;
  }
  return out;
}

function parsePolicyMap(value: unknown, where: string): PolicyMap {
  if (!isObject(value)) fail(`${where} must be an object`);
  const out: PolicyMap = {};
  for (const [k, v] of Object.entries(value)) {
    if (!PLUGIN_KEY.test(k)) fail(`${where} has an invalid plugin id`);
    out[k] = parsePluginPolicy(v, `${where}.${k}`);
  }
  return out;
}

export type ParseResult = { ok: true; doc: PolicyDocument } | { ok: false; error: string };

/** Parses and checks a policy document; never throws. */
export function parsePolicyDocument(text: string): ParseResult {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `not valid JSON (${(error as Error).message})` };
  }
  try {
    if (!isObject(raw)) fail("the document must be a JSON object");
    if (raw.schema_version !== POLICY_SCHEMA_VERSION) fail(`plugin configuration schema ${JSON.stringify(raw.schema_version)} is not supported`);
    checkKeys(raw, ["schema_version", "revision", "user", "projects"], "the document");
    const revision = raw.revision;
    if (typeof revision !== "number" || !Number.isSafeInteger(revision) || revision < 0) fail("revision must be a non-negative integer");
    const user = raw.user === undefined ? {} : parsePolicyMap(raw.user, "user");
    const projects: Record<string, PolicyMap> = {};
    if (raw.projects !== undefined) {
      if (!isObject(raw.projects)) fail("projects must be an object");
      for (const [path, map] of Object.entries(raw.projects)) {
        if (!path.startsWith("/") && !/^[A-Za-z]:[\\/]/.test(path)) fail("projects keys must be absolute paths");
        projects[path] = parsePolicyMap(map, `projects[${JSON.stringify(path)}]`);
      }
    }
    return { ok: true, doc: { schema_version: POLICY_SCHEMA_VERSION, revision, user, projects } };
  } catch (error) {
    if (error instanceof PolicyFormatError) return { ok: false, error: error.message };
    throw error;
  }
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
        next.components = Object.fromEntries(Object.keys(p.components).sort().map((c) => [c, p.components![c]]));
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
