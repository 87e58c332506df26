import { rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { GjcError } from "../core/errors.ts";
import { checkStdioLauncher, type StdioLaunch } from "../policy/launcher.ts";
import { BoundedLog } from "./bounded-log.ts";
import { isolatingBunFlags } from "../process/bun-flags.ts";
import { buildChildEnv } from "../process/env.ts";
import { makeScratch } from "../sources/scratch.ts";
import { CHECK_MEMORY_LIMIT_MIB, launch, type LaunchedProcess } from "../process/launch.ts";
import { reportDenials } from "../process/sandbox/denials.ts";
import type { SandboxProfile, SandboxSubject } from "../process/sandbox/profile.ts";
import { mcpError, sanitizeServerText } from "./errors.ts";
import { MAX_FRAME_BYTES, MAX_STDERR_BYTES } from "./limits.ts";
import { readLines } from "./line-reader.ts";
import { settleWithin } from "../core/timeout.ts";
import type { Channel, ChannelSink } from "./rpc-client.ts";

export interface StdioStartOptions {
  /** The installed bundle root the launch is confined to. */
  root: string;
  launch: StdioLaunch;
  /** Host environment the allow-list is copied from (the caller's Context env). */
  hostEnv: Record<string, string | undefined>;
  /** The user's private scratch parent (src/sources/scratch.ts): a bun server's empty bunfig lives there. */
  scratchParent: string;
  label: string;
  /** Variables set on top of the allow-list (C2 mcp.json servers: their env, PLUGIN_ROOT, PLUGIN_DATA). */
  extraEnv?: Record<string, string>;
  onSpawn?(pid: number): void;
  sandbox: { subject: SandboxSubject; profile: SandboxProfile };
}

export interface StdioChannel extends Channel {
  readonly pid: number;
  readonly stderr: BoundedLog;
}

/** How long close() waits for the pipes to drain after the group is killed. */
const PIPE_DRAIN_MS = 1000;

/**
 * The argv we run. The launch is re-checked against the installed root first (the bundle on
 * disk may differ from the one validated) and the script is passed by absolute path, so bun
 * cannot read it as a subcommand or a package.json script. `node` is found on PATH. `bun` is
 * our own runtime (process.execPath with BUN_BE_BUN=1, which also works inside the compiled
 * gjc, so users need no separate Bun), with flags that disable a shipped bunfig.toml, .env and
 * auto-install.
 */
function buildArgv(
  opts: StdioStartOptions,
  emptyConfig: () => string,
): { argv: string[]; cwd: string; env: Record<string, string> } {
  const root = resolve(opts.root);
  const verdict = checkStdioLauncher(opts.launch, root);
  if (!verdict.ok)
    throw mcpError(
      "security_policy",
      `${opts.label} cannot be started: ${verdict.reason}`,
      "fix the server's command, args or cwd in the bundle manifest (node/bun plus a bundled script, or a bundled ./executable)",
    );
  const hostEnv = opts.hostEnv;
  // Declared values, never fixed ones: a manifest's env cannot re-admit a loader switch
  // (NODE_OPTIONS=--require …, LD_PRELOAD) or a credential name, as for every other child.
  const env = buildChildEnv(hostEnv, { declared: opts.extraEnv }).env;
  const cwd = verdict.cwd === undefined ? root : join(root, verdict.cwd);
  const rest = (opts.launch.args ?? []).slice(verdict.kind === "bundled" ? 0 : 1);
  if (verdict.kind === "bundled") return { argv: [join(root, verdict.executable as string), ...rest], cwd, env };
  const script = join(root, verdict.script as string);
  if (verdict.kind === "bun") {
    env.BUN_BE_BUN = "1";
    return { argv: [process.execPath, ...isolatingBunFlags(emptyConfig()), script, ...rest], cwd, env };
  }
  const node = Bun.which("node", { PATH: hostEnv.PATH ?? "" });
  if (!node)
    throw mcpError(
      "mcp_launcher_missing",
      `${opts.label} needs node, which is not on PATH`,
      "install Node.js or put it on PATH, then try again",
    );
  return { argv: [node, script, ...rest], cwd, env };
}

export function startStdioChannel(opts: StdioStartOptions, sink: ChannelSink): StdioChannel {
  let configDir: string | undefined;
  const emptyConfig = () => {
    configDir = makeScratch(opts.scratchParent, "mcp");
    const file = join(configDir, "bunfig.toml");
    writeFileSync(file, "", { mode: 0o600 });
    return file;
  };
  const removeConfig = () => {
    if (configDir) rmSync(configDir, { recursive: true, force: true });
    configDir = undefined;
  };

  let child: LaunchedProcess<"pipe", "pipe", "pipe">;
  try {
    const { argv, cwd, env } = buildArgv(opts, emptyConfig);
    // The one launcher: its own process group and session, so close() ends every descendant;
    // gjc starts a server only to check it (probe, verify --mcp, plugin test), so with a cap.
    // Confined like every bundle process; a bun server also reads our empty bunfig.
    const { subject, profile } = opts.sandbox;
    const read = configDir === undefined ? profile.read : [...profile.read, configDir];
    child = launch({
      argv,
      cwd,
      env,
      memoryLimitMiB: CHECK_MEMORY_LIMIT_MIB,
      sandbox: { subject, profile: { ...profile, read }, hostEnv: opts.hostEnv },
    });
  } catch (e) {
    removeConfig();
    if (e instanceof GjcError) throw e;
    throw mcpError(
      "mcp_spawn_failed",
      `${opts.label} could not be started: ${(e as Error).message}`,
      "check that the launcher and the bundled files are intact (gjc plugin verify)",
    );
  }
  const { proc, pid } = child;
  opts.onSpawn?.(pid);
  const stderr = new BoundedLog(MAX_STDERR_BYTES);

  const stderrDone = (async () => {
    try {
      for await (const chunk of proc.stderr) stderr.write(chunk);
    } catch {
      // The pipe closing under us at kill time is expected.
    }
    // A connection the sandbox refused, as the server reported it, names the grant to allow it.
    reportDenials(opts.sandbox.subject, stderr.text());
  })();

  const stdoutDone = (async () => {
    try {
      for await (const text of readLines(proc.stdout, MAX_FRAME_BYTES, `${opts.label} (on stdout)`)) {
        if (text.trim() === "") continue;
        let message: unknown;
        try {
          message = JSON.parse(text);
        } catch {
          throw mcpError(
            "mcp_protocol",
            `${opts.label} wrote a line that is not JSON on stdout: "${sanitizeServerText(text, 80)}"`,
            "stdout of an MCP stdio server carries only JSON-RPC messages; log to stderr instead",
          );
        }
        sink.message(message);
      }
    } catch (e) {
      sink.fail(
        e instanceof GjcError
          ? e
          : mcpError("mcp_protocol", `${opts.label} stdout failed: ${(e as Error).message}`, "see the server's stderr"),
      );
    }
  })();

  let closing = false;
  proc.exited.then(async (code) => {
    // Let the lines already in the pipe arrive first (a server may answer and then exit).
    await settleWithin(stdoutDone, 250);
    if (closing && !child.memoryExceeded) return;
    const how = child.memoryExceeded
      ? `held more than ${CHECK_MEMORY_LIMIT_MIB} MiB of memory and was stopped`
      : proc.signalCode
        ? `was killed by ${proc.signalCode}`
        : `exited with code ${code}`;
    const last = stderr.tail(1);
    sink.fail(
      mcpError(
        "mcp_server_exited",
        `${opts.label} ${how}${last ? ` (last stderr line: ${sanitizeServerText(last, 200)})` : ""}`,
        "run the server by hand to see why it stops; its stderr is in the error details",
        { exitCode: code, signal: proc.signalCode ?? undefined },
      ),
    );
  });

  let closed: Promise<void> | undefined;
  return {
    pid,
    stderr,
    async send(message) {
      if (closing) throw mcpError("mcp_closed", `${opts.label} is closed`, "start it again");
      try {
        proc.stdin.write(`${JSON.stringify(message)}\n`);
        await proc.stdin.flush();
      } catch (e) {
        throw mcpError(
          "mcp_server_exited",
          `${opts.label} stopped reading its input (${(e as Error).message})`,
          "run the server by hand to see why it stops",
        );
      }
    },
    close() {
      closed ??= (async () => {
        closing = true;
        try {
          proc.stdin.end();
        } catch {
          // Already gone.
        }
        await child.stop();
        // Where a descendant could leave the session and hold the pipes open (macOS, Windows),
        // do not wait for it forever.
        await settleWithin(Promise.all([stdoutDone, stderrDone]), PIPE_DRAIN_MS);
        removeConfig();
      })();
      return closed;
    },
  };
}
