import pkg from "../../package.json" with { type: "json" };
import { HOST_SERVICES } from "../families/c2/host-services.ts";
import { PROTOCOL_VERSION } from "./limits.ts";

/** The host name runtimes see in `initialize.host.name` (DESIGN 6a). */
export const HOST_NAME = "gjc";
export const HOST_VERSION: string = pkg.version;

export { HOST_SERVICES, missingServices } from "../families/c2/host-services.ts";

export function hostInfo(): Record<string, unknown> {
  return {
    name: HOST_NAME,
    version: HOST_VERSION,
    protocolVersion: PROTOCOL_VERSION,
    services: [...HOST_SERVICES],
    platform: process.platform,
  };
}
