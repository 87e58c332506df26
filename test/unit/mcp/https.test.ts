import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { GjcError } from "../../../src/core/errors.ts";
import { probeHttpServer } from "../../../src/mcp/http.ts";
import type { AddressCheck } from "../../../src/mcp/pinned-fetch.ts";
import { legacySseHandler, streamableHandler } from "../../../fixtures/mcp/sdk-server/http-app.ts";
import { tempDir } from "../../helpers/tmp.ts";
import { testCertificate } from "../../helpers/tls.ts";
import { startTlsServer } from "./tls-server.ts";

const NAME = "mcp.gjc.test";
const tmp = tempDir("gjc-mcp-https-");
let tls: { cert: string; key: string };

beforeAll(() => {
  // the committed certificate for mcp.gjc.test and other.gjc.test; the proxy child reads it from a file
  tls = testCertificate("mcp");
  writeFileSync(`${tmp.path}/cert.pem`, tls.cert);
});
afterAll(() => tmp.cleanup());

/** The injected stage (d): names we know go to 127.0.0.1, and every call is recorded. */
function localCheck(known: string[] = [NAME]): AddressCheck & { asked: string[] } {
  const asked: string[] = [];
  const fn = (async (host: string) => {
    asked.push(host);
    return known.includes(host)
      ? { ok: true as const, addresses: ["127.0.0.1"] }
      : { ok: false as const, reason: `${host} resolves to a denied address` };
  }) as AddressCheck & { asked: string[] };
  fn.asked = asked;
  return fn;
}

async function probeError(p: Promise<unknown>): Promise<GjcError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(GjcError);
    return e as GjcError;
  }
  throw new Error("expected the probe to fail");
}

