import { connect, createServer, type Socket } from "node:net";
import type { ForwarderSpec } from "./stage-spec.ts";

/**
 * The forwarder: a small gjc process the stage starts inside the sandbox's network namespace
 * (where nothing else is reachable) for a process with network grants. It listens on the
 * loopback there, on each granted loopback address and port and on one proxy port, and hands
 * every connection to the relay in the parent gjc through a UNIX socket (which crosses network
 * namespaces), saying first what it is: `TCP <host> <port>` or `PROXY` (an HTTP proxy request
 * follows). The relay decides; the forwarder only carries bytes.
 */

export async function runForwarder(args: string[]): Promise<string | undefined> {
  let spec: ForwarderSpec;
  try {
    spec = JSON.parse(args[0] ?? "") as ForwarderSpec;
  } catch {
    return "the sandbox forwarder got an unreadable spec";
  }
  const carry = (header: string) => (client: Socket) => {
    const relay = connect(spec.socket);
    relay.write(`${header}\n`);
    client.pipe(relay);
    relay.pipe(client);
    const end = () => {
      client.destroy();
      relay.destroy();
    };
    client.on("error", end);
    relay.on("error", end);
    client.on("close", end);
    relay.on("close", end);
  };
  const listening = [
    ...spec.listen.map((l) => listen(carry(`TCP ${l.host} ${l.port}`), l.host, l.port)),
    listen(carry("PROXY"), "127.0.0.1", spec.proxyPort),
  ];
  try {
    await Promise.all(listening);
  } catch (e) {
    return `the sandbox forwarder cannot listen: ${(e as Error).message}`;
  }
  // Ready: the stage waits for this line before it execs the command.
  process.stdout.write("ready\n");
  return undefined;
}

function listen(onConnection: (s: Socket) => void, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const server = createServer(onConnection);
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
}
