import { ExitCode, type ExitCodeValue } from "../core/exit-codes.ts";
import type { SessionResult } from "./session.ts";

/**
 * The `gjc/session@1` document and exit status of a session run, shared by the verb and the
 * fast start so both print the same bytes: exit 3 when a scope's registry could not be read
 * or a runtime check failed (integrity), otherwise 0 even with quarantined bundles (the plan
 * lists them; a host still gets every verified surface).
 */
export function sessionDocument(result: SessionResult): { json: { schema: string } & Record<string, unknown>; exit: ExitCodeValue } {
  const scopeBroken = result.plan.scopes.some((x) => !x.ok);
  const runtimeFailed = (result.runtimeCheck?.failed ?? 0) > 0;
  return {
    json: { schema: "gjc/session@1", ok: !scopeBroken && !runtimeFailed, ...result.plan, runtimeCheck: result.runtimeCheck ?? null, persistedQuarantine: result.persistedQuarantine },
    exit: scopeBroken || runtimeFailed ? ExitCode.refused : ExitCode.ok,
  };
}
