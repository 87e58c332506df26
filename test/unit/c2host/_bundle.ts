import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { C2Command, C2Manifest } from "../../../src/families/c2/types.ts";
import { fixturesDir } from "../../helpers/cli.ts";

export const RUNTIME_SCRIPT = join(fixturesDir, "runtimes", "protocol-runtime.mjs");

export interface BundleOptions {
  name?: string;
  version?: string;
  commands?: { id: string; argsSchema?: Record<string, unknown> | null }[];
  mode?: string;
  /** `node` (default) or `bun`. */
  interpreter?: string;
  scopeSupport?: ("user" | "project")[];
  inject?: string[];
  env?: Record<string, string>;
  ui?: Record<string, unknown>[];
  connectors?: Record<string, unknown>[];
  languageServers?: Record<string, unknown>[];
  extraFiles?: Record<string, string>;
}

/**
 * Writes a C2 bundle that runs fixtures/runtimes/protocol-runtime.mjs, and returns its
 * plugin.json object plus the normalized manifest the validator would produce for it.
 */
export function writeRuntimeBundle(
  dir: string,
  o: BundleOptions = {},
): { dir: string; pluginJson: Record<string, unknown>; manifest: C2Manifest } {
  mkdirSync(dir, { recursive: true });
  const commands = o.commands ?? [{ id: "demo.echo", argsSchema: { type: "object" } }];
  const runtime: Record<string, unknown> = { command: o.interpreter ?? "node", args: ["runtime.mjs", o.mode ?? "ok"] };
  if (o.scopeSupport) runtime.scopeSupport = o.scopeSupport;
  if (o.inject) runtime.inject = o.inject;
  if (o.env) runtime.env = o.env;
  const codetwo: Record<string, unknown> = {
    standardVersion: "1.2.0",
    commands: commands.map((c) => ({
      id: c.id,
      title: `Run ${c.id}`,
      ...(c.argsSchema ? { argsSchema: c.argsSchema } : {}),
    })),
    runtime,
  };
  if (o.ui) codetwo.ui = o.ui;
  if (o.connectors) codetwo.connectors = o.connectors;
  if (o.languageServers) codetwo.languageServers = o.languageServers;
  const pluginJson = {
    $schema: "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json",
    name: o.name ?? "demo-runtime",
    version: o.version ?? "1.0.0",
    description: "test runtime",
    extensions: { "dev.codetwo": codetwo },
  };
  writeFileSync(join(dir, "plugin.json"), `${JSON.stringify(pluginJson, null, 2)}\n`);
  copyFileSync(RUNTIME_SCRIPT, join(dir, "runtime.mjs"));
  for (const [rel, content] of Object.entries(o.extraFiles ?? {})) {
    mkdirSync(join(dir, rel, ".."), { recursive: true });
    writeFileSync(join(dir, rel), content, { mode: 0o755 });
  }
  return { dir, pluginJson, manifest: manifestOf(pluginJson) };
}

/** The normalized manifest for the plugin.json objects this helper writes (defaults filled). */
export function manifestOf(pluginJson: Record<string, any>): C2Manifest {
  const c = pluginJson.extensions["dev.codetwo"];
  const rt = c.runtime;
  const scope = rt?.scopeSupport ?? ["user"];
  return {
    schema: pluginJson.$schema,
    name: pluginJson.name,
    version: pluginJson.version,
    description: pluginJson.description,
    keywords: [],
    extensions: {},
    codetwo: {
      standardVersion: "1.2.0",
      runtime: rt
        ? {
            command: rt.command,
            protocol: rt.protocol ?? "1.0.0",
            args: rt.args ?? [],
            env: rt.env ?? {},
            inject: rt.inject ?? [],
            optionalInject: rt.optionalInject ?? [],
            scopeSupport: scope.includes("user") ? scope : ["user", ...scope],
          }
        : null,
      commands: (c.commands ?? []).map(
        (x: any): C2Command => ({
          id: x.id,
          title: x.title,
          description: x.description ?? "",
          argsSchema: x.argsSchema ?? null,
        }),
      ),
      ui: (c.ui ?? []).map((u: any) => ({
        id: u.id,
        slot: u.slot,
        label: u.label,
        description: u.description ?? "",
        command: u.command,
        input: u.input ?? null,
        order: u.order ?? 0,
      })),
      connectors: (c.connectors ?? []).map((k: any) => ({
        id: k.id,
        provider: k.provider,
        command: k.command,
        capabilities: [...new Set<string>(k.capabilities)],
      })),
      languageServers: (c.languageServers ?? []).map((l: any) => ({
        id: l.id,
        languages: [...new Set<string>(l.languages.map((x: string) => x.toLowerCase()))],
        command: l.command,
        args: l.args ?? [],
        env: l.env ?? {},
      })),
    },
  } as C2Manifest;
}

/** Live (non-zombie) members of a process group, read from /proc. */
export function liveGroupMembers(pgid: number): number[] {
  const out: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, "utf8");
    } catch {
      continue;
    }
    // Fields after the parenthesised command: state, ppid, pgrp, ...
    const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(rest[2]) === pgid && rest[0] !== "Z" && rest[0] !== "X") out.push(Number(name));
  }
  return out;
}

export function processAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const state = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0];
    return state !== "Z" && state !== "X";
  } catch {
    return false;
  }
}
