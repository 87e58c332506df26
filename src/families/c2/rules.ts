/**
 * The fixed vocabulary of C2 Plugin Standard 1.2.0 and Agent Plugins 1.0.0: identifiers,
 * grammars and limits. One place, so the schema, the validator and the messages agree.
 */

export const AGENT_PLUGINS_SCHEMA = "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json";
export const AGENT_PLUGINS_MCP_SCHEMA = "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json";
export const C2_STANDARD_VERSION = "1.2.0";
export const C2_NAMESPACE = "dev.codetwo";
export const MANIFEST_FILE = "plugin.json";

/** Agent Plugins 1.0.0 name: lowercase ASCII, digits, `.` and `-`; no `--` or `..`; ≤64. */
export const NAME_PATTERN = "^(?!.*(?:--|\\.\\.))[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?$";
export const NAME_MAX = 64;

/** Strict SemVer 2.0.0 (no leading zeros, no `v`, no partial versions). */
export const SEMVER_PATTERN =
  "^(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)" +
  "(?:-((?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\\.(?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?" +
  "(?:\\+([0-9a-zA-Z-]+(?:\\.[0-9a-zA-Z-]+)*))?$";
export const SEMVER = new RegExp(SEMVER_PATTERN);

/** `runtime.protocol`: a dotted version (the handshake, not this field, decides compatibility). */
export const PROTOCOL_PATTERN = "^\\d+\\.\\d+\\.\\d+(?:[-+][0-9A-Za-z.-]+)?$";

/** Command ids are `namespace.verb`: two or more dot-separated segments. */
export const COMMAND_ID_PATTERN = "^[A-Za-z0-9_-]+(?:\\.[A-Za-z0-9_-]+)+$";
export const COMMAND_ID_MAX = 128;

/** Bundle-local ids of UI actions, connectors, providers and language servers. */
export const SAFE_ID_PATTERN = "^[A-Za-z0-9_-]{1,128}$";

/** Monaco language ids, compared lower-cased. */
export const LANGUAGE_ID_PATTERN = "^[a-z0-9][a-z0-9+_.-]{0,63}$";

/**
 * Command namespaces the gjc host itself serves to runtimes (`git.status`, `plugins.list`,
 * `host.info`) or manages (`extensions.list`). The standard says a plugin MUST NOT claim
 * another subsystem's namespace; these are the ones this host owns.
 */
export const RESERVED_COMMAND_NAMESPACES = ["git", "plugins", "host", "extensions"] as const;

export const UI_SLOTS = [
  "rail.features",
  "session.header",
  "transcript.before",
  "composer.above",
  "composer.toolbar",
  "host.actions",
] as const;

/** The seed's six capabilities; `issues` and `observations` are newer than 1.2.0 and refused. */
export const CONNECTOR_CAPABILITIES = [
  "connection",
  "conversations",
  "documents",
  "tables",
  "messaging",
  "turn_notifications",
] as const;

export const SCOPES = ["user", "project"] as const;

export const TITLE_MAX = 80;
export const DESCRIPTION_MAX = 300;
export const MAX_COMMANDS = 100;
export const MAX_CONNECTORS = 100;
/** The reference sets no cap on ui[] and languageServers[]; we bound them like the others. */
export const MAX_UI = 100;
export const MAX_LANGUAGE_SERVERS = 100;
export const MAX_LANGUAGES = 16;
export const ORDER_MIN = -100;
export const ORDER_MAX = 100;

/**
 * Lengths are counted in Unicode code points: the seed says "characters"; bytes (the Rust
 * reference) would punish non-Latin titles and UTF-16 units (the TS reference) split emoji.
 */
export function codePoints(s: string): number {
  // The string iterator yields code points: a surrogate pair is one, a lone surrogate is one.
  return [...s].length;
}

/**
 * Why a text a host renders as a plain label is refused, or undefined when it is plain: the
 * standard has the host choose the markup and reject it in documents, so a tag (`<img …>`,
 * `</b>`, `<!--`), a character reference (`&lt;`, `&#60;`), a newline or any other control
 * character (C0, DEL, C1, and the Unicode line and paragraph separators) is never passed on.
 */
export function plainTextProblem(s: string): string | undefined {
  if (/[\n\r\u2028\u2029]/.test(s)) return "holds a line break";
  if (/[\u0000-\u001f\u007f-\u009f]/.test(s)) return "holds a control character";
  if (/<[A-Za-z!/?]/.test(s)) return "holds markup (a tag)";
  if (/&(#[0-9]+|#x[0-9A-Fa-f]+|[A-Za-z][A-Za-z0-9]*);/.test(s)) return "holds markup (a character reference)";
  return undefined;
}

/**
 * Contribution kinds gjc stores and shows but does not run on this host (DESIGN 6): scenes and
 * pipelines (no scene engine), hooks and monitors (no adapter). Never counted as supported.
 */
export const UNSUPPORTED_KINDS: readonly string[] = ["scenes", "pipelines", "hooks", "monitors"];
