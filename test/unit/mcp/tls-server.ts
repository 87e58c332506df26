import type { Server } from "bun";

export interface SeenRequest {
  method: string;
  path: string;
  host: string | null;
  userAgent: string | null;
}

/**
 * A local HTTPS server on an ephemeral port of 127.0.0.1 that records every request (method,
 * path, Host and User-Agent headers) before handing it to `handler`.
 */
export function startTlsServer(
  tls: { cert: string; key: string },
  handler: (req: Request) => Response | Promise<Response>,
): { server: Server<undefined>; seen: SeenRequest[]; port: number } {
  const seen: SeenRequest[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    tls,
    idleTimeout: 30,
    fetch(req) {
      const u = new URL(req.url);
      seen.push({
        method: req.method,
        path: u.pathname + u.search,
        host: req.headers.get("host"),
        userAgent: req.headers.get("user-agent"),
      });
      return handler(req);
    },
  });
  return { server, seen, port: server.port as number };
}
