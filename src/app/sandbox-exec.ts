import { isAbsolute, resolve } from "node:path";
import type { Context } from "../core/context.ts";
import { usageError } from "../core/errors.ts";
import { isDeniedEnvName } from "../process/env.ts";
import { launch, type LaunchedProcess } from "../process/launch.ts";
import type { SandboxSubject } from "../process/sandbox/profile.ts";
import { foreignRecordError } from "../c2store/foreign-record.ts";
import { resolveInstalled } from "./stores.ts";
import { profileFor } from "../store/sandbox-profile.ts";

export interface SandboxExecOptions {
  bundle: string;
  server?: string;
  runtime?: boolean;
  lsp?: string;
  /** The project whose scope holds the bundle; without it, the user scope. */
  project?: string;
  /** The real command and its arguments. */
  command: string[];
}

/** A command running in a bundle's sandbox, its standard streams those of gjc. */
export interface SandboxedRun {
  readonly child: LaunchedProcess<"inherit", "inherit", "inherit">;
  /** The command's exit status (128 + the signal when a signal ended it). */
  readonly status: Promise<number>;
}

/**
 * `gjc sandbox exec`: what session plans hand to hosts for each stdio MCP server. The bundle is
 * looked up by name (both families, both scopes); the command runs with that bundle's profile
 * for the named process (its content to read, its data directory to write, its grants) and
 * with gjc's standard streams, so a host talks to the server exactly as if it had started it.
 * `bun` means gjc's own runtime, as when gjc starts a server itself.
 */
export async function startSandboxed(ctx: Context, opts: SandboxExecOptions): Promise<SandboxedRun> {
  if (opts.command.length === 0)
    throw usageError(
      "gjc sandbox exec needs the command to run after --.",
      "e.g. gjc sandbox exec --bundle docs --server docs -- node server.mjs",
      "missing_argument",
    );
  const kinds = [opts.server !== undefined, opts.runtime === true, opts.lsp !== undefined].filter(Boolean).length;
  if (kinds > 1)
    throw usageError(
      "Give at most one of --server, --runtime and --lsp.",
      "They name which process of the bundle this is.",
      "invalid_option_value",
    );
  // The command's working directory is the server's, not the project: the plan names the project.
  const where: Context = opts.project !== undefined ? { ...ctx, cwd: resolve(ctx.cwd, opts.project) } : ctx;
  const target = await resolveInstalled(
    where,
    opts.bundle,
    opts.project !== undefined ? { project: true } : { user: true },
  );
  const inspected = await target.adapter.inspect(where, opts.bundle, target.scope);
  // A bundle another program installed (the C2 app's record) holds no hashes gjc could check.
  if ("foreign" in inspected) throw foreignRecordError(inspected.foreign);
  const installed = inspected;
  const subject: SandboxSubject = {
    bundle: installed.name,
    ...(opts.server !== undefined
      ? { process: { kind: "server", id: opts.server } }
      : opts.runtime
        ? { process: { kind: "runtime" } }
        : opts.lsp !== undefined
          ? { process: { kind: "lsp", id: opts.lsp } }
          : {}),
  };
  const write = installed.c2?.dataDir ? [installed.c2.dataDir] : [];
  const profile = await profileFor(ctx, subject, { read: [installed.root], write, net: [] });
  const [command, ...args] = opts.command as [string, ...string[]];
  const env = passedEnv(ctx.env);
  let argv = [command, ...args];
  if (command === "bun") {
    env.BUN_BE_BUN = "1";
    argv = [process.execPath, ...args];
  } else if (!isAbsolute(command) && !command.includes("/")) {
    argv = [Bun.which(command, { PATH: env.PATH ?? "" }) ?? command, ...args];
  }
  const child = launch({
    argv,
    cwd: ctx.cwd,
    env,
    stdin: "inherit",
    stdout: "inherit",
    stderr: "inherit",
    sandbox: { subject, profile, hostEnv: ctx.env },
  });
  const status = child.exited.then(async (code) => {
    const signal = child.proc.signalCode;
    await child.stop();
    if (code >= 0) return code;
    const signals = (require("node:os") as typeof import("node:os")).constants.signals as Record<string, number>;
    return 128 + (typeof signal === "string" ? (signals[signal] ?? 9) : 9);
  });
  return { child, status };
}

/**
 * The host chose the environment it starts the server with (the plan's envAllowList and, for
 * C2, the launch's env); gjc passes it on without credentials and loader switches, which never
 * reach a plugin process by any route, and without its own GJC_* settings.
 */
function passedEnv(env: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env))
    if (value !== undefined && !isDeniedEnvName(name) && !name.startsWith("GJC_")) out[name] = value;
  return out;
}
