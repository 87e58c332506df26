/**
 * The capability model of a compiled GJC bundle (src/families/gjc/compile.ts, the compile
 * validate and install run). Processes are shown as gjc will start them: stdio MCP servers
 * with gjc's own bun isolation flags and the allow-listed environment, tool and hook modules
 * as code the GJC agent loads.
 */
import { pointer } from "../../core/diagnostics.ts";
import type {
  CompiledGjcBundle,
  GjcAppendixSurface,
  GjcHookSurface,
  GjcMcpSurface,
  GjcSubskillSurface,
  GjcToolSurface,
} from "./compile.ts";
import { GJC_MANIFEST } from "../detect.ts";
import type { CompiledBundle } from "./compile-for-install.ts";
import { isolatingBunFlags } from "../../process/bun-flags.ts";
import {
  attachCodeDigests,
  describeUrl,
  emptyModel,
  rootPath,
  type CapabilityModel,
  type DeclaredAt,
} from "../capability-model.ts";

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Finds where a surface was declared in the manifest as written (aliases included: the
 * compiled surfaces are normalized, the pointer must name the bytes the author wrote).
 */
function locator(raw: unknown) {
  const doc = isObject(raw) ? raw : {};
  // name → pointer, built once per list (a bundle may declare thousands of tools).
  const indexes = new Map<string, Map<string, string>>();
  const indexOf = (key: string, keyOf: (e: unknown) => string | undefined): Map<string, string> => {
    let index = indexes.get(key);
    if (!index) {
      index = new Map();
      const list = doc[key];
      if (Array.isArray(list)) {
        for (let i = 0; i < list.length; i++) {
          const k = keyOf(list[i]);
          // The list keys are plain words: no ~ or / to escape in the pointer.
          if (k !== undefined && !index.has(k)) index.set(k, `/${key}/${i}`);
        }
      }
      indexes.set(key, index);
    }
    return index;
  };
  const byName = (e: unknown) => (isObject(e) && typeof e.name === "string" ? e.name : undefined);
  const byValue = (e: unknown) => (typeof e === "string" ? e : undefined);
  const first = (keys: string[], name: string, keyOf: (e: unknown) => string | undefined) => {
    for (const key of keys) {
      const at = indexOf(key, keyOf).get(name);
      if (at) return at;
    }
    return undefined;
  };
  return (kind: string, name: string, path?: string): DeclaredAt => {
    let at: string | undefined;
    switch (kind) {
      case "tool":
        at = first(["tools"], name, byName);
        break;
      case "hook":
        at = first(["hooks"], name, byName);
        break;
      case "mcp":
        at = first(["mcps", "mcp"], name, byName);
        if (!at && isObject(doc.mcpServers) && name in doc.mcpServers) at = pointer(pointer("", "mcpServers"), name);
        break;
      case "system-appendix":
        at = first(["system_appendix", "system-appendix"], name, byName);
        break;
      case "agent-appendix":
        at = first(["agent-appendix", "agent_appendix"], name, byName);
        break;
      case "subskill":
        at = path === undefined ? undefined : first(["subskills"], path, byValue);
        break;
    }
    return { file: GJC_MANIFEST, pointer: at ?? "" };
  };
}

