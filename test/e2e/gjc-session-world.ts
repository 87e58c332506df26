/** The session e2e tests' world: the one sandbox (test/helpers/sandbox.ts), the CLI (or a compiled binary) bound to it, and a bundle installer. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { sandbox, type Sandbox } from "../helpers/sandbox.ts";
import { writeBundle, type BundleSpec } from "../unit/gjcsession/_bundles.ts";

export interface SessionWorld extends Sandbox {
  /** Writes a bundle source and installs it with the real `gjc plugin install` verb. */
  install(spec: BundleSpec, scope?: "user" | "project"): Promise<string>;
  registry(scope: "user" | "project"): any;
}

export function sessionWorld(binary?: string): SessionWorld {
  const s = sandbox("gjc-sess-e2e-");
  const gjc: Sandbox["gjc"] = (args, options = {}) => s.gjc(args, { binary, ...options });
  return {
    ...s,
    gjc,
    async install(spec, scope = "user") {
      const dir = writeBundle(s.root, spec);
      const r = await gjc(["plugin", "install", dir, `--${scope}`, "--json"]);
      if (r.exitCode !== 0) throw new Error(`install failed (${r.exitCode}): ${r.stdout}\n${r.stderr}`);
      return dir;
    },
    registry(scope) {
      const root = scope === "user" ? s.user : join(s.project, ".gjc", "gjc-plugins");
      return JSON.parse(readFileSync(join(root, "registry.json"), "utf8"));
    },
  };
}

export const sixSurfaces: BundleSpec = {
  name: "six",
  hook: { name: "audit", event: "tool_call", target: "read", phase: "before" },
  mcp: "docs",
  subskills: [
    { name: "design", parent: "ralplan", phase: "planner", arg: "design", body: "Design body for the planner." },
    {
      name: "design-exec",
      parent: "executor",
      phase: "prompt",
      arg: "design",
      body: "Executor side of the design pack.",
    },
  ],
  systemAppendix: "Follow the <domain> policy.\n",
  agentAppendix: { agent: "executor", text: "Executor appendix.\n" },
};
