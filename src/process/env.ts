/**
 * The environment of every child gjc starts (DESIGN item 10, issue #12 item 7). A child sees
 * the documented allow-list of host variables, then the values its manifest declares, then the
 * host variables the user named for that plugin (`gjc plugin trust <name> --pass-env X`).
 * Credentials and loader/preload switches never pass by any of these routes: a manifest may set
 * values, but it cannot be a way to carry a host secret (or a preload) into the child.
 */

/** Host variables every child may see: enough to find programs, write temp files, pick a locale. */
export const CHILD_ENV_ALLOW_LIST = [
  "PATH",
  "HOME",
  "USER",
  "LOGNAME",
  "SHELL",
  "LANG",
  "LANGUAGE",
  "LC_ALL",
  "LC_CTYPE",
  "LC_MESSAGES",
  "TERM",
  "TZ",
  "TMPDIR",
  "TEMP",
  "TMP",
  "SystemRoot",
  "SYSTEMROOT",
  "PATHEXT",
  "COMSPEC",
  "WINDIR",
] as const;

/** Names that change how a runtime loads code, whatever their value. */
const LOADER_NAMES = new Set([
  "NODE_OPTIONS",
  "NODE_PATH",
  "NODE_REPL_EXTERNAL_MODULE",
  "BUN_OPTIONS",
  "BUN_INSPECT",
  "BUN_INSPECT_CONNECT_TO",
  "BUN_CONFIG_REGISTRY",
  "ELECTRON_RUN_AS_NODE",
  "PYTHONSTARTUP",
  "PYTHONPATH",
  "PYTHONHOME",
  "PERL5OPT",
  "PERL5LIB",
  "RUBYOPT",
  "RUBYLIB",
  "JAVA_TOOL_OPTIONS",
  "_JAVA_OPTIONS",
  "JDK_JAVA_OPTIONS",
  "BASH_ENV",
  "ENV",
  "PROMPT_COMMAND",
  "GIT_SSH_COMMAND",
  "GIT_EXEC_PATH",
  "GIT_CONFIG_PARAMETERS",
  // Less known ways to the same end: Python imports the module a warning filter or a
  // breakpoint hook names; bash runs PS4's command substitutions once SHELLOPTS/BASHOPTS turn
  // xtrace on; Perl loads a debugger or library path; Lua runs LUA_INIT; .NET loads startup
  // hooks; glibc's iconv loads modules from GCONV_PATH; git runs a proxy command; zsh reads its
  // start-up files from ZDOTDIR; PHP reads an ini file that may auto-prepend code.
  "PYTHONWARNINGS",
  "PYTHONBREAKPOINT",
  "SHELLOPTS",
  "BASHOPTS",
  "PS4",
  "PERL5DB",
  "PERLLIB",
  "LUA_INIT",
  "LUA_PATH",
  "LUA_CPATH",
  "DOTNET_STARTUP_HOOKS",
  "GCONV_PATH",
  "GIT_PROXY_COMMAND",
  "ZDOTDIR",
  "PHPRC",
  "PHP_INI_SCAN_DIR",
]);

/** Prefixes of loader switches (`LD_PRELOAD`, `DYLD_INSERT_LIBRARIES`, `LUA_INIT_5_4`, .NET profilers) and of cloud credentials. */
const DENIED_PREFIXES = [
  "LD_",
  "DYLD_",
  "AWS_",
  "AZURE_",
  "GOOGLE_",
  "GCLOUD_",
  "GCP_",
  "NPM_CONFIG_",
  "BUN_INSPECT",
  "LUA_INIT_",
  "CORECLR_",
  "COR_",
];

/** Words that mark a credential anywhere in a name (`GITHUB_TOKEN`, `OPENAI_API_KEY`, `DB_PASSWORD`). */
const CREDENTIAL =
  /TOKEN|SECRET|PASSW(?:OR)?D|PASSPHRASE|CREDENTIAL|API_?KEY|PRIVATE_?KEY|ACCESS_?KEY|AUTH(?!OR)|COOKIE/i;

/**
 * Whether a variable may never reach a child: a credential (`*_TOKEN`, `*_KEY`, `*_SECRET`,
 * `AWS_*`, `NPM_TOKEN`, …) or a loader/preload switch (`NODE_OPTIONS`, `BUN_OPTIONS`, `LD_*`,
 * `DYLD_*`, …), or anything that is not a portable name (`[A-Za-z_][A-Za-z0-9_]*`).
 * Case-insensitive, since Windows names are.
 */
export function isDeniedEnvName(name: string): boolean {
  // A name that is not a portable one (`NODE_OPTIONS=--require ./x.js`, a NUL, a newline) would
  // be split by the child's libc at its first `=` into a different name: never passed.
  if (!ENV_NAME.test(name)) return true;
  const upper = name.toUpperCase();
  return (
    LOADER_NAMES.has(upper) ||
    DENIED_PREFIXES.some((p) => upper.startsWith(p)) ||
    CREDENTIAL.test(upper) ||
    /_KEY$|_PAT$/.test(upper)
  );
}

/** How many host variables one plugin may be given by name. */
export const MAX_PASS_ENV = 64;

/** A portable environment variable name (what `--pass-env` accepts). */
export const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export interface ChildEnvOptions {
  /** Values the manifest declares for the child (`env` of a runtime, server or language server). */
  declared?: Record<string, string>;
  /** Host variables the user passed to this plugin by name (`trust --pass-env`). */
  passEnv?: readonly string[];
  /**
   * Host variables gjc itself needs for a program of its own choosing (git's ssh agent and
   * proxy settings). Never filled from plugin data.
   */
  hostExtras?: readonly string[];
  /** Set last: values gjc itself decides (`BUN_BE_BUN`, `GIT_TERMINAL_PROMPT`, `PLUGIN_ROOT`). */
  fixed?: Record<string, string>;
}

/** What a child may see, and the names the rules kept out (for a warning). */
export interface ChildEnv {
  env: Record<string, string>;
  dropped: string[];
}

export function buildChildEnv(host: Record<string, string | undefined>, options: ChildEnvOptions = {}): ChildEnv {
  const env: Record<string, string> = {};
  const dropped: string[] = [];
  const copy = (name: string) => {
    const value = host[name];
    if (typeof value === "string") env[name] = value;
  };
  for (const name of CHILD_ENV_ALLOW_LIST) copy(name);
  for (const name of options.hostExtras ?? []) copy(name);
  for (const [name, value] of Object.entries(options.declared ?? {})) {
    if (isDeniedEnvName(name)) dropped.push(name);
    else env[name] = value;
  }
  for (const name of options.passEnv ?? []) {
    if (isDeniedEnvName(name) || !ENV_NAME.test(name)) dropped.push(name);
    else copy(name);
  }
  Object.assign(env, options.fixed ?? {});
  return { env, dropped };
}

/** The child environment when nothing is declared or passed (MCP servers, runtime checks). */
export function childEnvironment(
  host: Record<string, string | undefined>,
  fixed: Record<string, string> = {},
): Record<string, string> {
  return buildChildEnv(host, { fixed }).env;
}
