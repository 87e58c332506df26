/**
 * The normalized C2 manifest: what `parseC2Manifest` returns once plugin.json is valid.
 * Defaults are filled in and values normalized (c2-notes §2), so consumers (installer,
 * runtime supervisor, policy) never re-derive them.
 */
import type { CONNECTOR_CAPABILITIES, SCOPES, UI_SLOTS } from "./rules.ts";

export type C2Scope = (typeof SCOPES)[number];
export type C2UiSlot = (typeof UI_SLOTS)[number];
export type C2Capability = (typeof CONNECTOR_CAPABILITIES)[number];

export interface C2Author {
  name?: string;
  email?: string;
  url?: string;
}

export interface C2Command {
  /** `namespace.verb`, unique in the bundle. */
  id: string;
  /** Trimmed, 1..80 code points. */
  title: string;
  /** Trimmed, ≤300 code points; "" when absent. */
  description: string;
  /** Kept verbatim (only compared at the handshake); null when absent or null. */
  argsSchema: Record<string, unknown> | null;
}

export interface C2Runtime {
  /** Executable name (PATH) or bundle-relative path as written (`./bin/x` or `bin/x`). */
  command: string;
  /** Declared wire version; "1.0.0" when absent. */
  protocol: string;
  args: string[];
  env: Record<string, string>;
  inject: string[];
  optionalInject: string[];
  /** Always contains "user" (the default scope); "project" only when declared. */
  scopeSupport: C2Scope[];
}

export interface C2UiAction {
  id: string;
  slot: C2UiSlot;
  /** Trimmed, 1..80 code points. */
  label: string;
  /** Trimmed; "" when absent. */
  description: string;
  /** A command id declared in the same bundle's `commands`. */
  command: string;
  /** Static input passed on activation; null when absent. */
  input: unknown;
  /** −100..100, 0 when absent. */
  order: number;
}

export interface C2Connector {
  id: string;
  provider: string;
  command: string;
  /** Non-empty, de-duplicated, declaration order kept. */
  capabilities: C2Capability[];
}

export interface C2LanguageServer {
  id: string;
  /** Lower-cased, de-duplicated, 1..16 entries. */
  languages: string[];
  command: string;
  args: string[];
  env: Record<string, string>;
}

export interface C2Extension {
  standardVersion: "1.2.0";
  runtime: C2Runtime | null;
  commands: C2Command[];
  ui: C2UiAction[];
  connectors: C2Connector[];
  languageServers: C2LanguageServer[];
}

export interface C2Manifest {
  /** The Agent Plugins `$schema` URL (always the 1.0.0 one). */
  schema: string;
  name: string;
  /** Strict SemVer 2.0.0. */
  version: string;
  description?: string;
  author?: C2Author;
  homepage?: string;
  repository?: string;
  license?: string;
  keywords: string[];
  /** Every `extensions` namespace other than dev.codetwo, kept verbatim and unvalidated. */
  extensions: Record<string, Record<string, unknown>>;
  codetwo: C2Extension;
}