export function gjcCapabilities(bundle: CompiledGjcBundle, rawManifest: unknown): CapabilityModel {
  const at = locator(rawManifest);
  const totalBytes = bundle.files.reduce((sum, f) => sum + f.bytes, 0);
  let bytesOf: Map<string, number> | undefined;
  const model = emptyModel("gjc", bundle.name, bundle.version, { count: bundle.files.length, bytes: totalBytes });
  // Tool-module ids already in the model (a sub-skill's scoped tools may repeat).
  const seen = new Set<string>();
  const ROOT = rootPath(".");
  for (const surface of bundle.surfaces) {
    switch (surface.kind) {
      case "tool": {
        const s = surface as GjcToolSurface;
        const id = `tool-module:${s.name}`;
        seen.add(id);
        model.processes.push({
          id,
          kind: "tool-module",
          name: s.name,
          command: "bun",
          args: [`${ROOT}/${s.path}`],
          cwd: ROOT,
          commandInBundle: false,
          script: s.path,
          codeSha256: `sha256:${s.sha256}`,
          hostEnvironment: "agent",
          at: at("tool", s.name),
        });
        break;
      }
      case "hook": {
        const s = surface as GjcHookSurface;
        const where = at("hook", s.name);
        model.hooks.push({
          id: `hook:${s.name}`,
          name: s.name,
          event: s.event,
          target: s.target,
          phase: s.phase,
          path: s.path,
          supported: true,
          at: where,
        });
        model.processes.push({
          id: `hook-module:${s.name}`,
          kind: "hook-module",
          name: s.name,
          command: "bun",
          args: [`${ROOT}/${s.path}`],
          cwd: ROOT,
          commandInBundle: false,
          script: s.path,
          codeSha256: `sha256:${s.sha256}`,
          hostEnvironment: "agent",
          at: where,
        });
        break;
      }
      case "mcp":
        addMcp(model, surface as GjcMcpSurface, at("mcp", (surface as GjcMcpSurface).name));
        break;
      case "system-appendix":
      case "agent-appendix": {
        const s = surface as GjcAppendixSurface;
        const name = s.kind === "agent-appendix" && s.agent ? `${s.agent}/${s.name}` : s.name;
        model.prompts.push({
          id: `${s.kind}:${name}`,
          kind: s.kind,
          name,
          path: s.path,
          bytes: s.bytes,
          sha256: `sha256:${s.sha256}`,
        });
        break;
      }
      case "subskill": {
        const s = surface as GjcSubskillSurface;
        model.prompts.push({
          id: `subskill:${s.parent}/${s.name}`,
          kind: "subskill",
          name: `${s.parent}/${s.name}`,
          path: s.path,
          bytes: (bytesOf ??= new Map(bundle.files.map((f) => [f.path, f.bytes]))).get(s.path) ?? 0,
          sha256: `sha256:${s.sha256}`,
        });
        for (const t of s.toolPaths) {
          const id = `tool-module:${t}`;
          if (seen.has(id)) continue;
          seen.add(id);
          model.processes.push({
            id,
            kind: "tool-module",
            name: t,
            command: "bun",
            args: [rootPath(t)],
            cwd: rootPath("."),
            commandInBundle: false,
            script: t,
            hostEnvironment: "agent",
            at: at("subskill", s.name, s.path),
          });
        }
        break;
      }
    }
  }
  for (const p of model.prompts) model.promptBytes += p.bytes;
  // Tools and hooks carry their digest already; stdio launchers and sub-skill tools look it up.
  let shaOf: Map<string, string> | undefined;
  attachCodeDigests(model, (path) => (shaOf ??= new Map(bundle.files.map((f) => [f.path, f.sha256]))).get(path));
  return model;
}

function addMcp(model: CapabilityModel, s: GjcMcpSurface, where: DeclaredAt): void {
  if (s.transport !== "stdio") {
    const u = describeUrl(s.url ?? "");
    model.endpoints.push({
      id: `mcp:${s.name}`,
      kind: "mcp",
      name: s.name,
      transport: s.transport,
      ...u,
      headers: [],
      at: where,
    });
    return;
  }
  const launcher = s.launcher;
  const declared = s.args ?? [];
  const cwd = rootPath(launcher?.cwd ?? ".");
  const base = {
    id: `mcp-stdio:${s.name}`,
    kind: "mcp-stdio" as const,
    name: s.name,
    cwd,
    hostEnvironment: "allow-list" as const,
    at: where,
  };
  if (launcher?.kind === "bundled" && launcher.executable) {
    model.processes.push({
      ...base,
      command: rootPath(launcher.executable),
      args: declared,
      commandInBundle: true,
      script: null,
    });
  } else if (launcher && launcher.script) {
    // The script is passed by its installed path; bun also gets gjc's isolation flags.
    const args = [rootPath(launcher.script), ...declared.slice(1)];
    const flags = launcher.kind === "bun" ? isolatingBunFlags("<empty bunfig of gjc>") : [];
    model.processes.push({
      ...base,
      command: launcher.kind,
      args: [...flags, ...args],
      commandInBundle: false,
      script: launcher.script,
    });
  } else {
    model.processes.push({ ...base, command: s.command ?? "", args: declared, commandInBundle: false, script: null });
  }
}

/** The model of what install's compile planned; the manifest bytes (when known) give declaration pointers. */
export function gjcModelOf(
  bundle: CompiledBundle,
  manifestBytes: Uint8Array | undefined = bundle.contents?.get(GJC_MANIFEST),
): CapabilityModel {
  let raw: unknown;
  try {
    raw =
      manifestBytes === undefined
        ? undefined
        : JSON.parse(new TextDecoder().decode(manifestBytes).replace(/^\uFEFF/, ""));
  } catch {
    raw = undefined;
  }
  return gjcCapabilities(bundle as unknown as CompiledGjcBundle, raw);
}
