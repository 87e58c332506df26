import pkg from "../../package.json" with { type: "json" };
import { PROTOCOL_VERSION } from "./limits.ts";

/** The host name runtimes see in `initialize.host.name` (DESIGN 6a). */
export const HOST_NAME = "gjc";
export const HOST_VERSION: string = pkg.version;

/**
 * Services this host provides to runtimes. `runtime.inject` naming anything else leaves the
 * runtime pending (never a silent success); `optionalInject` may name anything.
 */
export const HOST_SERVICES: readonly string[] = ["extensions-runtime"];

export function missingServices(inject: readonly string[], provided: readonly string[] = HOST_SERVICES): string[] {
  return inject.filter((s) => !provided.includes(s));
}

export function hostInfo(): Record<string, unknown> {
  return {
    name: HOST_NAME,
    version: HOST_VERSION,
    protocolVersion: PROTOCOL_VERSION,
    services: [...HOST_SERVICES],
    platform: process.platform,
  };
}
