/**
 * MCP tool pins: the tool definitions a server served when it was first probed (name, title,
 * description, input schema, annotations; one sha256 per tool), kept next to the installed
 * state in a gjc-written file, `mcp-pins.json` (a GJC scope root, or the C2 data directory).
 *
 * A pin belongs to one server of one installed content: `binding` digests the server's
 * declaration and the bundled code it runs. A pin whose binding no longer matches (the server
 * changed in a reinstall or upgrade) is stale: it is ignored and dropped at the next write, so a
 * reinstall clears the pins of changed servers only. Drift found by a probe or `verify --mcp` is
 * recorded on the pin (`drift`) until `gjc plugin mcp accept` re-pins.
 */
import { join } from "node:path";
import type { Static } from "typebox";
import { writeFileAtomic } from "../bundle/atomic-fs.ts";
import { GjcError, isGjcError } from "../core/errors.ts";
import { ExitCode } from "../core/exit-codes.ts";
import { canonicalDigest } from "../bundle/canonical-json.ts";
import { McpPins } from "./disk-schemas.generated.ts";
import { documentProblem } from "../store/document-problem.ts";
import type * as Schema from "./pins-schema.ts";

export { MCP_PINS_FILE as PINS_FILE } from "../families/gjc/layout.ts";
import { MCP_PINS_FILE as PINS_FILE } from "../families/gjc/layout.ts";
import { parseStateJson, readStateText, type StateText } from "../store/state-file.ts";
/** What is hashed of a tool: everything a model or a user reads about it (the tool as listed; protocol.ts McpTool is the same shape). */
export type ToolDefinition = Static<typeof Schema.ToolDefinition>;
export type ToolChange = Static<typeof Schema.ToolChange>;
export type ServerPin = Static<typeof Schema.ServerPin>;
export type Served = Static<typeof Schema.Served>;
export type ServedChange = Static<typeof Schema.ServedChange>;
export type PinFile = Static<typeof Schema.McpPinFileSchema>;

export const pinKey = (p: Pick<ServerPin, "family" | "scope" | "bundle" | "server">) =>
  `${p.family}:${p.scope}:${p.bundle}/${p.server}`;

/** The fields of a listed tool that are pinned (anything else a server adds is not). */
export function toolDefinition(t: {
  name: string;
  title?: unknown;
  description?: unknown;
  inputSchema: Record<string, unknown>;
  annotations?: unknown;
}): ToolDefinition {
  const d: ToolDefinition = { name: t.name, inputSchema: t.inputSchema };
  if (typeof t.title === "string") d.title = t.title;
  if (typeof t.description === "string") d.description = t.description;
  if (t.annotations !== null && typeof t.annotations === "object" && !Array.isArray(t.annotations))
    d.annotations = t.annotations as Record<string, unknown>;
  return d;
}

export function pinTools(tools: ToolDefinition[]): Pick<ServerPin, "tools" | "toolsDigest"> {
  const out: ServerPin["tools"] = {};
  for (const t of [...tools].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)))
    out[t.name] = { sha256: canonicalDigest(t), definition: t };
  return { tools: out, toolsDigest: canonicalDigest(Object.entries(out).map(([name, t]) => [name, t.sha256])) };
}

/** What a probe saw besides the tools. */
export interface ServedListing {
  instructions?: string;
  prompts?: { name: string; title?: string; description?: string; arguments?: unknown[] }[];
  resources?: { uri: string; name?: string; title?: string; description?: string; mimeType?: string }[];
}

/** The pinned form of a server's instructions, prompts and resources (pins-schema.ts Served). */
export function pinServed(toolsDigest: string, listing: ServedListing): Served {
  const byKey = <T>(items: T[] | undefined, key: (t: T) => string) => {
    const out: Record<string, string> = {};
    for (const item of [...(items ?? [])].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0)))
      out[key(item)] = canonicalDigest(item);
    return out;
  };
  const instructions = listing.instructions === undefined ? null : canonicalDigest(listing.instructions);
  const prompts = byKey(listing.prompts, (p) => p.name);
  const resources = byKey(listing.resources, (r) => r.uri);
  return {
    instructions,
    prompts,
    resources,
    digest: canonicalDigest([toolsDigest, instructions, Object.entries(prompts), Object.entries(resources)]),
  };
}

/** What changed in the served lists; nothing when the pin predates them (it is completed at the next accept). */
export function diffServed(pinned: Served | undefined, now: Served): ServedChange[] {
  if (pinned === undefined) return [];
  const changes: ServedChange[] = [];
  if (pinned.instructions !== now.instructions)
    changes.push({
      kind: "instructions",
      name: "instructions",
      change: pinned.instructions === null ? "added" : now.instructions === null ? "removed" : "changed",
    });
  for (const [kind, before, after] of [
    ["prompt", pinned.prompts, now.prompts],
    ["resource", pinned.resources, now.resources],
  ] as const) {
    for (const [name, d] of Object.entries(after))
      if (before[name] === undefined) changes.push({ kind, name, change: "added" });
      else if (before[name] !== d) changes.push({ kind, name, change: "changed" });
    for (const name of Object.keys(before))
      if (after[name] === undefined) changes.push({ kind, name, change: "removed" });
  }
  return changes;
}

