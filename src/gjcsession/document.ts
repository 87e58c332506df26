import { readdirSync } from "node:fs";
import { join } from "node:path";
import { c2DataDir, type Context } from "../core/context.ts";
import { ExitCode, type ExitCodeValue } from "../core/exit-codes.ts";
import { startSession, type SessionOptions, type SessionResult } from "./session.ts";

/**
 * The `gjc/session@1` document and exit status of a session run, shared by the verb and the
 * fast start so both print the same bytes: exit 3 when a scope's registry could not be read
 * or a runtime check failed (integrity), otherwise 0 even with quarantined bundles (the plan
 * lists them; a host still gets every verified surface).
 */
export function sessionDocument(result: SessionResult): {
  json: { schema: string } & Record<string, unknown>;
  exit: ExitCodeValue;
} {
  const scopeBroken = result.plan.scopes.some((x) => !x.ok);
  const runtimeFailed = (result.runtimeCheck?.failed ?? 0) > 0;
  return {
    json: {
      schema: "gjc/session@1",
      ok: !scopeBroken && !runtimeFailed,
      ...result.plan,
      runtimeCheck: result.runtimeCheck ?? null,
      persistedQuarantine: result.persistedQuarantine,
    },
    exit: scopeBroken || runtimeFailed ? ExitCode.refused : ExitCode.ok,
  };
}

export interface SessionRun {
  result: SessionResult;
  json: { schema: string } & Record<string, unknown>;
  exit: ExitCodeValue;
  /** With `noteC2`, when the plan is empty: whether C2 bundles are installed (their plan is `--family c2`). */
  c2Installed: boolean;
}

/** `gjc plugin session`: the plan, its document and exit status, and what the human text points at. */
export async function runSession(
  ctx: Context,
  options: SessionOptions,
  show: { noteC2?: boolean } = {},
): Promise<SessionRun> {
  const result = await startSession(ctx, options);
  const c2Installed = show.noteC2 === true && result.plan.bundles.length === 0 && anyC2Bundle(ctx);
  return { result, ...sessionDocument(result), c2Installed };
}

function anyC2Bundle(ctx: Context): boolean {
  try {
    return readdirSync(join(c2DataDir(ctx), "plugins")).some((n) => !n.startsWith("."));
  } catch {
    return false;
  }
}
