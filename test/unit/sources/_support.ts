import { expect } from "bun:test";
import { mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { createContext, type Context } from "../../../src/core/context.ts";
import { GjcError } from "../../../src/core/errors.ts";
import { tempDir } from "../../helpers/tmp.ts";

export const MANIFESTS = ["gajae-plugin.json", "plugin.json"];

export interface Area {
  root: string;
  scratch: string;
  cleanup(): void;
}

/** A temp root with an empty scratch root inside it. */
export function area(): Area {
  const t = tempDir("gjc-sources-");
  const scratch = join(t.path, "scratch");
  mkdirSync(scratch);
  return { root: t.path, scratch, cleanup: t.cleanup };
}

export function quietContext(
  cwd: string,
  env: Record<string, string | undefined> = { HOME: cwd, PATH: process.env.PATH },
): Context {
  return createContext({ cwd, env, quiet: true });
}

/** Awaits a refusal and checks its code and exit class. */
export async function refusal(p: Promise<unknown> | (() => unknown), code: string, exit: number): Promise<GjcError> {
  let error: unknown;
  try {
    await (typeof p === "function" ? p() : p);
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(GjcError);
  const g = error as GjcError;
  expect({ code: g.code as string, exit: g.exit as number }).toEqual({ code, exit });
  return g;
}

export function expectEmpty(dir: string): void {
  expect(readdirSync(dir)).toEqual([]);
}
