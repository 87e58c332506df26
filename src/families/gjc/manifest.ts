import type { DiagnosticSink } from "../../core/diagnostics.ts";
import { didYouMean } from "../../core/suggest.ts";
import { CANONICAL_KEYS, FORBIDDEN_KEYS, GJC_KIND, ROLE_AGENTS, SAFE_VERSION, WORKFLOW_PHASES } from "./constants.ts";
import {
  checkSafeName,
  describeValue,
  escapeKey,
  isPlainObject,
  MANIFEST_PTR,
  quote,
  requiredString,
} from "./fields.ts";
import type { ParsedManifest } from "./manifest-types.ts";
import { normalizeMcpServers } from "./mcp-alias.ts";
import { parseAppendices } from "./parse-appendices.ts";
import { parseHooks, reportClaudeHooksMap } from "./parse-hooks.ts";
import { parseMcps } from "./parse-mcps.ts";
import { parseTools } from "./parse-tools.ts";

const SKILLS = Object.keys(WORKFLOW_PHASES).join(", ");
const AGENTS = ROLE_AGENTS.join(", ");

/** Why each forbidden key is refused, and where its content belongs instead. */
const FORBIDDEN: Record<(typeof FORBIDDEN_KEYS)[number], { message: string; hint: string }> = {
  skills: {
    message: `"skills" would register new top-level skills; a GJC bundle may only extend the four workflow skills (${SKILLS}) and the four role agents (${AGENTS}).`,
    hint: 'Bind a sub-skill to an existing parent with "subskills" (SKILL.md frontmatter binds_to, phase, activation_arg), or keep a standalone skill as a loose .gjc/skills/<name>/SKILL.md (project) or ~/.gjc/agent/skills/<name>/SKILL.md (user), outside any bundle.',
  },
  agents: {
    message: `"agents" (Claude Code plugin.json vocabulary) would register top-level agents; the role agents ${AGENTS} are protected.`,
    hint: 'Bind a sub-skill to an existing agent with "subskills" (frontmatter binds_to: executor|architect|planner|critic, phase: prompt, activation_arg), or extend its prompt with "agent-appendix".',
  },
  commands: {
    message:
      '"commands" (Claude Code plugin.json vocabulary) would register slash commands, which a GJC bundle cannot do.',
    hint: "Keep the command as a loose .gjc/commands/<name> module or Markdown command file, outside the bundle.",
  },
  "slash-commands": {
    message: '"slash-commands" would register slash commands, which a GJC bundle cannot do.',
    hint: "Keep the command as a loose .gjc/commands/<name> module or Markdown command file, outside the bundle.",
  },
};

const SURFACE_ARRAYS = ["subskills", "tools", "hooks", "mcps", "system_appendix", "agent-appendix"] as const;

/**
 * Parses a decoded `gajae-plugin.json` in the documented precedence order (gjc-notes §1.2,
 * newest line): object, forbidden keys, `mcp`, unknown keys, a Claude `hooks` map, kind,
 * `mcps` with `mcpServers`, name, version, then each surface. Every rule reports into the
 * sink and parsing goes on, so one run shows every problem; only entries that parsed cleanly
 * reach the compiler.
 */
