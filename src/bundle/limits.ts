/** Budgets a bundle must fit in; one set per family (DESIGN §2 items 4 and 14). */
export interface BundleLimits {
  maxFiles: number;
  maxFileBytes: number;
  maxTotalBytes: number;
  /** Deepest allowed directory (the root is depth 0). */
  maxDepth: number;
  /** Longest bundle-relative path in UTF-8 bytes, when the family has one. */
  maxPathBytes?: number;
  /** Directory names never collected, at any depth. */
  skipDirs: ReadonlySet<string>;
}

const MiB = 1024 * 1024;

export const C2_LIMITS: BundleLimits = {
  maxFiles: 5000,
  maxFileBytes: 4 * MiB,
  maxTotalBytes: 20 * MiB,
  maxDepth: 12,
  // gjc-log: a release log kept beside the bundle records the bundle's digest, so it cannot be part of it.
  skipDirs: new Set([".git", "node_modules", "target", ".venv", "gjc-log"]),
};

export const GJC_LIMITS: BundleLimits = {
  maxFiles: 8192,
  maxFileBytes: 16 * MiB,
  maxTotalBytes: 128 * MiB,
  maxDepth: 32,
  maxPathBytes: 1024,
  skipDirs: new Set([".git", "node_modules", "target", ".venv"]),
};

/** C2 caps skills + prompt commands + agents + MCP servers at this many components. */
export const C2_MAX_COMPONENTS = 100;
