import { dirname, join, resolve } from "node:path";

/**
 * `gjc plugin session --json` answered before the CLI is loaded: hosts run it at every
 * session start. Only the plain form (`--json`, optionally `--project <dir>`) qualifies;
 * anything else (help, human output, --check-runtime, an unknown option) returns undefined
 * and goes through the full CLI, as does any error. The document is built by the same code
 * as the verb's (sessionDocument), except with nothing installed, where it is written out
 * here without loading anything (a test holds the two to the same bytes).
 */
export async function fastSession(
  args: string[],
  env: Record<string, string | undefined>,
  cwd: string,
): Promise<{ text: string; exit: number } | undefined> {
  let json = false;
  let project: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--json" && !json) json = true;
    else if (a === "--project" && project === undefined && i + 1 < args.length && !args[i + 1].startsWith("-"))
      project = args[++i];
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
  const present = await Promise.all([registryState(userRoot), registryState(projectRoot)]);
  if (present.includes("other")) return undefined;
  if (present.includes("present")) return fullSession(env, cwd, project);
  return { text: emptyDocument(projectDir, userRoot, projectRoot), exit: 0 };
}

/** Bun.file().lastModified when the path cannot be stat'ed (it never throws). */
const cannotStat = (ms: number) => !Number.isFinite(ms) || ms <= 0 || ms >= 2 ** 52 - 1;

/**
 * Whether a scope has a registry, without node:fs (loading it costs about a millisecond, as
 * much as the whole empty answer) and without Bun.file().stat() (as costly): exists() says
 * "a regular file", lastModified tells "something else is there" from "nothing could be
 * stat'ed". In the latter case the nearest existing ancestor decides: a directory means the
 * registry is simply absent (ENOENT, an empty plan, as the full path finds); a file in the
 * way (ENOTDIR) is the full path's business.
 */
async function registryState(root: string): Promise<"absent" | "present" | "other"> {
  const file = Bun.file(join(root, "registry.json"));
  if (await file.exists()) return "present";
  if (!cannotStat(file.lastModified)) return "other";
  for (let dir = root; ; dir = dirname(dir)) {
    const at = Bun.file(dir);
    if (!cannotStat(at.lastModified)) return (await at.exists()) ? "other" : "absent";
    if (dir === dirname(dir)) return "other";
  }
}

async function fullSession(
  env: Record<string, string | undefined>,
  cwd: string,
  project: string | undefined,
): Promise<{ text: string; exit: number } | undefined> {
  try {
    const [{ createContext }, { startSession }, { sessionDocument }] = await Promise.all([
      import("../core/context.ts"),
      import("./session.ts"),
      import("./document.ts"),
    ]);
    const { json, exit } = sessionDocument(await startSession(createContext({ env, cwd }), { project }));
    return { text: JSON.stringify(json, null, 2), exit };
  } catch {
    // Errors are reported by the full CLI, which runs the session again.
    return undefined;
  }
}

function emptyDocument(projectDir: string, userRoot: string, projectRoot: string): string {
  const none = (names: string[]) => Object.fromEntries(names.map((n) => [n, ""]));
  const agents = ["executor", "architect", "planner", "critic"];
  return JSON.stringify(
    {
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
      advertisements: {
        skills: none(["autoresearch", "deep-interview", "ralplan", "ultragoal"]),
        agents: none(agents),
      },
      subskills: [],
      tools: [],
      hooks: [],
      mcpServers: [],
      diagnostics: [],
      runtimeCheck: null,
      persistedQuarantine: 0,
    },
    null,
    2,
  );
}
