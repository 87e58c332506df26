// src/process/sandbox/profile.ts
/** What one sandboxed process may touch. Paths are absolute and already resolved. */
export interface SandboxProfile {
  /** read and execute */
  readonly read: readonly string[];
  /** read and write */
  readonly write: readonly string[];
  /** outbound TCP allowed to these; empty means no network at all */
  readonly net: readonly NetGrant[];
}
export interface NetGrant {
  readonly host: string;
  /** absent: any port */
  readonly port?: number;
}
/** Who a sandboxed process is, so a denial can name the grant that would allow it. */
export interface SandboxSubject {
  readonly bundle: string;
  readonly process?: { readonly kind: "server" | "runtime" | "lsp"; readonly id?: string };
}
