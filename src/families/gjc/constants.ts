/**
 * The fixed vocabulary of a GJC bundle (`gajae-plugin.json`): the required kind, the closed
 * key set, the protected parents a bundle may extend, and the string grammars. Every rule in
 * the parser and compiler reads its constants from here.
 */
export const GJC_KIND = "gajae-code-plugin";

/** Top-level keys a manifest may carry; `mcpServers` is the accepted alias of `mcps`. */
export const CANONICAL_KEYS = [
  "agent-appendix",
  "hooks",
  "kind",
  "mcpServers",
  "mcps",
  "name",
  "subskills",
  "system_appendix",
  "tools",
  "version",
] as const;

/** Top-level keys that would register a new top-level surface; checked in this order. */
export const FORBIDDEN_KEYS = ["skills", "agents", "commands", "slash-commands"] as const;

/**
 * The seed's four workflow skills and the phases of their state machines (DESIGN item 7,
 * gjc-notes §1.4). A sub-skill binds to one (parent, phase).
 */
export const WORKFLOW_PHASES: Readonly<Record<string, readonly string[]>> = {
  autoresearch: ["intake", "research", "verdict", "complete", "failed", "cancelled", "handoff"],
  "deep-interview": ["interviewing", "handoff", "complete"],
  ralplan: ["planner", "architect", "critic", "disposition", "revision", "post-interview", "adr", "final", "handoff"],
  ultragoal: ["missing", "goal-planning", "pending", "active", "blocked", "failed", "complete", "handoff"],
};

/** The four role agents; each has exactly one phase, `prompt`. */
export const ROLE_AGENTS = ["executor", "architect", "planner", "critic"] as const;
export const AGENT_PHASES: readonly string[] = ["prompt"];

/** Names, events, targets, activation args: 1-128 of letters, digits, `.`, `_`, `-`, alnum first. */
export const SAFE_NAME = /^[a-zA-Z0-9][a-zA-Z0-9._-]{0,127}$/;
/** Versions: 1-64 of letters, digits, `.`, `+`, `_`, `-`, alnum first. */
export const SAFE_VERSION = /^[a-zA-Z0-9][a-zA-Z0-9._+-]{0,63}$/;

/**
 * The events the GJC runtime emits (gjc-notes §1.7). The seed forbids no event name beyond the
 * name grammar, and the reference accepts any, so a hook may bind to another name too: it is
 * warned about (it may never fire), not refused.
 */
export const HOOK_EVENTS = [
  "tool_call",
  "tool_result",
  "tool_execution_start",
  "tool_execution_update",
  "tool_execution_end",
  "session_start",
  "session_shutdown",
  "session_switch",
  "session_branch",
  "session_compact",
  "session_tree",
  "session_before_tree",
  "before_agent_start",
  "agent_start",
  "agent_end",
  "turn_start",
  "turn_end",
  "message_start",
  "message_update",
  "message_end",
  "input",
  "context",
  "user_bash",
  "user_python",
  "after_provider_response",
  "goal_updated",
  "todo_reminder",
  "ttsr_triggered",
  "resources_discover",
  "credential_disabled",
  "session.compacting",
] as const;

/** Runtime event families named by prefix (`auto_compaction_start`, `reasoning_summary_delta` …). */
export const HOOK_EVENT_PREFIXES = ["auto_compaction_", "auto_retry_", "reasoning_summary_"] as const;

/** Events that carry a phase: `tool_call` runs before the tool, `tool_result` after it. */
export const PHASED_EVENTS: Readonly<Record<string, "before" | "after">> = {
  tool_call: "before",
  tool_result: "after",
};

export const MCP_TRANSPORTS = ["stdio", "http", "sse"] as const;
export type McpTransport = (typeof MCP_TRANSPORTS)[number];

/**
 * Fields of a loose MCP config that a bundle server cannot carry end to end (the bundle
 * runtime starts servers with an allow-listed environment and never forwards headers).
 */
export const UNPRESERVABLE_MCP_KEYS = [
  "env",
  "auth",
  "oauth",
  "headers",
  "enabled",
  "timeout",
  "autoload",
  "noInheritEnv",
] as const;

/** Keys of one canonical entry, per surface. */
export const TOOL_KEYS = ["name", "path", "description", "sha256"] as const;
export const HOOK_KEYS = ["name", "event", "target", "phase", "path", "sha256"] as const;
export const MCP_KEYS = ["name", "transport", "command", "args", "cwd", "url", "sha256"] as const;
export const MCP_ALIAS_KEYS = ["type", "command", "args", "cwd", "url"] as const;
export const SYSTEM_APPENDIX_KEYS = ["name", "path", "content", "sha256"] as const;
export const AGENT_APPENDIX_KEYS = ["agent", "name", "path", "content", "sha256"] as const;

/** Appendix budgets from the seed: one appendix, and all of one bundle together. */
export const APPENDIX_MAX_BYTES = 8 * 1024;
export const APPENDIX_TOTAL_MAX_BYTES = 32 * 1024;
export const APPENDIX_MAX_COUNT = 32;

/** C0 controls, DEL and C1 controls: the one pattern of src/bundle/names.ts (one regex to compile). */
export { CONTROL_CHARS } from "../../bundle/names.ts";
/** The same, minus tab and line feed (allowed in Markdown bodies). */
export const BODY_CONTROL_CHARS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

export const SHA256_HEX = /^[0-9a-fA-F]{64}$/;
