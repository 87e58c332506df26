/**
 * The capability model of a planned C2 bundle (planC2Bundle, the plan validate and install
 * run). Processes are shown as the C2 host starts them: bundle commands under the installed
 * root, language servers in the project directory, each with gjc's allow-listed environment
 * plus the manifest's env (src/process/env.ts). mcp.json entries are read from the bytes the plan
 * collected and validated, so the model describes exactly what would be installed.
 */
import { pointer } from "../../core/diagnostics.ts";
import { isBundleRelative } from "./executable.ts";
import { MCP_FILE } from "./mcp.ts";
import { C2_NAMESPACE, MANIFEST_FILE } from "./rules.ts";
import type { C2Plan } from "./validate.ts";
import type { C2Manifest } from "./types.ts";
import { join } from "node:path";
import { C2_LIMITS } from "../../bundle/limits.ts";
import { stripDotSlash } from "../../bundle/path-safety.ts";
import { readRegularFile } from "../../bundle/read-file.ts";
import {
  attachCodeDigests,
  describeUrl,
  emptyModel,
  rootPath,
  type CapabilityModel,
  type DeclaredAt,
  type EnvCapability,
} from "../capability-model.ts";

const C2_PTR = `/extensions/${C2_NAMESPACE}`;
const inManifest = (p: string): DeclaredAt => ({ file: MANIFEST_FILE, pointer: p });
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
/** Variables the C2 host itself provides; a reference to one passes nothing of the user's. */
const HOST_PROVIDED = new Set(["PLUGIN_ROOT", "PLUGIN_DATA", "PLUGIN_PROJECT_DIR"]);

/** A bundle path (`./bin/x`, `bin/x`) as it runs, or a PATH program name as written. */
function program(command: string): { command: string; inBundle: boolean } {
  return isBundleRelative(command)
    ? { command: rootPath(stripDotSlash(command)), inBundle: true }
    : { command, inBundle: false };
}

/** Names only: `sets` for a literal value, `passes` for a value that is one host variable. */
export function envEntries(owner: string, env: Record<string, unknown>, base: DeclaredAt): EnvCapability[] {
  const out: EnvCapability[] = [];
  for (const [name, value] of Object.entries(env)) {
    const m = typeof value === "string" ? /\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)\}/.exec(value) : null;
    const from = m && !HOST_PROVIDED.has(m[1]) ? m[1] : null;
    out.push({
      owner,
      name,
      mode: from ? "passes" : "sets",
      from,
      at: { file: base.file, pointer: pointer(base.pointer, name) },
    });
  }
  return out;
}

/**
 * A contribution file's JSON: from the bytes the plan kept, or (a plan made without
 * keepContents, as install --dry-run makes) read again from the planned directory.
 */
function readJson(plan: C2Plan, path: string): unknown {
  let bytes = plan.collection.contents?.get(path);
  try {
    bytes ??= readRegularFile(join(plan.dir, path), C2_LIMITS.maxFileBytes, path).bytes;
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return undefined;
  }
}