describe("streamable HTTP over a pinned TLS connection", () => {
  test("probes the SDK server: the name is kept for Host and the certificate, the address comes from the check", async () => {
    const app = await streamableHandler();
    const { server, seen, port } = startTlsServer(tls, (req) => app.handle(req));
    try {
      const check = localCheck();
      const result = await probeHttpServer({
        url: `https://${NAME}:${port}/mcp`,
        transport: "http",
        addressCheck: check,
        ca: tls.cert,
      });
      expect(result.serverInfo).toEqual({ name: "fixture-sdk-http", version: "2.0.0" });
      expect(result.tools.map((t) => t.name)).toEqual(["echo", "env_names", "cwd"]);
      expect(check.asked.length).toBeGreaterThanOrEqual(3);
      expect(new Set(check.asked)).toEqual(new Set([NAME]));
      expect(seen.every((r) => r.host === `${NAME}:${port}`)).toBe(true);
      // An ordinary client, not Bun's default User-Agent: the probe does not say what it is.
      expect(seen.every((r) => r.userAgent === "mcp-client/1.0.0")).toBe(true);
      expect(seen.filter((r) => r.method === "POST").length).toBe(3);
      // The session is ended with DELETE on close.
      expect(seen.at(-1)?.method).toBe("DELETE");
    } finally {
      await app.close();
      server.stop(true);
    }
  });

  test("a certificate for another name fails the TLS check (the pinned IP does not bypass it)", async () => {
    const app = await streamableHandler();
    const { server, port } = startTlsServer(tls, (req) => app.handle(req));
    try {
      const err = await probeError(
        probeHttpServer({
          url: `https://wrong.gjc.test:${port}/mcp`,
          transport: "http",
          addressCheck: localCheck(["wrong.gjc.test"]),
          ca: tls.cert,
        }),
      );
      expect(err.code).toBe("mcp_unreachable");
      expect(err.exit).toBe(4);
      expect(err.message).toContain("certificate");
    } finally {
      await app.close();
      server.stop(true);
    }
  });

  test("an untrusted certificate fails without the test CA", async () => {
    const app = await streamableHandler();
    const { server, port } = startTlsServer(tls, (req) => app.handle(req));
    try {
      const err = await probeError(
        probeHttpServer({ url: `https://${NAME}:${port}/mcp`, transport: "http", addressCheck: localCheck() }),
      );
      expect(err.code).toBe("mcp_unreachable");
    } finally {
      await app.close();
      server.stop(true);
    }
  });

  test("a denied address check refuses before any connection", async () => {
    const { server, seen, port } = startTlsServer(tls, () => new Response("never"));
    try {
      const err = await probeError(
        probeHttpServer({
          url: `https://${NAME}:${port}/mcp`,
          transport: "http",
          addressCheck: localCheck([]),
          ca: tls.cert,
        }),
      );
      expect(err.code).toBe("security_policy");
      expect(err.exit).toBe(3);
      expect(seen).toEqual([]);
    } finally {
      server.stop(true);
    }
  });

  test("a name that does not resolve is unreachable (exit 4), not a policy refusal", async () => {
    const err = await probeError(
      probeHttpServer({
        url: `https://${NAME}/mcp`,
        transport: "http",
        addressCheck: async () => ({ ok: false, reason: "DNS resolution failed (ENOTFOUND)", unresolved: true }),
      }),
    );
    expect(err.code).toBe("mcp_unreachable");
    expect(err.exit).toBe(4);
  });

  test("denied URLs never reach the address check or the network", async () => {
    const { server, seen, port } = startTlsServer(tls, () => new Response("never"));
    try {
      for (const url of [
        `http://${NAME}:${port}/mcp`,
        `https://127.0.0.1:${port}/mcp`,
        `https://localhost:${port}/`,
        `https://u:p@${NAME}:${port}/`,
      ]) {
        const check = localCheck();
        const err = await probeError(probeHttpServer({ url, transport: "http", addressCheck: check, ca: tls.cert }));
        expect(err.code).toBe("security_policy");
        expect(check.asked).toEqual([]);
      }
      expect(seen).toEqual([]);
    } finally {
      server.stop(true);
    }
  });

  test("a same-origin redirect is followed and checked again", async () => {
    const app = await streamableHandler();
    const { server, seen, port } = startTlsServer(tls, (req) => {
      const u = new URL(req.url);
      if (u.pathname === "/old") return new Response(null, { status: 308, headers: { location: "/mcp" } });
      return app.handle(req);
    });
    try {
      const check = localCheck();
      const result = await probeHttpServer({
        url: `https://${NAME}:${port}/old`,
        transport: "http",
        addressCheck: check,
        ca: tls.cert,
      });
      expect(result.tools).toHaveLength(3);
      // Three POSTs and the closing DELETE each hit /old, then /mcp: two checks a request.
      expect(seen.filter((r) => r.path === "/old").length).toBe(4);
      expect(seen.filter((r) => r.path === "/mcp").length).toBe(4);
      expect(check.asked.length).toBe(8);
    } finally {
      await app.close();
      server.stop(true);
    }
  });

  test("redirects to another origin or to http are refused", async () => {
    for (const target of ["https://other.gjc.test:PORT/mcp", `http://${NAME}:PORT/mcp`, `https://${NAME}:1/mcp`]) {
      let location = "";
      const { server, seen, port } = startTlsServer(
        tls,
        () => new Response(null, { status: 307, headers: { location } }),
      );
      location = target.replace("PORT", String(port));
      try {
        const err = await probeError(
          probeHttpServer({
            url: `https://${NAME}:${port}/mcp`,
            transport: "http",
            addressCheck: localCheck([NAME, "other.gjc.test"]),
            ca: tls.cert,
          }),
        );
        expect(err.code).toBe("security_policy");
        expect(err.message).toContain("redirect away");
        expect(seen.length).toBe(1);
      } finally {
        server.stop(true);
      }
    }
  });

  test("a response over 1 MiB is refused", async () => {
    const { server, port } = startTlsServer(tls, async (req) => {
      const body = (await req.json()) as { id: number };
      return Response.json({ jsonrpc: "2.0", id: body.id, result: { pad: "x".repeat(1024 * 1024) } });
    });
    try {
      const err = await probeError(
        probeHttpServer({
          url: `https://${NAME}:${port}/mcp`,
          transport: "http",
          addressCheck: localCheck(),
          ca: tls.cert,
        }),
      );
      expect(err.code).toBe("mcp_frame_too_large");
    } finally {
      server.stop(true);
    }
  });

  test("an error status is a clear error", async () => {
    const { server, port } = startTlsServer(tls, () => new Response("no", { status: 401 }));
    try {
      const err = await probeError(
        probeHttpServer({
          url: `https://${NAME}:${port}/mcp`,
          transport: "http",
          addressCheck: localCheck(),
          ca: tls.cert,
        }),
      );
      expect(err.code).toBe("mcp_http_status");
      expect(err.message).toContain("401");
    } finally {
      server.stop(true);
    }
  });
});

