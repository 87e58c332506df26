/**
 * Shared pieces of the GJC install e2e tests: a temp world (home, user scope, project, C2 data
 * dir), a valid bundle writer, and the CLI bound to that world.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { runCli, type CliResult } from "../helpers/cli.ts";
import { tempDir, writeTree, type TreeSpec } from "../helpers/tmp.ts";

export interface World {
  root: string;
  home: string;
  user: string;
  project: string;
  projectScope: string;
  env: Record<string, string>;
  cleanup(): void;
  gjc(args: string[], extra?: { env?: Record<string, string>; binary?: string; cwd?: string }): Promise<CliResult>;
}

export function makeWorld(): World {
  const t = tempDir("gjc-inst-");
  const home = join(t.path, "home");
  const user = join(home, ".gjc", "agent", "gjc-plugins");
  const project = join(t.path, "project");
  mkdirSync(home, { recursive: true });
  mkdirSync(project, { recursive: true });
  // BUN_RUNTIME_TRANSPILER_CACHE_PATH=0: bun would otherwise write its cache under $HOME, into the tree we snapshot.
  const env = { HOME: home, GJC_USER_DIR: user, GJC_C2_DATA_DIR: join(home, ".codetwo"), TMPDIR: join(t.path, "tmp"), BUN_RUNTIME_TRANSPILER_CACHE_PATH: "0" };
  // The fetch scratch root exists up front, so snapshots taken before a first fetch stay comparable.
  mkdirSync(join(env.TMPDIR, `gjc-${process.getuid?.() ?? "user"}`), { recursive: true, mode: 0o700 });
  return {
    root: t.path,
    home,
    user,
    project,
    projectScope: join(project, ".gjc", "gjc-plugins"),
    env,
    cleanup: t.cleanup,
    gjc: (args, extra = {}) => runCli(args, { cwd: extra.cwd ?? project, env: { ...env, ...extra.env }, binary: extra.binary }),
  };
}

export interface BundleOptions {
  version?: string;
  tools?: string[];
  mcps?: string[];
  /** Extra files (declared or not). */
  files?: TreeSpec;
  /** Content of every tool module (change it to make "different content"). */
  body?: string;
}

/** Writes a valid GJC bundle with one tool per name (tool files under tools/). */
export function writeBundle(dir: string, name: string, o: BundleOptions = {}): string {
  const tools = o.tools ?? [`${name.replace(/[^a-zA-Z0-9]/g, "_")}_tool`];
  const spec: TreeSpec = {
    "gajae-plugin.json": {
      kind: "gajae-code-plugin",
      name,
      version: o.version ?? "1.0.0",
      tools: tools.map((t) => ({ name: t, path: `tools/${t}.ts`, description: `The ${t} tool` })),
      ...(o.mcps ? { mcps: o.mcps.map((m) => ({ name: m, transport: "stdio", command: "bun", args: [`mcp/${m}.ts`] })) } : {}),
    },
    ...Object.fromEntries(tools.map((t) => [`tools/${t}.ts`, `${o.body ?? "export default function tool() { return 1; }"}\n// ${t}\n`])),
    ...Object.fromEntries((o.mcps ?? []).map((m) => [`mcp/${m}.ts`, `// mcp ${m}\n`])),
    ...(o.files ?? {}),
  };
  mkdirSync(dir, { recursive: true });
  return writeTree(dir, spec);
}
