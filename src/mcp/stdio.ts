import type { StdioLaunch } from "../policy/launcher.ts";
import type { SandboxProfile, SandboxSubject } from "../process/sandbox/profile.ts";
import { type ClientIdentity, ORDINARY_CLIENT } from "./client-identity.ts";
import { type McpConnection, connectOver, withDetails } from "./connection.ts";
import { DEFAULT_PROBE_TIMEOUT_MS } from "./limits.ts";
import { listedBesideTools } from "./listed.ts";
import { Deadline, type Handshake, type McpPrompt, type McpResource, type McpTool } from "./protocol.ts";
import { type StdioChannel, startStdioChannel } from "./stdio-transport.ts";

export interface StdioServerOptions {
  /** Installed bundle root; the launch is re-checked against it before anything runs. */
  root: string;
  launch: StdioLaunch;
  /** Budget for the whole operation (default 10 s). */
  timeoutMs?: number;
  /** Shown in messages, e.g. `MCP server "docs"`. */
  label?: string;
  /** Host environment the child's allow-list is copied from (the caller's Context env). */
  hostEnv: Record<string, string | undefined>;
  /** The user's private scratch parent (`scratchParent(ctx)` of src/sources/scratch.ts). */
  scratchParent: string;
  /** Variables set on top of the allow-list (C2 mcp.json servers). */
  extraEnv?: Record<string, string>;
  onSpawn?(pid: number): void;
  /** Who the server is and its profile (base plus grants); the launcher confines it. */
  sandbox: { subject: SandboxSubject; profile: SandboxProfile };
  /** Who gjc says it is (src/mcp/client-identity.ts); the ordinary client unless the user chose one. */
  client?: ClientIdentity;
}

export interface StdioConnection extends McpConnection {
  readonly pid: number;
  /** The server's stderr so far (bounded to its last 64 KiB). */
  stderr(): string;
}

export interface StdioProbeResult
  extends Pick<Handshake, "serverInfo" | "protocolVersion" | "capabilities" | "instructions"> {
  tools: McpTool[];
  /** Present when the server advertises the capability: pinned with the tools (src/mcp/pins.ts). */
  prompts?: McpPrompt[];
  resources?: McpResource[];
  stderr: string;
}

/** Starts a bundle's stdio server (DESIGN item 10) and completes the MCP handshake. */
export async function connectStdioServer(opts: StdioServerOptions): Promise<StdioConnection> {
  const label = opts.label ?? "MCP server";
  const deadline = new Deadline(opts.timeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS);
  let channel: StdioChannel | undefined;
  try {
    const conn = await connectOver(label, deadline, opts.client ?? ORDINARY_CLIENT, (client) => {
      channel = startStdioChannel(
        {
          root: opts.root,
          launch: opts.launch,
          hostEnv: opts.hostEnv,
          scratchParent: opts.scratchParent,
          extraEnv: opts.extraEnv,
          label,
          onSpawn: opts.onSpawn,
          sandbox: opts.sandbox,
        },
        client,
      );
      return channel;
    });
    const ch = channel as StdioChannel;
    return { ...conn, pid: ch.pid, stderr: () => ch.stderr.text() };
  } catch (e) {
    throw channel ? withDetails(e, { stderr: channel.stderr.tail(), pid: channel.pid }) : e;
  }
}

/**
 * `initialize` → `notifications/initialized` → `tools/list`, then the server is killed with
 * its whole process group and reaped, whatever happened.
 */
export async function probeStdioServer(opts: StdioServerOptions): Promise<StdioProbeResult> {
  const deadline = new Deadline(opts.timeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS);
  const conn = await connectStdioServer({ ...opts, timeoutMs: deadline.totalMs });
  try {
    const tools = await conn.listTools(deadline.remaining());
    const listed = await listedBesideTools(conn, deadline);
    await conn.close();
    const { serverInfo, protocolVersion, capabilities, instructions } = conn.handshake;
    return {
      serverInfo,
      protocolVersion,
      capabilities,
      ...(instructions !== undefined ? { instructions } : {}),
      tools,
      ...listed,
      stderr: conn.stderr(),
    };
  } catch (e) {
    await conn.close();
    throw withDetails(e, { stderr: conn.stderr(), pid: conn.pid });
  }
}