describe("proxy environment variables", () => {
  test("cannot reroute a probe (a plain fetch in the same process does go to the proxy)", async () => {
    const certFile = `${tmp.path}/cert.pem`;
    const proxyHits: string[] = [];
    const proxy = Bun.listen({
      hostname: "127.0.0.1",
      port: 0,
      socket: {
        data(socket, data) {
          proxyHits.push(String(data).split("\r\n")[0]);
          socket.end();
        },
      },
    });
    const app = await streamableHandler();
    const { server, port } = startTlsServer(tls, (req) => app.handle(req));
    try {
      const proxyUrl = `http://127.0.0.1:${proxy.port}`;
      const child = Bun.spawn(["bun", `${import.meta.dir}/proxy-child.ts`, String(port), certFile], {
        env: {
          PATH: process.env.PATH ?? "",
          HOME: tmp.path,
          HTTPS_PROXY: proxyUrl,
          HTTP_PROXY: proxyUrl,
          ALL_PROXY: proxyUrl,
          https_proxy: proxyUrl,
        },
        stdout: "pipe",
        stderr: "pipe",
      });
      const [out, errText, code] = await Promise.all([
        new Response(child.stdout).text(),
        new Response(child.stderr).text(),
        child.exited,
      ]);
      expect({ code, errText: code === 0 ? "" : errText }).toEqual({ code: 0, errText: "" });
      const report = JSON.parse(out) as { plain: string; tools: number };
      expect(report.tools).toBe(3);
      // Exactly one proxy connection: the control fetch's CONNECT, none from the probe.
      expect(proxyHits).toHaveLength(1);
      expect(proxyHits[0]).toStartWith("CONNECT mcp.gjc.test:");
      expect(report.plain).not.toBe("ok");
    } finally {
      await app.close();
      server.stop(true);
      proxy.stop(true);
    }
  });
});

describe("HTTP+SSE (2024-11-05 transport)", () => {
  test("probes through the event stream and the announced endpoint", async () => {
    const app = legacySseHandler();
    const { server, seen, port } = startTlsServer(tls, (req) => app.handle(req));
    try {
      const result = await probeHttpServer({
        url: `https://${NAME}:${port}/sse`,
        transport: "sse",
        addressCheck: localCheck(),
        ca: tls.cert,
        client: { name: "claude-code", version: "2.1.0" },
      });
      expect(result.serverInfo.name).toBe("fixture-sdk-http");
      expect(result.tools.map((t) => t.name)).toEqual(["echo", "env_names", "cwd"]);
      expect(seen[0]).toEqual({ method: "GET", path: "/sse", host: `${NAME}:${port}`, userAgent: "claude-code/2.1.0" });
      expect(seen.every((r) => r.userAgent === "claude-code/2.1.0")).toBe(true);
      expect(seen.slice(1).every((r) => r.method === "POST" && r.path === "/messages?session=1")).toBe(true);
    } finally {
      await app.close();
      server.stop(true);
    }
  });

  test("an endpoint on another origin is refused and nothing is posted", async () => {
    const app = legacySseHandler("https://other.gjc.test/messages");
    const { server, seen, port } = startTlsServer(tls, (req) => app.handle(req));
    try {
      const err = await probeError(
        probeHttpServer({
          url: `https://${NAME}:${port}/sse`,
          transport: "sse",
          addressCheck: localCheck([NAME, "other.gjc.test"]),
          ca: tls.cert,
        }),
      );
      expect(err.code).toBe("security_policy");
      expect(seen.filter((r) => r.method === "POST")).toEqual([]);
    } finally {
      await app.close();
      server.stop(true);
    }
  });

  test("a plain JSON endpoint is not an SSE stream", async () => {
    const { server, port } = startTlsServer(tls, () => Response.json({}));
    try {
      const err = await probeError(
        probeHttpServer({
          url: `https://${NAME}:${port}/sse`,
          transport: "sse",
          addressCheck: localCheck(),
          ca: tls.cert,
        }),
      );
      expect(err.code).toBe("mcp_protocol");
    } finally {
      server.stop(true);
    }
  });
});
