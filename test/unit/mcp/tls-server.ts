import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Server } from "bun";

/** A self-signed certificate for `names`, made by the real openssl in `dir`. */
export function makeCertificate(dir: string, names: string[]): { cert: string; key: string } {
  const key = join(dir, "key.pem");
  const cert = join(dir, "cert.pem");
  const r = Bun.spawnSync(
    ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", key, "-out", cert,
      "-days", "2", "-subj", `/CN=${names[0]}`, "-addext", `subjectAltName=${names.map((n) => `DNS:${n}`).join(",")}`],
    { stdout: "pipe", stderr: "pipe" },
  );
  if (r.exitCode !== 0) throw new Error(`openssl failed: ${r.stderr.toString()}`);
  return { cert: readFileSync(cert, "utf8"), key: readFileSync(key, "utf8") };
}

export interface SeenRequest {
  method: string;
  path: string;
  host: string | null;
}

/**
 * A local HTTPS server on an ephemeral port of 127.0.0.1 that records every request (method,
 * path, Host header) before handing it to `handler`.
 */
export function startTlsServer(tls: { cert: string; key: string }, handler: (req: Request) => Response | Promise<Response>): { server: Server<undefined>; seen: SeenRequest[]; port: number } {
  const seen: SeenRequest[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    tls,
    idleTimeout: 30,
    fetch(req) {
      const u = new URL(req.url);
      seen.push({ method: req.method, path: u.pathname + u.search, host: req.headers.get("host") });
      return handler(req);
    },
  });
  return { server, seen, port: server.port as number };
}
