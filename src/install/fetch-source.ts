import { lstatSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GJC_LIMITS } from "../bundle/limits.ts";
import { expandHome, type Context } from "../core/context.ts";
import { GjcError } from "../core/errors.ts";
import { ExitCode } from "../core/exit-codes.ts";
import { C2_MANIFEST, GJC_MANIFEST } from "../families/detect.ts";
import type { RegistrySource } from "./registry-types.ts";

/** A fetched bundle root and what to record about where it came from. */
export interface Fetched {
  dir: string;
  record: Record<string, unknown> & { kind: string };
  identity: string;
  display: string;
  cleanup(): Promise<void>;
}

/** Fetch scratch lives in the OS temp dir: it is the downloaded source, not staging (which sits beside the destination). */
export function scratchRoot(ctx: Context): string {
  return join(ctx.env.TMPDIR && ctx.env.TMPDIR !== "" ? ctx.env.TMPDIR : tmpdir(), "gjc-fetch");
}

// TEMPORARY: local directories only, until src/sources lands its fetchSource.
function fetchLocalDir(ctx: Context, spec: string): Fetched {
  const abs = expandHome(ctx, spec);
  let st;
  try {
    st = lstatSync(abs);
  } catch {
    throw new GjcError({ code: "source_unreachable", message: `${spec} does not exist.`, hint: "Check the path.", exit: ExitCode.unreachable });
  }
  if (!st.isDirectory()) throw new GjcError({ code: "invalid_source", message: `${spec} is not a directory.`, exit: ExitCode.usage });
  const real = realpathSync(abs);
  return { dir: real, record: { kind: "path", uri: real }, identity: `path:${real}`, display: real, cleanup: async () => {} };
}

/** Fetches what a person typed (path, tarball, git, GitHub) into a local bundle root. */
export async function fetchSpec(ctx: Context, spec: string, onProgress?: (m: string) => void): Promise<Fetched> {
  void GJC_LIMITS;
  void C2_MANIFEST;
  void GJC_MANIFEST;
  void onProgress;
  return fetchLocalDir(ctx, spec);
}

/** Re-resolves a recorded source (upgrade): the same location, the same ref. */
export async function fetchRecorded(ctx: Context, source: RegistrySource, onProgress?: (m: string) => void): Promise<Fetched> {
  if (source.kind === "path" && source.uri) return fetchSpec(ctx, source.uri, onProgress);
  throw new GjcError({ code: "source_unsupported", message: `Upgrading from a ${source.kind} source is not available yet.`, exit: ExitCode.failed });
}