export function parseGjcManifest(sink: DiagnosticSink, raw: unknown): ParsedManifest {
  const parsed: ParsedManifest = {
    name: null,
    version: null,
    subskills: [],
    tools: [],
    hooks: [],
    mcps: [],
    systemAppendices: [],
    agentAppendices: [],
  };
  if (!isPlainObject(raw)) {
    sink.error(
      "invalid_manifest",
      MANIFEST_PTR,
      `gajae-plugin.json must hold a JSON object, not ${describeValue(raw)}.`,
      'Start from { "kind": "gajae-code-plugin", "name": "…", "version": "1.0.0" }.',
    );
    return parsed;
  }
  const at = (key: string) => `${MANIFEST_PTR}/${escapeKey(key)}`;
  // A canonical key needs no escaping (tested), so the pointers of valid manifests are built
  // without escapeKey's three regexes.
  const atKnown = (key: (typeof CANONICAL_KEYS)[number]) => `${MANIFEST_PTR}/${key}`;

  for (const key of FORBIDDEN_KEYS) {
    if (Object.hasOwn(raw, key)) sink.error("forbidden_surface", at(key), FORBIDDEN[key].message, FORBIDDEN[key].hint);
  }
  if (Object.hasOwn(raw, "mcp")) {
    sink.error(
      "unsupported_surface",
      at("mcp"),
      '"mcp" is ambiguous: it is neither the canonical "mcps" array nor the "mcpServers" map.',
      'Write "mcps": [{ "name", "transport", "command", "args", "cwd" } or { "name", "transport", "url" }], or the Claude Code style "mcpServers": { "<name>": { … } }.',
    );
  }
  for (const key of Object.keys(raw)) {
    if (
      (CANONICAL_KEYS as readonly string[]).includes(key) ||
      (FORBIDDEN_KEYS as readonly string[]).includes(key) ||
      key === "mcp"
    )
      continue;
    sink.error(
      "unsupported_surface",
      at(key),
      `${quote(key)} is not a GJC bundle key.${didYouMean(key, CANONICAL_KEYS)} Known keys: ${CANONICAL_KEYS.join(", ")}.`,
      "Remove the key or rename it to one of the known keys.",
    );
  }
  const hooksShapeOk = raw.hooks === undefined || Array.isArray(raw.hooks);
  if (!hooksShapeOk) reportClaudeHooksMap(sink, raw.hooks, at("hooks"));

  if (raw.kind === undefined)
    sink.error(
      "invalid_kind",
      at("kind"),
      `"kind" is missing; a GJC bundle declares "kind": "${GJC_KIND}".`,
      `Add "kind": "${GJC_KIND}".`,
    );
  else if (raw.kind !== GJC_KIND)
    sink.error(
      "invalid_kind",
      at("kind"),
      `"kind" is ${typeof raw.kind === "string" ? quote(raw.kind) : describeValue(raw.kind)}; a GJC bundle declares "${GJC_KIND}".`,
      `Set "kind": "${GJC_KIND}". Claude Code and C2 plugins use their own manifests (plugin.json).`,
    );

  const bothMcp = raw.mcps !== undefined && raw.mcpServers !== undefined;
  if (bothMcp)
    sink.error(
      "invalid_manifest",
      MANIFEST_PTR,
      'The manifest has both "mcps" and "mcpServers"; use one of them.',
      'Move every server into the canonical "mcps" array, or every server into the "mcpServers" map.',
    );

  parsed.name =
    checkSafeName(sink, requiredString(sink, raw, "name", "", MANIFEST_PTR), '"name"', atKnown("name")) ?? null;
  const version = requiredString(sink, raw, "version", "", MANIFEST_PTR);
  if (version !== undefined) {
    if (SAFE_VERSION.test(version)) parsed.version = version;
    else
      sink.error(
        "invalid_manifest",
        at("version"),
        `"version" is ${quote(version)}; it must be 1-64 characters of letters, digits, ".", "+", "_" or "-", starting with a letter or digit.`,
        'Use a semantic version such as "1.0.0".',
      );
  }

  const arrays: Partial<Record<(typeof SURFACE_ARRAYS)[number], unknown[]>> = {};
  for (const key of SURFACE_ARRAYS) {
    const v = raw[key];
    if (v === undefined || (key === "hooks" && !hooksShapeOk)) continue;
    if (Array.isArray(v)) arrays[key] = v;
    else sink.error("invalid_manifest", at(key), `"${key}" must be an array, not ${describeValue(v)}.`);
  }

  const subskills = arrays.subskills ?? [];
  for (let i = 0; i < subskills.length; i++) {
    const entry = subskills[i];
    if (typeof entry === "string" && entry.trim() !== "")
      parsed.subskills.push({ at: `${atKnown("subskills")}/${i}`, entry });
    else
      sink.error(
        "invalid_manifest",
        `${atKnown("subskills")}/${i}`,
        `subskills[${i}] must be the bundle-relative path of a SKILL.md file, not ${describeValue(entry)}.`,
      );
  }
  if (arrays.tools) parsed.tools = parseTools(sink, arrays.tools, atKnown("tools"));
  if (arrays.hooks) parsed.hooks = parseHooks(sink, arrays.hooks, atKnown("hooks"));
  if (!bothMcp) {
    if (raw.mcpServers !== undefined) parsed.mcps = normalizeMcpServers(sink, raw.mcpServers, atKnown("mcpServers"));
    else if (arrays.mcps) parsed.mcps = parseMcps(sink, arrays.mcps, atKnown("mcps"));
  }
  if (arrays.system_appendix)
    parsed.systemAppendices = parseAppendices(
      sink,
      arrays.system_appendix,
      atKnown("system_appendix"),
      "system_appendix",
    );
  if (arrays["agent-appendix"])
    parsed.agentAppendices = parseAppendices(
      sink,
      arrays["agent-appendix"],
      atKnown("agent-appendix"),
      "agent-appendix",
    );
  return parsed;
}
