import type { Context } from "../core/context.ts";
import type { SandboxProfile, SandboxSubject } from "../process/sandbox/profile.ts";
import { profileFor } from "../store/sandbox-profile.ts";

/** The sandbox of one stdio MCP server: read its bundle's content, write its data directories, plus grants. */
export async function serverSandbox(
  ctx: Context,
  bundle: string,
  server: string,
  read: string[],
  write: string[],
): Promise<{ subject: SandboxSubject; profile: SandboxProfile }> {
  const subject: SandboxSubject = { bundle, process: { kind: "server", id: server } };
  return { subject, profile: await profileFor(ctx, subject, { read, write, net: [] }) };
}
