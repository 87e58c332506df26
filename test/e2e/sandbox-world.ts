import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Socket, udp } from "bun";

/**
 * What the sandbox probe (fixtures/sandbox/probe-checks.mjs) tries, planted in a test home:
 * secrets it must not read, places it must not write, a TCP and a UDP listener it must not
 * reach, a name it must not resolve; and what it may: its own bundle, its temporary directory.
 */
export interface ProbeWorld {
  targets(own: string, extra?: { read?: Record<string, string>; write?: Record<string, string> }): ProbeTargets;
  /** Datagrams the UDP listener received (none when the sandbox held). */
  udpReceived(): number;
  /** Connections the TCP listener accepted. */
  tcpAccepted(): number;
  close(): void;
}

export interface ProbeTargets {
  read: Record<string, string>;
  write: Record<string, string>;
  tcp: { host: string; port: number };
  udp: { host: string; port: number };
  dns: string;
}

export async function probeWorld(s: { home: string; project: string; root: string }, otherBundleFile: string): Promise<ProbeWorld> {
  mkdirSync(join(s.home, ".ssh"), { recursive: true, mode: 0o700 });
  writeFileSync(join(s.home, ".ssh", "id_ed25519"), "-----BEGIN OPENSSH PRIVATE KEY-----\nplanted\n", { mode: 0o600 });
  mkdirSync(join(s.home, ".gjc"), { recursive: true, mode: 0o700 });
  const stateKey = join(s.home, ".gjc", "state.key");
  // gjc may have made the key already (an install signs the registry): then that one is the secret.
  if (!existsSync(stateKey)) writeFileSync(stateKey, `${"ab".repeat(32)}\n`, { mode: 0o600 });
  writeFileSync(join(s.project, "README.md"), "the project\n");
  const sharedTmp = join("/tmp", `gjc-probe-${process.pid}-${Math.random().toString(36).slice(2)}`);
  let accepted = 0;
  let received = 0;
  const tcp = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { open(sock: Socket) { accepted++; sock.end(); }, data() {} } });
  const udp: udp.Socket<"buffer"> = await Bun.udpSocket({ hostname: "127.0.0.1", port: 0, socket: { data: () => void received++ } });
  return {
    targets: (own, extra = {}) => ({
      read: { ssh: join(s.home, ".ssh", "id_ed25519"), stateKey, otherBundle: otherBundleFile, project: join(s.project, "README.md"), own, ...extra.read },
      write: { home: join(s.home, "written"), project: join(s.project, "written"), sharedTmp, ...extra.write },
      tcp: { host: "127.0.0.1", port: tcp.port },
      udp: { host: "127.0.0.1", port: udp.port },
      dns: "example.com",
    }),
    udpReceived: () => received,
    tcpAccepted: () => accepted,
    close() {
      tcp.stop(true);
      udp.close();
      for (const role of ["main", "fork", "daemon"]) rmSync(`${sharedTmp}.${role}`, { force: true });
    },
  };
}

/** What every attempt of a default-profile process must get: denied, except its own bundle and temporary directory (and data, where it has one). */
export function expectDefaultDenials(report: Record<string, unknown>, allowed: string[] = ["read own", "write tmpdir"]): { leaks: string[]; blocked: string[] } {
  const leaks: string[] = [];
  const blocked: string[] = [];
  for (const role of ["main", "fork", "daemon"] as const) {
    const r = (role === "main" ? report : report[role]) as Record<string, unknown> | undefined;
    if (!r || typeof r !== "object" || "spawn" in r) {
      blocked.push(`${role}: no report (${JSON.stringify(r)})`);
      continue;
    }
    for (const [attempt, result] of Object.entries(r)) {
      if (attempt === "fork" || attempt === "daemon") continue;
      const mayWork = allowed.includes(attempt);
      if (mayWork && result !== "ok") blocked.push(`${role} ${attempt}: ${result}`);
      if (!mayWork && result === "ok") leaks.push(`${role} ${attempt}`);
    }
  }
  return { leaks, blocked };
}
