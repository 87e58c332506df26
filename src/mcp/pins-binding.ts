/**
 * Which installed server a pin belongs to: a digest of the server's declaration and of the
 * bundled code it runs. Unchanged across a reinstall or upgrade that leaves the server alone;
 * different as soon as its command, arguments, URL or code change (its pins are then stale).
 */
import { canonicalDigest } from "../bundle/canonical-json.ts";
import type { GjcMcpSurface } from "../families/gjc/surface-types.ts";
import type { RegistryEntry } from "../install/registry-types.ts";

/** What a C2 server's binding covers: the fields of its declaration (a C2 session's MCP entry has them). */
export interface C2ServerDeclaration {
  transport: string;
  launch?: { command: string; args: string[]; cwd: string; env: Record<string, string> };
  url?: string;
  headers?: Record<string, string>;
}

export function gjcServerBinding(
  entry: Pick<RegistryEntry, "copiedFiles">,
  s: Pick<GjcMcpSurface, "launcher" | "configSha256">,
): string {
  const launcher = (s.launcher ?? null) as { script?: string | null; executable?: string | null } | null;
  const file = launcher?.script ?? launcher?.executable ?? null;
  const code = file === null ? null : (entry.copiedFiles.find((f) => f.relativePath === file)?.sha256 ?? null);
  return canonicalDigest({ config: s.configSha256 ?? null, code });
}

export function c2ServerBinding(
  e: C2ServerDeclaration,
  bundleDir: string,
  files: readonly { path: string; sha256: string }[],
): string {
  const inBundle = (p: string | undefined) =>
    p !== undefined && p.startsWith(`${bundleDir}/`) ? p.slice(bundleDir.length + 1) : undefined;
  const file = inBundle(e.launch?.command) ?? inBundle(e.launch?.args[0]);
  const code = file === undefined ? null : (files.find((f) => f.path === file)?.sha256 ?? null);
  return canonicalDigest({
    transport: e.transport,
    launch: e.launch
      ? { command: e.launch.command, args: e.launch.args, cwd: e.launch.cwd, env: Object.keys(e.launch.env).sort() }
      : null,
    url: e.url ?? null,
    headers: e.headers ? Object.keys(e.headers).sort() : null,
    code,
  });
}
