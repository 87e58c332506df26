import { rmSync } from "node:fs";
import { connect, createServer, type Server, type Socket } from "node:net";
import { reportDenials } from "./denials.ts";
import type { NetGrant, SandboxSubject } from "./profile.ts";

/**
 * The relay: in the parent gjc, the only way out of the network namespace of a process with
 * network grants. The forwarder inside hands it each connection (src/process/sandbox/forwarder.ts);
 * the relay checks the destination against the grants, resolves names itself (the process has
 * no DNS), connects and carries the bytes, or refuses and reports the host and port with the
 * grant that would allow it. It speaks the HTTP proxy protocol for `PROXY` connections:
 * `CONNECT host:port` (HTTPS and any TCP through a proxy-aware client) and absolute-form
 * requests (`GET http://host/…`, plain HTTP).
 */
export interface Relay {
  close(): void;
}

const MAX_HEAD = 16 * 1024;

export function startRelay(socketPath: string, grants: readonly NetGrant[], subject: SandboxSubject): Relay {
  const allowed = (host: string, port: number) =>
    grants.some((g) => g.host.toLowerCase() === host.toLowerCase() && (g.port === undefined || g.port === port));
  const refuse = (host: string, port: number) =>
    reportDenials(subject, `connect EACCES ${host.includes(":") ? `[${host}]` : host}:${port}`);
  const server: Server = createServer((inner) => {
    inner.on("error", () => inner.destroy());
    readUntil(inner, "\n", (line, rest) => {
      const kind = line.trimEnd();
      if (kind === "PROXY") return readUntil(inner, "\r\n\r\n", (head, body) => proxy(inner, head, body), rest);
      const [word, host = "", port = "0"] = kind.split(" ");
      if (word !== "TCP") return inner.destroy();
      if (!allowed(host, Number(port))) {
        refuse(host, Number(port));
        return inner.destroy();
      }
      pipeTo(inner, host, Number(port), rest);
    });
  });
  const proxy = (inner: Socket, head: string, rest: Buffer) => {
    const [method = "", target = ""] = head.slice(0, head.indexOf("\r\n")).split(" ");
    let host: string;
    let port: number;
    if (method === "CONNECT") {
      const m = /^\[?([^\]]+?)\]?:(\d{1,5})$/.exec(target);
      if (!m) return void inner.end("HTTP/1.1 400 Bad Request\r\n\r\n");
      host = m[1] as string;
      port = Number(m[2]);
    } else {
      let url: URL;
      try {
        url = new URL(target);
      } catch {
        return void inner.end("HTTP/1.1 400 Bad Request\r\n\r\n");
      }
      if (url.protocol !== "http:") return void inner.end("HTTP/1.1 400 Bad Request\r\n\r\n");
      host = url.hostname.replace(/^\[|\]$/g, "");
      port = url.port === "" ? 80 : Number(url.port);
    }
    if (!allowed(host, port)) {
      refuse(host, port);
      return void inner.end(
        `HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\nthe plugin sandbox does not allow ${host}:${port}\n`,
      );
    }
    if (method === "CONNECT") pipeTo(inner, host, port, rest, "HTTP/1.1 200 Connection Established\r\n\r\n");
    // A plain HTTP request in absolute form goes to the origin as it was written.
    else pipeTo(inner, host, port, Buffer.concat([Buffer.from(head, "latin1"), rest]));
  };
  server.listen(socketPath);
  return {
    close() {
      server.close();
      rmSync(socketPath, { force: true });
    },
  };
}

/** Reads up to and including `marker` (bounded), then hands the head and what followed it on, the socket paused. */
function readUntil(
  s: Socket,
  marker: string,
  then: (head: string, rest: Buffer) => void,
  initial: Buffer = Buffer.alloc(0),
): void {
  let buffered = initial;
  const check = (): boolean => {
    const at = buffered.indexOf(marker);
    if (at < 0) {
      if (buffered.length > MAX_HEAD) s.destroy();
      return false;
    }
    s.off("data", onData);
    s.pause();
    then(buffered.subarray(0, at + marker.length).toString("latin1"), buffered.subarray(at + marker.length));
    return true;
  };
  const onData = (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    check();
  };
  if (check()) return;
  s.on("data", onData);
  s.resume();
}

function pipeTo(inner: Socket, host: string, port: number, first: Buffer, greeting?: string): void {
  inner.pause();
  const outer = connect({ host, port });
  const end = () => {
    inner.destroy();
    outer.destroy();
  };
  outer.on("connect", () => {
    if (greeting) inner.write(greeting);
    if (first.length > 0) outer.write(first);
    inner.pipe(outer);
    outer.pipe(inner);
    inner.resume();
  });
  outer.on("error", () => {
    if (greeting) inner.end("HTTP/1.1 502 Bad Gateway\r\n\r\n");
    end();
  });
  inner.on("close", end);
  outer.on("close", end);
}
