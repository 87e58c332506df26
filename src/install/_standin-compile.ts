// TEMPORARY stand-in for src/families/gjc/compile.ts until it lands; deleted afterwards.
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { sha256Hex } from "../bundle/hash.ts";

export async function compileGjcBundle(root: string, opts: { keepContents?: boolean } = {}): Promise<any> {
  const diagnostics: any[] = [];
  let manifestBytes: Uint8Array;
  try {
    manifestBytes = readFileSync(join(root, "gajae-plugin.json"));
  } catch {
    return { diagnostics: [{ code: "missing_file", severity: "error", path: "gajae-plugin.json", message: "no manifest" }] };
  }
  let m: any;
  try {
    m = JSON.parse(new TextDecoder().decode(manifestBytes));
  } catch {
    return { diagnostics: [{ code: "invalid_manifest", severity: "error", path: "gajae-plugin.json", message: "bad json" }] };
  }
  const files: any[] = [{ path: "gajae-plugin.json", sha256: sha256Hex(manifestBytes), bytes: manifestBytes.length, mode: 0o644 }];
  const contents = new Map<string, Uint8Array>([["gajae-plugin.json", manifestBytes]]);
  const surfaces: any[] = [];
  for (const t of m.tools ?? []) {
    const b = readFileSync(join(root, t.path));
    files.push({ path: t.path, sha256: sha256Hex(b), bytes: b.length, mode: statSync(join(root, t.path)).mode & 0o777 });
    contents.set(t.path, b);
    surfaces.push({ id: `tool:${t.name}`, kind: "tool", enabledByDefault: true, name: t.name, path: t.path });
  }
  for (const t of m.mcps ?? []) surfaces.push({ id: `mcp:${t.name}`, kind: "mcp", enabledByDefault: true, name: t.name });
  const rest = files.slice(1).sort((a, b) => (a.path < b.path ? -1 : 1));
  return {
    bundle: { name: m.name, version: m.version, manifestSha256: files[0].sha256, manifest: m, surfaces, files: [files[0], ...rest], contents: opts.keepContents ? contents : undefined },
    diagnostics,
  };
}
