import type { Context } from "../core/context.ts";
import { GjcError } from "../core/errors.ts";
import { ExitCode } from "../core/exit-codes.ts";

/** What a verb returns (kept structural so core does not import the CLI layer). */
export interface BridgeOutcome {
  json: { schema: string } & Record<string, unknown>;
  human: string;
  exit?: 0 | 1 | 2 | 3 | 4 | 5 | 70;
}

export type C2Operation = "uninstall" | "enable" | "disable" | "inspect" | "verify";

/**
 * Name-based verbs without --user/--project act on the C2 bundle of that name. The C2
 * lifecycle (src/c2store/lifecycle.ts) plugs in here.
 */
export async function c2Verb(_ctx: Context, op: C2Operation, params: { name?: string; [k: string]: unknown }): Promise<BridgeOutcome> {
  throw new GjcError({
    code: "scope_required",
    message: `No --user or --project given, and C2 bundles cannot be ${op === "inspect" || op === "verify" ? `${op}ed` : `${op}d`} by this build yet${params.name ? ` (${params.name})` : ""}.`,
    hint: "For a GJC bundle, add --user or --project.",
    exit: ExitCode.usage,
  });
}
