/**
 * The only host variables a bundle's stdio server sees (DESIGN item 10): enough to find
 * programs, write temp files and pick a locale, nothing that holds a credential. The child
 * never inherits the rest of the host environment.
 */
export const CHILD_ENV_ALLOW_LIST = [
  "PATH", "HOME", "USER", "LOGNAME", "SHELL", "LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "LC_MESSAGES",
  "TERM", "TZ", "TMPDIR", "TEMP", "TMP", "SystemRoot", "SYSTEMROOT", "PATHEXT", "COMSPEC", "WINDIR",
] as const;

export function childEnvironment(host: Record<string, string | undefined>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of CHILD_ENV_ALLOW_LIST) {
    const value = host[key];
    if (typeof value === "string") env[key] = value;
  }
  return env;
}

/**
 * bun flags that keep a bundle's `.env`, `bunfig.toml` (preloads!) and auto-install away from
 * a bun child we start: every bundle server, tool or hook check runs with these first.
 */
export const isolatingBunFlags = (emptyConfig: string): string[] => ["--no-env-file", "--no-install", `--config=${emptyConfig}`];

/** An empty bunfig a host can point `--config=` at without writing a file. */
export const EMPTY_CONFIG_DEVICE = process.platform === "win32" ? "NUL" : "/dev/null";
