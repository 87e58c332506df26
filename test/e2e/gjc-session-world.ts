/** A temporary world for the session e2e tests: home, user scope, project, and the CLI bound to it. */
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { runCli, type CliResult } from "../helpers/cli.ts";
import { tempDir } from "../helpers/tmp.ts";
import { writeBundle, type BundleSpec } from "../unit/gjcsession/_bundles.ts";

export interface SessionWorld {
  root: string;
  user: string;
  project: string;
  env: Record<string, string>;
  gjc(args: string[], extraEnv?: Record<string, string>): Promise<CliResult>;
  /** Writes a bundle source and installs it with the real `gjc plugin install` verb. */
  install(spec: BundleSpec, scope?: "user" | "project"): Promise<string>;
  registry(scope: "user" | "project"): any;
  cleanup(): void;
}

export function sessionWorld(binary?: string): SessionWorld {
  const t = tempDir("gjc-sess-e2e-");
  const home = join(t.path, "home");
  const user = join(t.path, "user-scope");
  const project = join(t.path, "project");
  const tmp = join(t.path, "tmp");
  for (const d of [home, project, tmp]) mkdirSync(d, { recursive: true });
  const env = { HOME: home, GJC_USER_DIR: user, GJC_C2_DATA_DIR: join(home, ".codetwo"), TMPDIR: tmp, BUN_RUNTIME_TRANSPILER_CACHE_PATH: "0" };
  const gjc = (args: string[], extraEnv: Record<string, string> = {}) => runCli(args, { cwd: project, env: { ...env, ...extraEnv }, binary });
  return {
    root: t.path,
    user,
    project,
    env,
    gjc,
    async install(spec, scope = "user") {
      const dir = writeBundle(join(t.path), spec);
      const r = await gjc(["plugin", "install", dir, `--${scope}`, "--json"]);
      if (r.exitCode !== 0) throw new Error(`install failed (${r.exitCode}): ${r.stdout}\n${r.stderr}`);
      return dir;
    },
    registry(scope) {
      const root = scope === "user" ? user : join(project, ".gjc", "gjc-plugins");
      return JSON.parse(readFileSync(join(root, "registry.json"), "utf8"));
    },
    cleanup: () => t.cleanup(),
  };
}

export const sixSurfaces: BundleSpec = {
  name: "six",
  hook: { name: "audit", event: "tool_call", target: "read", phase: "before" },
  mcp: "docs",
  subskills: [
    { name: "design", parent: "ralplan", phase: "planner", arg: "design", body: "Design body for the planner." },
    { name: "design-exec", parent: "executor", phase: "prompt", arg: "design", body: "Executor side of the design pack." },
  ],
  systemAppendix: "Follow the <domain> policy.\n",
  agentAppendix: { agent: "executor", text: "Executor appendix.\n" },
};
