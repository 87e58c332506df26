/** Bundle trees and a temporary C2 home shared by the c2store tests. */
import { join } from "node:path";
import type { Context } from "../../../src/core/context.ts";
import { withFetchedC2 } from "../../../src/c2store/fetch.ts";
import { installC2 } from "../../../src/c2store/lifecycle.ts";
import type { C2InstallResult } from "../../../src/c2store/install.ts";
import { sandbox, type Sandbox } from "../../helpers/sandbox.ts";
import type { TreeSpec } from "../../helpers/tmp.ts";

export const SCHEMA = "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json";

export function skillsBundle(name: string, version = "1.0.0", extra: TreeSpec = {}): TreeSpec {
  return {
    "plugin.json": {
      $schema: SCHEMA,
      name,
      version,
      description: `${name} skills`,
      extensions: { "dev.codetwo": { standardVersion: "1.2.0" } },
    },
    "skills/take-notes/SKILL.md": "---\nname: take-notes\ndescription: Take notes.\n---\nWrite the notes down.\n",
    ...extra,
  };
}

export function runtimeBundle(
  name: string,
  version = "1.0.0",
  opts: { scopes?: string[]; extra?: TreeSpec; inject?: string[]; optionalInject?: string[] } = {},
): TreeSpec {
  return {
    "plugin.json": {
      $schema: SCHEMA,
      name,
      version,
      extensions: {
        "dev.codetwo": {
          standardVersion: "1.2.0",
          // Each bundle owns the command namespace of its name (a shared one is refused at install).
          commands: [{ id: `${name}.run`, title: "Run the demo" }],
          runtime: {
            command: "node",
            args: ["plugin.js"],
            scopeSupport: opts.scopes ?? ["user", "project"],
            ...(opts.inject ? { inject: opts.inject } : {}),
            ...(opts.optionalInject ? { optionalInject: opts.optionalInject } : {}),
          },
          ui: [{ id: "go", slot: "composer.toolbar", label: "Go", command: `${name}.run` }],
        },
      },
    },
    "plugin.js": "process.exit(0);\n",
    "bin/tool": { content: "#!/bin/sh\necho tool\n", mode: 0o755 },
    ...(opts.extra ?? {}),
  };
}

/** The one sandbox (test/helpers/sandbox.ts) with a core Context bound to it: only PATH of the machine's environment, cwd the root. */
export interface C2Home extends Sandbox {
  /** The C2 data directory (GJC_C2_DATA_DIR); the same as `c2`. */
  data: string;
  ctx: Context;
  /** Writes a bundle directory under the temp root and returns its path. */
  bundle(rel: string, spec: TreeSpec): string;
  install(dir: string, opts?: { force?: boolean; dryRun?: boolean }): Promise<C2InstallResult>;
}

export function c2Home(env: Record<string, string> = {}, now?: () => Date): C2Home {
  const s = sandbox("gjc-c2store-");
  const ctx = s.context({ env: { ...env, GJC_C2_DATA_DIR: s.c2 }, cwd: s.root, now });
  return {
    ...s,
    data: s.c2,
    ctx,
    bundle: s.write,
    install: (dir, opts = {}) => withFetchedC2(ctx, dir, (fetched) => installC2(ctx, { fetched, ...opts })),
  };
}

/** Runs `fn` and returns the GjcError it throws (fails the test when it does not). */
export async function refusal(
  fn: () => unknown,
): Promise<{ code: string; exit: number; message: string; hint?: string }> {
  try {
    await fn();
  } catch (error) {
    const e = error as { code?: string; exit?: number; message: string; hint?: string };
    if (typeof e.code !== "string" || typeof e.exit !== "number") throw error;
    return { code: e.code, exit: e.exit, message: e.message, hint: e.hint };
  }
  throw new Error("expected a refusal, but the call succeeded");
}
