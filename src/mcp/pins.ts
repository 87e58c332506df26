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
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Static } from "typebox";
import { writeFileAtomic } from "../bundle/atomic-fs.ts";
import { GjcError, isGjcError } from "../core/errors.ts";
import { ExitCode } from "../core/exit-codes.ts";
import { canonicalDigest } from "../audit/canonical-json.ts";
import { McpPins } from "./disk-schemas.generated.ts";
import { documentProblem } from "../store/document-problem.ts";
import type * as Schema from "./pins-schema.ts";

export { MCP_PINS_FILE as PINS_FILE } from "../install/layout.ts";
import { MCP_PINS_FILE as PINS_FILE } from "../install/layout.ts";
/** What is hashed of a tool: everything a model or a user reads about it (the tool as listed; protocol.ts McpTool is the same shape). */
export type ToolDefinition = Static<typeof Schema.ToolDefinition>;
export type ToolChange = Static<typeof Schema.ToolChange>;
export type ServerPin = Static<typeof Schema.ServerPin>;
export type PinFile = Static<typeof Schema.McpPinFileSchema>;

export const pinKey = (p: Pick<ServerPin, "family" | "scope" | "bundle" | "server">) => `${p.family}:${p.scope}:${p.bundle}/${p.server}`;

/** The fields of a listed tool that are pinned (anything else a server adds is not). */
export function toolDefinition(t: { name: string; title?: unknown; description?: unknown; inputSchema: Record<string, unknown>; annotations?: unknown }): ToolDefinition {
  const d: ToolDefinition = { name: t.name, inputSchema: t.inputSchema };
  if (typeof t.title === "string") d.title = t.title;
  if (typeof t.description === "string") d.description = t.description;
  if (t.annotations !== null && typeof t.annotations === "object" && !Array.isArray(t.annotations)) d.annotations = t.annotations as Record<string, unknown>;
  return d;
}

export function pinTools(tools: ToolDefinition[]): Pick<ServerPin, "tools" | "toolsDigest"> {
  const out: ServerPin["tools"] = {};
  for (const t of [...tools].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) out[t.name] = { sha256: canonicalDigest(t), definition: t };
  return { tools: out, toolsDigest: canonicalDigest(Object.entries(out).map(([name, t]) => [name, t.sha256])) };
}

export function diffTools(pinned: ServerPin["tools"], now: ServerPin["tools"]): ToolChange[] {
  const changes: ToolChange[] = [];
  for (const [name, t] of Object.entries(now)) {
    const old = pinned[name];
    if (!old) changes.push({ tool: name, change: "added", fields: [], before: null, after: t.definition });
    else if (old.sha256 !== t.sha256) {
      const keys = ["title", "description", "inputSchema", "annotations"] as const;
      const fields = keys.filter((k) => canonicalDigest(old.definition[k] ?? null) !== canonicalDigest(t.definition[k] ?? null));
      changes.push({ tool: name, change: "changed", fields, before: old.definition, after: t.definition });
    }
  }
  for (const [name, t] of Object.entries(pinned)) if (!now[name]) changes.push({ tool: name, change: "removed", fields: [], before: t.definition, after: null });
  return changes;
}

/**
 * The pins of one root. A missing file is no pins; a file that is unreadable or not a pin file
 * is never overwritten or ignored (that would silently re-pin, or let a drifted server back
 * in): it fails closed with pins_corrupt until someone reviews and removes it.
 */
export function readPins(root: string): PinFile {
  const path = join(root, PINS_FILE);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { version: 1, servers: {} };
    throw pinsCorrupt(path, (error as Error).message);
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw pinsCorrupt(path, "it is not valid JSON");
  }
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
  if (typeof doc !== "object" || doc === null || Array.isArray(doc) || (doc as { version?: unknown }).version !== 1) return "it is not a version 1 pin file";
  return documentProblem(McpPins, doc);
}

export function writePins(root: string, pins: PinFile): void {
  writeFileAtomic(join(root, PINS_FILE), `${JSON.stringify(pins, null, 2)}\n`);
}

/** One line per change, for messages: `changed echo (description)`, `added shell`. */
export function describeToolChanges(changes: ToolChange[]): string {
  return changes.map((c) => (c.change === "changed" ? `changed ${c.tool} (${c.fields.join(", ") || "definition"})` : `${c.change} ${c.tool}`)).join("; ");
}

/**
 * For session plans: why this server of this installed content stays out, if it does: drift
 * recorded against its pin, or a damaged pin file for its root (fail closed).
 */
export function pinExclusion(root: string, ident: Pick<ServerPin, "family" | "scope" | "bundle" | "server">, binding: string): { code: "tool_definition_drift" | "pins_corrupt"; message: string } | undefined {
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
    message: `MCP server "${ident.server}" is left out: its tool definitions changed since they were pinned (${describeToolChanges(pin.drift.changes)}); run "gjc plugin mcp accept ${ident.bundle}/${ident.server}" after review`,
  };
}
