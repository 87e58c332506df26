import type { SandboxProfile } from "./profile.ts";
import type { ForwarderSpec } from "./stage-spec.ts";

/** The port of the relay's HTTP proxy inside a namespace (nothing else listens there), unless a grant takes it. */
const PROXY_PORTS = [3128, 3129, 8118, 18080];

/** Loopback grants are listened on at their own address; the rest goes through the proxy. */
export function relayedNetwork(
  profile: SandboxProfile,
  socket: string,
): { forwarder: ForwarderSpec; connectPorts: number[]; env: Record<string, string> } {
  const listen = profile.net
    .filter(
      (g): g is { host: string; port: number } =>
        g.port !== undefined && /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(g.host),
    )
    .map((g) => ({ host: g.host, port: g.port }));
  const proxyPort = PROXY_PORTS.find((p) => !listen.some((l) => l.port === p)) as number;
  const proxy = `http://127.0.0.1:${proxyPort}`;
  return {
    forwarder: { socket, listen, proxyPort },
    connectPorts: [proxyPort, ...new Set(listen.map((l) => l.port))],
    env: {
      HTTP_PROXY: proxy,
      HTTPS_PROXY: proxy,
      http_proxy: proxy,
      https_proxy: proxy,
      ALL_PROXY: proxy,
      NO_PROXY: "",
      no_proxy: "",
    },
  };
}
