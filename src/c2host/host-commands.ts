import { GjcError } from "../core/errors.ts";
import { gitStatus } from "./git-status.ts";
import { hostInfo } from "./host-identity.ts";

/** Who is calling a host command: the bundle and the realm its process runs in. */
export interface HostCallCaller {
  bundleId: string;
  projectPath?: string;
}

export interface HostCommandContext {
  env: Record<string, string | undefined>;
  /** Installed C2 bundles as `plugins.list` reports them. */
  listPlugins(): Promise<unknown[]>;
}

export type HostCommand = (args: unknown, caller: HostCallCaller, signal: AbortSignal) => Promise<unknown>;

/**
 * The public host commands a runtime may reach with `command/call` (DESIGN 6a). Anything not
 * in the table gets the protocol's not-available error. Tests may add commands (a command that
 * blocks until released makes the callback limit testable without timing).
 */
export function publicHostCommands(ctx: HostCommandContext): Map<string, HostCommand> {
  return new Map<string, HostCommand>([
    [
      "git.status",
      async (args, caller, signal) => {
        const a = (args ?? {}) as Record<string, unknown>;
        const cwd = typeof a.cwd === "string" && a.cwd !== "" ? a.cwd : caller.projectPath;
        if (typeof cwd !== "string" || !cwd.startsWith("/")) {
          throw new GjcError({ code: "invalid_args", message: "`git.status` needs an absolute `cwd` argument" });
        }
        return gitStatus(cwd, ctx.env, signal);
      },
    ],
    ["plugins.list", async () => ({ plugins: await ctx.listPlugins() })],
    ["host.info", async () => hostInfo()],
  ]);
}

export function notAvailable(name: string): Error {
  return new Error(`command \`${name}\` is not available to extension processes on this host`);
}
