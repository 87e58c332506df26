/**
 * Shared pieces of the GJC install e2e tests: the sandbox (test/helpers/sandbox.ts) with the
 * project scope and fetch scratch root, and a valid bundle writer.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { sandbox, type Sandbox } from "../helpers/sandbox.ts";
import { writeTree, type TreeSpec } from "../helpers/tmp.ts";

export interface World extends Sandbox {
  /** The project's GJC scope (`<project>/.gjc/gjc-plugins`). */
  projectScope: string;
}

/** The one sandbox, plus the private scratch parent made up front, so snapshots taken before a first fetch stay comparable. */
export function makeWorld(): World {
  const s = sandbox("gjc-inst-");
  mkdirSync(join(s.cache, "scratch"), { recursive: true, mode: 0o700 });
  return { ...s, projectScope: join(s.project, ".gjc", "gjc-plugins") };
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
      ...(o.mcps
        ? { mcps: o.mcps.map((m) => ({ name: m, transport: "stdio", command: "bun", args: [`mcp/${m}.ts`] })) }
        : {}),
    },
    ...Object.fromEntries(
      tools.map((t) => [`tools/${t}.ts`, `${o.body ?? "export default function tool() { return 1; }"}\n// ${t}\n`]),
    ),
    ...Object.fromEntries((o.mcps ?? []).map((m) => [`mcp/${m}.ts`, `// mcp ${m}\n`])),
    ...(o.files ?? {}),
  };
  mkdirSync(dir, { recursive: true });
  return writeTree(dir, spec);
}
