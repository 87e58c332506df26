/**
 * The capability model of a compiled GJC bundle (src/families/gjc/compile.ts, the compile
 * validate and install run). Processes are shown as gjc will start them: stdio MCP servers
 * with gjc's own bun isolation flags and the allow-listed environment, tool and hook modules
 * as code the GJC agent loads.
 */
import { pointer } from "../core/diagnostics.ts";
import type { CompiledGjcBundle, GjcAppendixSurface, GjcHookSurface, GjcMcpSurface, GjcSubskillSurface, GjcToolSurface } from "../families/gjc/compile.ts";
import { GJC_MANIFEST } from "../families/detect.ts";
import type { CompiledBundle } from "../install/compile-for-install.ts";
import { isolatingBunFlags } from "../policy/child-process.ts";
import { attachCodeDigests, describeUrl, rootPath, type CapabilityModel, type DeclaredAt } from "./model.ts";

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Finds where a surface was declared in the manifest as written (aliases included: the
 * compiled surfaces are normalized, the pointer must name the bytes the author wrote).
 */
function locator(raw: unknown) {
  const doc = isObject(raw) ? raw : {};
  const inArray = (keys: string[], match: (e: unknown) => boolean): string | undefined => {
    for (const key of keys) {
      const list = doc[key];
      if (!Array.isArray(list)) continue;
      const i = list.findIndex(match);
      if (i >= 0) return pointer(pointer("", key), i);
    }
    return undefined;
  };
  const named = (name: string) => (e: unknown) => isObject(e) && e.name === name;
  return (kind: string, name: string, path?: string): DeclaredAt => {
    let at: string | undefined;
    switch (kind) {
      case "tool":
        at = inArray(["tools"], named(name));
        break;
      case "hook":
        at = inArray(["hooks"], named(name));
        break;
      case "mcp":
        at = inArray(["mcps", "mcp"], named(name));
        if (!at && isObject(doc.mcpServers) && name in doc.mcpServers) at = pointer(pointer("", "mcpServers"), name);
        break;
      case "system-appendix":
        at = inArray(["system_appendix", "system-appendix"], named(name));
        break;
      case "agent-appendix":
        at = inArray(["agent-appendix", "agent_appendix"], named(name));
        break;
      case "subskill":
        at = inArray(["subskills"], (e) => e === path);
        break;
    }
    return { file: GJC_MANIFEST, pointer: at ?? "" };
  };
}

export function gjcCapabilities(bundle: CompiledGjcBundle, rawManifest: unknown): CapabilityModel {
  const at = locator(rawManifest);
  const bytesOf = new Map<string, number>();
  let totalBytes = 0;
  for (const f of bundle.files) {
    bytesOf.set(f.path, f.bytes);
    totalBytes += f.bytes;
  }
  const model: CapabilityModel = {
    family: "gjc",
    name: bundle.name,
    version: bundle.version,
    processes: [],
    endpoints: [],
    env: [],
    hooks: [],
    hostCommands: [],
    prompts: [],
    promptBytes: 0,
    files: { count: bundle.files.length, bytes: totalBytes },
  };
  for (const surface of bundle.surfaces) {
    switch (surface.kind) {
      case "tool": {
        const s = surface as GjcToolSurface;
        model.processes.push({ id: `tool-module:${s.name}`, kind: "tool-module", name: s.name, command: "bun", args: [rootPath(s.path)], cwd: rootPath("."), commandInBundle: false, script: s.path, hostEnvironment: "agent", at: at("tool", s.name) });
        break;
      }
      case "hook": {
        const s = surface as GjcHookSurface;
        const where = at("hook", s.name);
        model.hooks.push({ id: `hook:${s.name}`, name: s.name, event: s.event, target: s.target, phase: s.phase, path: s.path, supported: true, at: where });
        model.processes.push({ id: `hook-module:${s.name}`, kind: "hook-module", name: s.name, command: "bun", args: [rootPath(s.path)], cwd: rootPath("."), commandInBundle: false, script: s.path, hostEnvironment: "agent", at: where });
        break;
      }
      case "mcp":
        addMcp(model, surface as GjcMcpSurface, at("mcp", (surface as GjcMcpSurface).name));
        break;
      case "system-appendix":
      case "agent-appendix": {
        const s = surface as GjcAppendixSurface;
        const name = s.kind === "agent-appendix" && s.agent ? `${s.agent}/${s.name}` : s.name;
        model.prompts.push({ id: `${s.kind}:${name}`, kind: s.kind, name, path: s.path, bytes: s.bytes, sha256: `sha256:${s.sha256}` });
        break;
      }
      case "subskill": {
        const s = surface as GjcSubskillSurface;
        model.prompts.push({ id: `subskill:${s.parent}/${s.name}`, kind: "subskill", name: `${s.parent}/${s.name}`, path: s.path, bytes: bytesOf.get(s.path) ?? 0, sha256: `sha256:${s.sha256}` });
        for (const t of s.toolPaths) {
          const id = `tool-module:${t}`;
          if (!model.processes.some((p) => p.id === id)) model.processes.push({ id, kind: "tool-module", name: t, command: "bun", args: [rootPath(t)], cwd: rootPath("."), commandInBundle: false, script: t, hostEnvironment: "agent", at: at("subskill", s.name, s.path) });
        }
        break;
      }
    }
  }
  for (const p of model.prompts) model.promptBytes += p.bytes;
  const shaOf = new Map(bundle.files.map((f) => [f.path, f.sha256]));
  attachCodeDigests(model, (path) => shaOf.get(path));
  return model;
}

function addMcp(model: CapabilityModel, s: GjcMcpSurface, where: DeclaredAt): void {
  if (s.transport !== "stdio") {
    const u = describeUrl(s.url ?? "");
    model.endpoints.push({ id: `mcp:${s.name}`, kind: "mcp", name: s.name, transport: s.transport, ...u, headers: [], at: where });
    return;
  }
  const launcher = s.launcher;
  const declared = s.args ?? [];
  const cwd = rootPath(launcher?.cwd ?? ".");
  const base = { id: `mcp-stdio:${s.name}`, kind: "mcp-stdio" as const, name: s.name, cwd, hostEnvironment: "allow-list" as const, at: where };
  if (launcher?.kind === "bundled" && launcher.executable) {
    model.processes.push({ ...base, command: rootPath(launcher.executable), args: declared, commandInBundle: true, script: null });
  } else if (launcher && launcher.script) {
    // The script is passed by its installed path; bun also gets gjc's isolation flags.
    const args = [rootPath(launcher.script), ...declared.slice(1)];
    const flags = launcher.kind === "bun" ? isolatingBunFlags("<empty bunfig of gjc>") : [];
    model.processes.push({ ...base, command: launcher.kind, args: [...flags, ...args], commandInBundle: false, script: launcher.script });
  } else {
    model.processes.push({ ...base, command: s.command ?? "", args: declared, commandInBundle: false, script: null });
  }
}

/** The model of what install compiled (compileForInstall keeps the manifest bytes it validated). */
export function gjcModelOf(bundle: CompiledBundle): CapabilityModel {
  let raw: unknown;
  try {
    raw = JSON.parse(new TextDecoder().decode(bundle.contents.get(GJC_MANIFEST)).replace(/^\uFEFF/, ""));
  } catch {
    raw = undefined;
  }
  return gjcCapabilities(bundle as unknown as CompiledGjcBundle, raw);
}
