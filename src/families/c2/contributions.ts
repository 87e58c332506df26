/**
 * What a C2 bundle contributes (c2-notes §3.5): the Agent Plugins content found by file
 * convention (skills, agents, prompt commands, mcp.json), scaffolds, scenes and pipelines,
 * the inventoried-but-unsupported hooks and monitors, and what the manifest declares
 * (runtime, runtime commands, UI actions, connectors, language servers).
 *
 * Symlinks: a link inside a contribution location (skills/, agents/, commands/, scenes/,
 * mcp.json, hooks/hooks.json, monitors/monitors.json) is an error, because the contribution
 * would point through it (DESIGN §2 item 4); links elsewhere are simply not copied.
 */
import type { Code } from "../../core/codes.ts";
import { jsonErrorPath, parseBoundedJson } from "../../bundle/json.ts";
import { lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { C2_LIMITS, C2_MAX_COMPONENTS } from "../../bundle/limits.ts";
import { readRegularFile } from "../../bundle/read-file.ts";
import type { DiagnosticSink } from "../../core/diagnostics.ts";
import { isGjcError } from "../../core/errors.ts";
import type { ComponentSummary } from "../types.ts";
import { parseFrontmatter, type MarkdownDoc } from "./frontmatter.ts";
import { slugHash } from "./ids.ts";
import { checkMcpConfig, MCP_FILE, type C2McpServer } from "./mcp.ts";
import { C2_NAMESPACE, MANIFEST_FILE, UNSUPPORTED_KINDS } from "./rules.ts";
import { SCENE_SCHEMA_IDS, sceneProblems } from "./scenes.ts";
import type { C2Manifest } from "./types.ts";

export interface C2Counts {
  skills: number;
  commands: number;
  subagents: number;
  mcpServers: number;
  scaffolds: number;
  scenes: number;
  pipelines: number;
  hooks: number;
  monitors: number;
  runtime: number;
  runtimeCommands: number;
  ui: number;
  connectors: number;
  languageServers: number;
}

export interface C2Skill {
  name: string;
  description: string;
  /** Bundle-relative path of SKILL.md. */
  path: string;
  /** slug-hash of the skill directory: the local part of `<id>:skill:<local>`. */
  localId: string;
}

export interface C2PromptCommand {
  name: string;
  description: string;
  path: string;
  localId: string;
}

export interface C2Agent {
  name: string;
  description: string;
  model?: string;
  tools?: string[];
  path: string;
  localId: string;
}

export interface C2Scaffold {
  /** slug-hash of `<container>/<dir>`. */
  id: string;
  path: string;
  name: string;
  description: string;
  files: number;
}

export interface C2Contributions {
  counts: C2Counts;
  skills: C2Skill[];
  promptCommands: C2PromptCommand[];
  agents: C2Agent[];
  mcpServers: C2McpServer[];
  scaffolds: C2Scaffold[];
  scenes: string[];
  pipelines: string[];
  hooks: string[];
  monitors: string[];
  /** Extension components with whether they can run (c2-notes §3.5). */
  components: ComponentSummary[];
}

const SKILL_NAME = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;
const MAX_MARKDOWN = 100;
const MAX_WALK_DEPTH = 12;
const C2_AT = `${MANIFEST_FILE}#/extensions/${C2_NAMESPACE}`;

/** Contributions this host actually serves (everything but the stored-but-unsupported kinds). */
export function supportedContributions(c: object): number {
  let total = 0;
  for (const [k, n] of Object.entries(c as Record<string, number>)) if (!UNSUPPORTED_KINDS.includes(k)) total += n;
  return total;
}

/** Every inventoried item, supported or only stored (what makes a bundle non-empty). */
export function totalContributions(c: C2Counts): number {
  let total = 0;
  for (const n of Object.values(c)) total += n;
  return total;
}

type Kind = "missing" | "file" | "dir" | "link" | "special";
function kindOf(abs: string): Kind {
  let st;
  try {
    st = lstatSync(abs);
  } catch {
    return "missing";
  }
  if (st.isSymbolicLink()) return "link";
  if (st.isDirectory()) return "dir";
  return st.isFile() ? "file" : "special";
}

function linkError(sink: DiagnosticSink, rel: string): void {
  sink.error(
    "unsafe_path",
    rel,
    `${rel} is a symbolic link inside a contribution location.`,
    "Ship the real file or directory; links are never followed or copied.",
  );
}

/** Reads a small contribution file; failures the collector also reports (size) stay silent here. */
function readText(dir: string, rel: string, sink: DiagnosticSink): string | undefined {
  try {
    return new TextDecoder().decode(readRegularFile(join(dir, rel), C2_LIMITS.maxFileBytes, rel).bytes);
  } catch (error) {
    if (!isGjcError(error)) throw error;
    if (error.code !== "file_too_large") sink.error(error.code, rel, error.message, error.hint);
    return undefined;
  }
}

function readMarkdown(dir: string, rel: string, sink: DiagnosticSink, warnCode: Code): MarkdownDoc | undefined {
  const text = readText(dir, rel, sink);
  if (text === undefined) return undefined;
  const parsed = parseFrontmatter(text);
  if (!parsed.ok) {
    sink.warning(
      warnCode,
      rel,
      `${rel} is skipped: ${parsed.reason}.`,
      "Fix the frontmatter between the two --- lines.",
    );
    return undefined;
  }
  return parsed.doc;
}

const str = (v: unknown): string => (typeof v === "string" ? v.trim() : "");

/** An agent's `tools`: a YAML list (each as a string) or a comma-separated string. */
function toolList(v: unknown): string[] | undefined {
  if (Array.isArray(v)) return v.map(String);
  if (typeof v !== "string") return undefined;
  return v
    .split(",")
    .map((part) => part.trim())
    .filter((t) => t !== "");
}

export function inventoryC2Contributions(
  dir: string,
  manifest: C2Manifest | undefined,
  sink: DiagnosticSink,
): C2Contributions {
  const errorsBefore = sink.errors().length;
  const skills = findSkills(dir, sink);
  const promptCommands: C2PromptCommand[] = [];
  for (const rel of findMarkdown(dir, "commands", sink)) {
    const doc = readMarkdown(dir, rel, sink, "invalid_prompt_command");
    if (!doc) continue;
    if (doc.body.trim() === "") {
      sink.warning(
        "empty_command",
        rel,
        `${rel} has no body and is skipped.`,
        "Write the prompt below the frontmatter.",
      );
      continue;
    }
    const stem = rel.slice(rel.lastIndexOf("/") + 1).replace(/\.md$/, "");
    promptCommands.push({
      name: str(doc.data.name) || stem,
      description: str(doc.data.description),
      path: rel,
      localId: slugHash(rel),
    });
  }
  const agents: C2Agent[] = [];
  for (const rel of findMarkdown(dir, "agents", sink)) {
    const doc = readMarkdown(dir, rel, sink, "invalid_agent");
    if (!doc || doc.body.trim() === "") continue; // the reference skips empty agents silently
    const stem = rel.slice(rel.lastIndexOf("/") + 1).replace(/\.md$/, "");
    const tools = toolList(doc.data.tools);
    agents.push({
      name: str(doc.data.name) || stem,
      description: str(doc.data.description),
      ...(str(doc.data.model) ? { model: str(doc.data.model) } : {}),
      ...(tools ? { tools } : {}),
      path: rel,
      localId: slugHash(rel),
    });
  }
  const mcpServers = findMcp(dir, sink);

  const componentCount = skills.length + promptCommands.length + agents.length + mcpServers.length;
  if (componentCount > C2_MAX_COMPONENTS) {
    sink.error(
      "too_many_components",
      ".",
      `The bundle has ${componentCount} skills, prompt commands, agents and MCP servers; the limit is ${C2_MAX_COMPONENTS}.`,
      "Split it into several bundles.",
    );
  }

  const scaffolds = [...findScaffolds(dir, "scaffolds", sink), ...findScaffolds(dir, "templates", sink)];
  const { scenes, pipelines } = findScenes(dir, sink);
  const hooks = findUnsupported(dir, "hooks/hooks.json", "Hooks", sink);
  const monitors = findUnsupported(dir, "monitors/monitors.json", "Monitors", sink);

  const c2 = manifest?.codetwo;
  const counts: C2Counts = {
    skills: skills.length,
    commands: promptCommands.length,
    subagents: agents.length,
    mcpServers: mcpServers.length,
    scaffolds: scaffolds.length,
    scenes: scenes.length,
    pipelines: pipelines.length,
    hooks: hooks.length,
    monitors: monitors.length,
    runtime: c2?.runtime ? 1 : 0,
    runtimeCommands: c2?.commands.length ?? 0,
    ui: c2?.ui.length ?? 0,
    connectors: c2?.connectors.length ?? 0,
    languageServers: c2?.languageServers.length ?? 0,
  };

  const unsupported = (kind: ComponentSummary["kind"], paths: string[]): ComponentSummary[] =>
    paths.map((p) => ({ kind, name: p, path: p, status: "unsupported" }));
  const components: ComponentSummary[] = [
    ...(c2?.commands ?? []).map(
      (c, i): ComponentSummary => ({ kind: "command", name: c.id, path: `${C2_AT}/commands/${i}`, status: "ready" }),
    ),
    ...(c2?.languageServers ?? []).map(
      (l, i): ComponentSummary => ({
        kind: "lsp",
        name: l.id,
        path: `${C2_AT}/languageServers/${i}`,
        status: "requires-trust",
      }),
    ),
    ...unsupported("hook", hooks),
    ...unsupported("monitor", monitors),
    ...unsupported("scene", scenes),
    ...unsupported("pipeline", pipelines),
    ...(c2?.ui ?? []).map(
      (a, i): ComponentSummary => ({
        kind: "ui",
        name: `${a.id}@${a.slot}`,
        path: `${C2_AT}/ui/${i}`,
        status: "requires-trust",
      }),
    ),
    ...(c2?.connectors ?? []).map(
      (c, i): ComponentSummary => ({
        kind: "connector",
        name: `${c.id}@${c.provider}`,
        path: `${C2_AT}/connectors/${i}`,
        status: "requires-trust",
      }),
    ),
  ];

  if (c2?.runtime) {
    sink.warning(
      "runtime.requires_trust",
      `${C2_AT}/runtime`,
      "This bundle ships a process runtime; it runs only after you trust the plugin.",
      "Review the code, then trust it with gjc plugin trust <name>. Installing never runs it.",
    );
  }
  // A broken contribution (say an invalid mcp.json) is already an error; "nothing
  // supported" on top of it would send the author looking in the wrong place.
  if (manifest && totalContributions(counts) === 0 && sink.errors().length === errorsBefore) {
    sink.error(
      "no_components",
      ".",
      "The bundle does not contain a supported C2 component.",
      "Add a skill (skills/<name>/SKILL.md), an agent, a prompt command, mcp.json, a scene, a scaffold, or declare commands with a runtime.",
    );
  }
  return {
    counts,
    skills,
    promptCommands,
    agents,
    mcpServers,
    scaffolds,
    scenes,
    pipelines,
    hooks,
    monitors,
    components,
  };
}

/** skills/<name>/SKILL.md, exactly one level deep. */
function findSkills(dir: string, sink: DiagnosticSink): C2Skill[] {
  const kind = kindOf(join(dir, "skills"));
  if (kind === "missing") return [];
  if (kind === "link") {
    linkError(sink, "skills");
    return [];
  }
  if (kind !== "dir") {
    sink.error(
      "agent_skills_location_invalid",
      "skills",
      "skills is not a directory.",
      "Put each skill in skills/<name>/SKILL.md.",
    );
    return [];
  }
  const out: C2Skill[] = [];
  for (const name of safeReaddir(dir, "skills", sink)) {
    const relDir = `skills/${name}`;
    const k = kindOf(join(dir, relDir));
    if (k === "link") {
      linkError(sink, relDir);
      continue;
    }
    if (k !== "dir" || C2_LIMITS.skipDirs.has(name)) continue;
    const rel = `${relDir}/SKILL.md`;
    const fk = kindOf(join(dir, rel));
    if (fk === "missing") continue;
    if (fk === "link") {
      linkError(sink, rel);
      continue;
    }
    if (fk !== "file") continue;
    const doc = readMarkdown(dir, rel, sink, "invalid_agent_skill");
    if (!doc) continue;
    const skillName = doc.data.name;
    const description = doc.data.description;
    if (typeof skillName !== "string" || !SKILL_NAME.test(skillName)) {
      sink.warning(
        "invalid_agent_skill",
        rel,
        `${rel} is skipped: its frontmatter name ${skillName === undefined ? "is missing" : `${JSON.stringify(skillName)} is not 1-64 lowercase letters, digits and '-' (not at the ends)`}.`,
        "Give the skill a name such as review-code.",
      );
      continue;
    }
    if (typeof description !== "string" || description.trim() === "") {
      sink.warning(
        "invalid_agent_skill",
        rel,
        `${rel} is skipped: its frontmatter has no description.`,
        "Add a description saying when to use the skill.",
      );
      continue;
    }
    if (doc.body.trim() === "") {
      sink.warning(
        "empty_skill",
        rel,
        `${rel} has no instructions below the frontmatter and is skipped.`,
        "Write the skill's instructions.",
      );
      continue;
    }
    out.push({ name: skillName, description: description.trim(), path: rel, localId: slugHash(relDir) });
  }
  return out;
}

function safeReaddir(dir: string, rel: string, sink: DiagnosticSink): string[] {
  try {
    return readdirSync(join(dir, rel)).sort();
  } catch (error) {
    sink.error(
      rel === "skills" ? "agent_skills_location_invalid" : "unreadable_directory",
      rel,
      `${rel} could not be read (${(error as NodeJS.ErrnoException).code}).`,
    );
    return [];
  }
}

/**
 * The *.md files directly inside a top folder (agents/, commands/), at most 100. The standard
 * names them `agents/*.md` and `commands/*.md`: one level. Files in deeper folders are ordinary
 * bundle files (stored, never contributions), so a link down there is not a contribution's
 * either; only a link in the folder itself named *.md is one.
 */
function findMarkdown(dir: string, top: string, sink: DiagnosticSink): string[] {
  const kind = kindOf(join(dir, top));
  if (kind === "missing" || kind === "file" || kind === "special") return [];
  if (kind === "link") {
    linkError(sink, top);
    return [];
  }
  const out: string[] = [];
  for (const name of safeReaddir(dir, top, sink)) {
    if (!name.endsWith(".md")) continue;
    const child = `${top}/${name}`;
    const k = kindOf(join(dir, child));
    if (k === "link") linkError(sink, child);
    else if (k === "file") {
      if (out.length === MAX_MARKDOWN) {
        sink.error(
          "too_many_components",
          top,
          `${top}/ holds more than ${MAX_MARKDOWN} Markdown files.`,
          "Split the bundle; C2 accepts at most 100 components.",
        );
        break;
      }
      out.push(child);
    }
  }
  return out;
}

function findMcp(dir: string, sink: DiagnosticSink): C2McpServer[] {
  const kind = kindOf(join(dir, MCP_FILE));
  if (kind === "missing") return [];
  if (kind === "link") {
    linkError(sink, MCP_FILE);
    return [];
  }
  if (kind !== "file") {
    sink.error(
      "invalid_mcp",
      MCP_FILE,
      "mcp.json is not a regular file.",
      "Remove it or make it the MCP configuration file.",
    );
    return [];
  }
  const text = readText(dir, MCP_FILE, sink);
  if (text === undefined) return [];
  let raw: unknown;
  try {
    raw = parseBoundedJson(text);
  } catch (error) {
    sink.error(
      "invalid_mcp",
      jsonErrorPath(MCP_FILE, error),
      `mcp.json is not valid JSON: ${(error as Error).message}`,
      "Fix the JSON syntax.",
    );
    return [];
  }
  return checkMcpConfig(raw, sink, dir);
}

/** Each real directory in scaffolds/ or templates/ holding at least one file. */
function findScaffolds(dir: string, container: string, sink: DiagnosticSink): C2Scaffold[] {
  if (kindOf(join(dir, container)) !== "dir") return [];
  const out: C2Scaffold[] = [];
  for (const name of safeReaddir(dir, container, sink)) {
    const rel = `${container}/${name}`;
    if (kindOf(join(dir, rel)) !== "dir") continue; // links here are simply not copied
    const files = countFiles(join(dir, rel), 0);
    if (files === 0) continue;
    let title = name;
    let description = "";
    if (kindOf(join(dir, rel, "scaffold.json")) === "file") {
      const text = readText(dir, `${rel}/scaffold.json`, sink);
      try {
        const meta =
          text === undefined ? {} : (parseBoundedJson(text) as { name?: unknown; description?: unknown } | null);
        if (typeof meta?.name === "string" && meta.name.trim()) title = meta.name.trim();
        if (typeof meta?.description === "string") description = meta.description.trim();
      } catch (error) {
        sink.warning(
          "invalid_scaffold",
          jsonErrorPath(`${rel}/scaffold.json`, error),
          `${rel}/scaffold.json is not valid JSON (${(error as Error).message}); the folder name is used.`,
          "Fix the JSON or remove the file.",
        );
      }
    }
    out.push({ id: slugHash(rel), path: rel, name: title, description, files });
  }
  return out;
}

function countFiles(abs: string, depth: number): number {
  if (depth > MAX_WALK_DEPTH) return 0;
  let n = 0;
  let entries;
  try {
    entries = readdirSync(abs, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const e of entries) {
    if (e.isFile()) n++;
    else if (e.isDirectory() && !C2_LIMITS.skipDirs.has(e.name)) n += countFiles(join(abs, e.name), depth + 1);
  }
  return n;
}

/**
 * Top-level scenes/*.scene.json and scenes/*.pipeline.json, judged against Agent Scenes 1.0.0
 * (scenes.ts). A broken or non-conforming one is a warning and skipped; the valid ones are
 * stored and shown as unsupported (gjc runs no scenes), with one component_unsupported warning.
 */
function findScenes(dir: string, sink: DiagnosticSink): { scenes: string[]; pipelines: string[] } {
  const scenes: string[] = [];
  const pipelines: string[] = [];
  const kind = kindOf(join(dir, "scenes"));
  if (kind === "link") linkError(sink, "scenes");
  if (kind !== "dir") return { scenes, pipelines };
  for (const name of safeReaddir(dir, "scenes", sink)) {
    const isScene = name.endsWith(".scene.json");
    if (!isScene && !name.endsWith(".pipeline.json")) continue;
    const rel = `scenes/${name}`;
    const k = kindOf(join(dir, rel));
    if (k === "link") {
      linkError(sink, rel);
      continue;
    }
    if (k !== "file") continue;
    const text = readText(dir, rel, sink);
    if (text === undefined) continue;
    let doc: unknown;
    try {
      doc = parseBoundedJson(text);
    } catch (error) {
      sink.warning(
        "invalid_scene",
        jsonErrorPath(rel, error),
        `${rel} is not valid JSON and is skipped (${(error as Error).message}).`,
        "Fix the JSON; the rest of the bundle is unaffected.",
      );
      continue;
    }
    if (typeof doc !== "object" || doc === null || Array.isArray(doc)) {
      sink.warning(
        "invalid_scene",
        rel,
        `${rel} does not hold a JSON object and is skipped.`,
        "A scene or pipeline file is one JSON object.",
      );
      continue;
    }
    const sceneKind = isScene ? "scene" : "pipeline";
    const problems = sceneProblems(sceneKind, doc);
    if (problems.length > 0) {
      sink.warning(
        "invalid_scene",
        rel,
        `${rel} does not conform to Agent Scenes 1.0.0 and is skipped: ${problems.join("; ")}.`,
        `Fix it against ${SCENE_SCHEMA_IDS[sceneKind]}; the rest of the bundle is unaffected.`,
      );
      continue;
    }
    (isScene ? scenes : pipelines).push(rel);
  }
  if (scenes.length + pipelines.length > 0) {
    sink.warning(
      "component_unsupported",
      "scenes",
      `Scenes and pipelines (${scenes.length + pipelines.length} in scenes/) conform to Agent Scenes 1.0.0 and are kept in the bundle, but gjc has no scene engine: they are stored, not supported on this host.`,
      "Nothing to do unless you rely on them; a host with a scene engine can read them from the installed bundle.",
    );
  }
  return { scenes, pipelines };
}

/** hooks/hooks.json and monitors/monitors.json: kept, shown, never run. */
function findUnsupported(dir: string, rel: string, what: string, sink: DiagnosticSink): string[] {
  const top = rel.slice(0, rel.indexOf("/"));
  const topKind = kindOf(join(dir, top));
  if (topKind === "link") {
    linkError(sink, top);
    return [];
  }
  if (topKind !== "dir") return [];
  const k = kindOf(join(dir, rel));
  if (k === "link") {
    linkError(sink, rel);
    return [];
  }
  if (k !== "file") return [];
  sink.warning(
    "component_unsupported",
    rel,
    `${what} (${rel}) are kept in the bundle but gjc has no runtime adapter for them; they will not run.`,
    "Nothing to do unless you rely on them; they are shown as unsupported.",
  );
  return [rel];
}
