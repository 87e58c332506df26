import { join, resolve } from "node:path";

/**
 * `gjc plugin session --json` with nothing installed, answered before the CLI is loaded:
 * hosts run it at every session start, and most machines have no bundle. Only the plain form
 * (`--json`, optionally `--project <dir>`) qualifies, and only when neither scope has a
 * registry.json (ENOENT; any other answer goes the normal way). Returns the exact document
 * the full path prints (a test holds the two to the same bytes), or undefined to fall
 * through to the full CLI. No node:fs here: loading it costs about a millisecond, as much as
 * all the rest; Bun.file().stat() follows links like the registry read of the full path.
 */
export async function emptySessionDocument(args: string[], env: Record<string, string | undefined>, cwd: string): Promise<string | undefined> {
  let json = false;
  let project: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--json" && !json) json = true;
    else if (a === "--project" && project === undefined && i + 1 < args.length && !args[i + 1].startsWith("-")) project = args[++i];
    else if (a.startsWith("--project=") && project === undefined && a.length > 10) project = a.slice(10);
    else return undefined;
  }
  if (!json) return undefined;
  // The same roots as gjcUserRoot / gjcProjectRoot (src/core/context.ts).
  let userRoot: string;
  if (env.GJC_USER_DIR) userRoot = resolve(cwd, env.GJC_USER_DIR);
  else if (env.HOME) userRoot = join(env.HOME, ".gjc", "agent", "gjc-plugins");
  else return undefined;
  const projectDir = resolve(cwd, project ?? ".");
  const projectRoot = join(projectDir, ".gjc", "gjc-plugins");
  for (const root of [userRoot, projectRoot]) {
    try {
      await Bun.file(join(root, "registry.json")).stat();
      return undefined;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") return undefined;
    }
  }
  const none = (names: string[]) => Object.fromEntries(names.map((n) => [n, ""]));
  const agents = ["executor", "architect", "planner", "critic"];
  const doc = {
    schema: "gjc/session@1",
    ok: true,
    projectDir,
    scopes: [
      { scope: "user", root: userRoot, ok: true },
      { scope: "project", root: projectRoot, ok: true },
    ],
    bundles: [],
    systemAppendix: "",
    agentAppendices: none(agents),
    // SHA-256 of the empty string: no appendix was included.
    appendixDigest: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    advertisements: { skills: none(["autoresearch", "deep-interview", "ralplan", "ultragoal"]), agents: none(agents) },
    subskills: [],
    tools: [],
    hooks: [],
    mcpServers: [],
    diagnostics: [],
    runtimeCheck: null,
    persistedQuarantine: 0,
  };
  return JSON.stringify(doc, null, 2);
}
