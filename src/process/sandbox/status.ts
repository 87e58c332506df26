import { runsCleanly } from "../launch.ts";
import { sandboxMode, type SandboxMode } from "./confine.ts";
import { sandboxMechanisms } from "./mechanisms.ts";

/** What `gjc plugin doctor` says about the sandbox of plugin processes on this machine. */
export interface SandboxStatus {
  mode: SandboxMode;
  /** Whether plugin processes start confined here (false: unconfined, with a warning, or refused under require). */
  enforced: boolean;
  landlock: { active: boolean; abi: number; tcp: boolean; scoped: boolean };
  seccomp: { active: boolean };
  namespaces: { active: boolean; unshare: string | null };
  /** How "no network" is enforced: a network namespace, Landlock TCP rules (no UDP via seccomp), or not at all. */
  network: "namespace" | "landlock-tcp" | "none";
  missing: string[];
  fallbacks: string[];
}

export function sandboxStatus(env: Record<string, string | undefined>): SandboxStatus {
  const m = sandboxMechanisms(env, runsCleanly);
  const mode = sandboxMode(env);
  return {
    mode,
    enforced: mode !== "off" && m.enforced,
    landlock: { active: m.landlockAbi > 0, abi: m.landlockAbi, tcp: m.landlockAbi >= 4, scoped: m.landlockAbi >= 6 },
    seccomp: { active: m.seccomp },
    namespaces: { active: m.unshare !== null, unshare: m.unshare },
    network: m.network,
    missing: m.missing,
    fallbacks: m.fallbacks,
  };
}
