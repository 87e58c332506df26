import type { Context } from "../core/context.ts";
import { runStdioHost, type StdioHostOptions } from "../c2host/stdio-host.ts";

/**
 * `gjc host --stdio`: the management plane, whose policy changes (plugins.apply_change,
 * plugins.reset) run through the same use cases as `gjc plugin policy apply|reset`.
 */
export function serveHost(ctx: Context, o: Omit<StdioHostOptions, "policyCommands">): Promise<{ served: number }> {
  return runStdioHost(ctx, { ...o, policyCommands: () => import("./policy.ts") });
}