export function c2Capabilities(plan: C2Plan & { manifest: C2Manifest }): CapabilityModel {
  const { manifest, collection, contributions } = plan;
  const c2 = manifest.codetwo;
  const file = new Map<string, { bytes: number; sha256: string }>();
  for (const f of collection.files) file.set(f.path, { bytes: f.size, sha256: f.sha256 });
  const model = emptyModel("c2", manifest.name, manifest.version, {
    count: collection.files.length,
    bytes: collection.totalBytes,
  });

  if (c2.runtime) {
    const r = c2.runtime;
    const p = program(r.command);
    const at = `${C2_PTR}/runtime`;
    const script =
      !p.inBundle && r.args[0] !== undefined && file.has(stripDotSlash(r.args[0])) ? stripDotSlash(r.args[0]) : null;
    model.processes.push({
      id: "c2-runtime:runtime",
      kind: "c2-runtime",
      name: "runtime",
      command: p.command,
      args: r.args,
      cwd: rootPath("."),
      commandInBundle: p.inBundle,
      script,
      hostEnvironment: "allow-list",
      at: inManifest(`${at}/command`),
    });
    model.env.push(...envEntries("c2-runtime:runtime", r.env, inManifest(`${at}/env`)));
    r.inject.forEach((name, i) =>
      model.hostCommands.push({
        owner: "c2-runtime:runtime",
        kind: "inject",
        name,
        at: inManifest(`${at}/inject/${i}`),
      }),
    );
    r.optionalInject.forEach((name, i) =>
      model.hostCommands.push({
        owner: "c2-runtime:runtime",
        kind: "optional-inject",
        name,
        at: inManifest(`${at}/optionalInject/${i}`),
      }),
    );
  }
  c2.commands.forEach((c, i) =>
    model.hostCommands.push({
      owner: "c2-runtime:runtime",
      kind: "command",
      name: c.id,
      title: c.title,
      description: c.description,
      argsSchema: c.argsSchema,
      at: inManifest(`${C2_PTR}/commands/${i}`),
    }),
  );
  c2.ui.forEach((u, i) =>
    model.hostCommands.push({
      owner: `ui:${u.id}`,
      kind: "ui-slot",
      name: `${u.slot}:${u.id}->${u.command}`,
      at: inManifest(`${C2_PTR}/ui/${i}`),
    }),
  );
  c2.connectors.forEach((c, i) =>
    model.hostCommands.push({
      owner: `connector:${c.id}`,
      kind: "connector",
      name: `${c.id}@${c.provider} [${c.capabilities.join(",")}] -> ${c.command}`,
      at: inManifest(`${C2_PTR}/connectors/${i}`),
    }),
  );
  c2.languageServers.forEach((l, i) => {
    const p = program(l.command);
    const id = `language-server:${l.id}`;
    const script =
      !p.inBundle && l.args[0] !== undefined && file.has(stripDotSlash(l.args[0])) ? stripDotSlash(l.args[0]) : null;
    model.processes.push({
      id,
      kind: "language-server",
      name: l.id,
      command: p.command,
      args: l.args,
      cwd: "${PLUGIN_PROJECT_DIR}",
      commandInBundle: p.inBundle,
      script,
      hostEnvironment: "allow-list",
      at: inManifest(`${C2_PTR}/languageServers/${i}/command`),
    });
    model.env.push(...envEntries(id, l.env, inManifest(`${C2_PTR}/languageServers/${i}/env`)));
  });

  addMcpServers(model, plan, file);
  addHooks(model, plan);

  const prompt = (kind: "skill" | "agent" | "prompt-command", name: string, path: string) => {
    const f = file.get(path);
    if (f)
      model.prompts.push({ id: `${kind}:${name}`, kind, name, path, bytes: f.bytes, sha256: `sha256:${f.sha256}` });
  };
  for (const s of contributions.skills) prompt("skill", s.name, s.path);
  for (const a of contributions.agents) prompt("agent", a.name, a.path);
  for (const c of contributions.promptCommands) prompt("prompt-command", c.name, c.path);
  for (const p of model.prompts) model.promptBytes += p.bytes;
  attachCodeDigests(model, (path) => file.get(path)?.sha256);
  return model;
}

function addMcpServers(model: CapabilityModel, plan: C2Plan, file: Map<string, unknown>): void {
  if (plan.contributions.mcpServers.length === 0) return;
  const raw = readJson(plan, MCP_FILE);
  const servers = isObject(raw) && isObject(raw.mcpServers) ? raw.mcpServers : {};
  for (const declared of plan.contributions.mcpServers) {
    const s = servers[declared.name];
    if (!isObject(s)) continue;
    const base = pointer("/mcpServers", declared.name);
    const at = (p: string): DeclaredAt => ({ file: MCP_FILE, pointer: p });
    if (declared.type === "stdio") {
      const command = typeof s.command === "string" ? s.command : "";
      const args = Array.isArray(s.args) ? s.args.filter((a): a is string => typeof a === "string") : [];
      const p = command.startsWith("./")
        ? { command: rootPath(command.slice(2)), inBundle: true }
        : { command, inBundle: false };
      const id = `mcp-stdio:${declared.name}`;
      const first = args[0] === undefined ? undefined : stripDotSlash(args[0].replace(/^\$\{PLUGIN_ROOT\}\//, ""));
      const script = !p.inBundle && first !== undefined && file.has(first) ? first : null;
      const cwd = typeof s.cwd === "string" ? s.cwd.replace(/^\.\//, "${PLUGIN_ROOT}/") : rootPath(".");
      model.processes.push({
        id,
        kind: "mcp-stdio",
        name: declared.name,
        command: p.command,
        args,
        cwd,
        commandInBundle: p.inBundle,
        script,
        hostEnvironment: "allow-list",
        at: at(pointer(base, "command")),
      });
      if (isObject(s.env)) model.env.push(...envEntries(id, s.env, at(pointer(base, "env"))));
    } else {
      const u = describeUrl(typeof s.url === "string" ? s.url : "");
      const headers = isObject(s.headers) ? Object.keys(s.headers) : [];
      model.endpoints.push({
        id: `mcp:${declared.name}`,
        kind: "mcp",
        name: declared.name,
        transport: declared.type,
        ...u,
        headers,
        at: at(pointer(base, "url")),
      });
    }
  }
}

/** hooks/hooks.json is kept and shown, never run (DESIGN §2 item 6): its events, as declared. */
function addHooks(model: CapabilityModel, plan: C2Plan): void {
  for (const path of plan.contributions.hooks) {
    const raw = readJson(plan, path);
    const events = isObject(raw) && isObject(raw.hooks) ? Object.keys(raw.hooks) : [];
    for (const event of events) {
      model.hooks.push({
        id: `hook:${event}`,
        name: event,
        event,
        target: null,
        phase: null,
        path,
        supported: false,
        at: { file: path, pointer: pointer("/hooks", event) },
      });
    }
  }
}