export function diffTools(pinned: ServerPin["tools"], now: ServerPin["tools"]): ToolChange[] {
  const changes: ToolChange[] = [];
  for (const [name, t] of Object.entries(now)) {
    const old = pinned[name];
    if (!old) changes.push({ tool: name, change: "added", fields: [], before: null, after: t.definition });
    else if (old.sha256 !== t.sha256) {
      const keys = ["title", "description", "inputSchema", "annotations"] as const;
      const fields = keys.filter(
        (k) => canonicalDigest(old.definition[k] ?? null) !== canonicalDigest(t.definition[k] ?? null),
      );
      changes.push({ tool: name, change: "changed", fields, before: old.definition, after: t.definition });
    }
  }
  for (const [name, t] of Object.entries(pinned))
    if (!now[name]) changes.push({ tool: name, change: "removed", fields: [], before: t.definition, after: null });
  return changes;
}

/**
 * The pins of one root. A missing file is no pins; a file that is unreadable or not a pin file
 * is never overwritten or ignored (that would silently re-pin, or let a drifted server back
 * in): it fails closed with pins_corrupt until someone reviews and removes it.
 */
export function readPins(root: string): PinFile {
  const path = join(root, PINS_FILE);
  let read: StateText;
  try {
    read = readStateText(path);
  } catch (error) {
    throw pinsCorrupt(path, (error as Error).message);
  }
  if (read.kind === "missing") return { version: 1, servers: {} };
  if (read.kind === "foreign") throw pinsCorrupt(path, read.problem);
  const json = parseStateJson(read.text);
  if (!json.ok) throw pinsCorrupt(path, json.problem);
  const doc = json.value;
  const problem = pinFileProblem(doc);
  if (problem) throw pinsCorrupt(path, problem);
  return doc as PinFile;
}

function pinsCorrupt(path: string, why: string): GjcError {
  return new GjcError({
    code: "pins_corrupt",
    message: `The MCP tool pin file ${path} cannot be used: ${why}.`,
    hint: "gjc never overwrites it. Look at it (it may have been tampered with); removing it drops every pin of that scope, and the next probes pin afresh.",
    exit: ExitCode.refused,
  });
}

/** The shape gjc writes (src/mcp/pins-schema.ts, docs/json/mcp-pins.schema.json), naming the bad field. */
function pinFileProblem(doc: unknown): string | undefined {
  if (typeof doc !== "object" || doc === null || Array.isArray(doc) || (doc as { version?: unknown }).version !== 1)
    return "it is not a version 1 pin file";
  return documentProblem(McpPins, doc);
}

export function writePins(root: string, pins: PinFile): void {
  writeFileAtomic(join(root, PINS_FILE), `${JSON.stringify(pins, null, 2)}\n`);
}

/** One line per change, for messages: `changed echo (description)`, `added shell`, `changed prompt review`. */
export function describeToolChanges(changes: ToolChange[], served: ServedChange[] = []): string {
  const tools = changes.map((c) =>
    c.change === "changed" ? `changed ${c.tool} (${c.fields.join(", ") || "definition"})` : `${c.change} ${c.tool}`,
  );
  const rest = served.map((c) =>
    c.kind === "instructions" ? `${c.change} instructions` : `${c.change} ${c.kind} ${c.name}`,
  );
  return [...tools, ...rest].join("; ");
}

/**
 * For session plans: why this server of this installed content stays out, if it does: drift
 * recorded against its pin, or a damaged pin file for its root (fail closed).
 */
export function pinExclusion(
  root: string,
  ident: Pick<ServerPin, "family" | "scope" | "bundle" | "server">,
  binding: string,
): { code: "tool_definition_drift" | "pins_corrupt"; message: string } | undefined {
  let pins;
  try {
    pins = readPins(root);
  } catch (error) {
    if (!isGjcError(error) || error.code !== "pins_corrupt") throw error;
    return { code: "pins_corrupt", message: `MCP server "${ident.server}" is left out: ${error.message}` };
  }
  const pin = pins.servers[pinKey(ident)];
  if (!pin || pin.binding !== binding || !pin.drift) return undefined;
  return {
    code: "tool_definition_drift",
    message: `MCP server "${ident.server}" is left out: what it serves changed since it was pinned (${describeToolChanges(pin.drift.changes, pin.drift.servedChanges)}); run "gjc plugin mcp accept ${ident.bundle}/${ident.server}" after review`,
  };
}

/** The pin digest of an installed server for a session plan (a host checks what it receives against it), or null when unpinned or stale. */
export function pinDigestOf(
  root: string,
  ident: Pick<ServerPin, "family" | "scope" | "bundle" | "server">,
  binding: string,
): string | null {
  let pins;
  try {
    pins = readPins(root);
  } catch {
    return null;
  }
  const pin = pins.servers[pinKey(ident)];
  return pin && pin.binding === binding ? pinDigest(pin) : null;
}

/** The digest a pin holds a server to: what it serves when that is pinned, else its tools. */
export const pinDigest = (pin: ServerPin): string => pin.served?.digest ?? pin.toolsDigest;
