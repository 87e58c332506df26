/**
 * bun flags that keep a bundle's `.env`, `bunfig.toml` (preloads!) and auto-install away from
 * a bun child we start: every bundle server, tool or hook check runs with these first, and so
 * does gjc itself when it re-runs from source as the sandbox's launcher stage (sandbox/self.ts).
 * The environment a child sees is decided by env.ts beside this file.
 */
export const isolatingBunFlags = (emptyConfig: string): string[] => [
  "--no-env-file",
  "--no-install",
  `--config=${emptyConfig}`,
];

/** An empty bunfig a host can point `--config=` at without writing a file. */
export const EMPTY_CONFIG_DEVICE = process.platform === "win32" ? "NUL" : "/dev/null";
