import type { C2Command } from "../families/c2/types.ts";
import { HOST_NAME, HOST_VERSION } from "./host-identity.ts";
import { PROTOCOL_VERSION } from "./limits.ts";

export interface InitializeInput {
  visibleCommands: string[];
  config: unknown;
  dataDir: string;
  /** Only for project instances; the user instance never gets the key. */
  projectPath?: string;
}

export function initializeParams(input: InitializeInput): Record<string, unknown> {
  const params: Record<string, unknown> = {
    protocolVersion: PROTOCOL_VERSION,
    host: { name: HOST_NAME, version: HOST_VERSION, commands: [...input.visibleCommands] },
    config: input.config === undefined ? null : input.config,
    dataDir: input.dataDir,
  };
  if (input.projectPath !== undefined) params.projectPath = input.projectPath;
  return params;
}

/** Why a handshake was refused; `kind` picks the error code the caller sees. */
export class HandshakeRefusal extends Error {
  constructor(
    readonly kind: "protocol" | "mismatch" | "invalid",
    message: string,
  ) {
    super(message);
    this.name = "HandshakeRefusal";
  }
}

export interface AcceptedHandshake {
  protocolVersion: string;
  /** Event names the runtime subscribed to. */
  events: string[];
}

/** Compatible iff the major version is exactly 1 (`1.4.2` yes; `2.0.0`, `0.9.0`, `""` no). */
export function protocolCompatible(version: unknown): boolean {
  return typeof version === "string" && version !== "" && version.split(".")[0] === "1";
}

/**
 * Checks an `initialize` result against the manifest: protocol major 1, exactly the declared
 * command ids (no duplicates, none missing, none extra), and each returned `schema` equal to
 * the manifest's `argsSchema` as a JSON value (absent and null are the same). Descriptions and
 * names in the result are informational and ignored: the manifest is authoritative.
 */
export function checkInitializeResult(result: unknown, declared: readonly C2Command[]): AcceptedHandshake {
  if (result === null || typeof result !== "object" || Array.isArray(result)) {
    throw new HandshakeRefusal("invalid", "the `initialize` result is not a JSON object");
  }
  const r = result as Record<string, unknown>;
  if (!protocolCompatible(r.protocolVersion)) {
    const spoken = typeof r.protocolVersion === "string" && r.protocolVersion !== "" ? r.protocolVersion : "no version";
    throw new HandshakeRefusal(
      "protocol",
      `the runtime speaks plugin protocol ${spoken}; this host speaks ${PROTOCOL_VERSION}`,
    );
  }
  if (!Array.isArray(r.commands))
    throw new HandshakeRefusal("invalid", "the `initialize` result has no `commands` array");
  const returned = new Map<string, unknown>();
  for (const [i, c] of r.commands.entries()) {
    if (c === null || typeof c !== "object" || typeof (c as { name?: unknown }).name !== "string") {
      throw new HandshakeRefusal("invalid", `initialize commands[${i}] has no string \`name\``);
    }
    const { name, schema } = c as { name: string; schema?: unknown };
    if (returned.has(name)) throw new HandshakeRefusal("mismatch", `initialize returned duplicate command \`${name}\``);
    returned.set(name, schema === undefined ? null : schema);
  }
  const declaredIds = new Set(declared.map((c) => c.id));
  const missing = [...declaredIds].filter((id) => !returned.has(id)).sort();
  const extra = [...returned.keys()].filter((id) => !declaredIds.has(id)).sort();
  if (missing.length > 0 || extra.length > 0) {
    const parts = [
      missing.length > 0 ? `missing: ${missing.join(", ")}` : "",
      extra.length > 0 ? `extra: ${extra.join(", ")}` : "",
    ].filter(Boolean);
    throw new HandshakeRefusal("mismatch", `initialize commands do not match the manifest (${parts.join("; ")})`);
  }
  for (const c of declared) {
    if (!Bun.deepEquals(returned.get(c.id), c.argsSchema ?? null)) {
      throw new HandshakeRefusal(
        "mismatch",
        `initialize schema for \`${c.id}\` does not match the manifest argsSchema`,
      );
    }
  }
  const events = Array.isArray(r.events) ? r.events.filter((e): e is string => typeof e === "string") : [];
  return { protocolVersion: r.protocolVersion as string, events };
}
