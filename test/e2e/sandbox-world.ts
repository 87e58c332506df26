import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "bun:test";
import type { Socket, udp } from "bun";
import { fixturesDir } from "../helpers/cli.ts";
import type { Sandbox } from "../helpers/sandbox.ts";
import { writeTree } from "../helpers/tmp.ts";
import { bundleDir, c2Layout } from "../../src/c2store/paths.ts";
import { writeRuntimeBundle } from "../unit/c2host/_bundle.ts";
import { installBundle, type C2Home } from "./c2-runtime-setup.ts";

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
  /** Connections the UNIX socket listeners (an agent in the home, one in /tmp) accepted. */
  unixAccepted(): number;
  close(): void;
}

export interface ProbeTargets {
  read: Record<string, string>;
  write: Record<string, string>;
  tcp: { host: string; port: number };
  udp: { host: string; port: number };
  unix: Record<string, string>;
  dns: string;
}

export async function probeWorld(
  s: { home: string; project: string; root: string },
  otherBundleFile: string,
): Promise<ProbeWorld> {
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
  let unixAccepted = 0;
  // Agent-like sockets at paths: one in the home (as gpg-agent keeps it), one in the shared /tmp.
  mkdirSync(join(s.home, ".gnupg"), { recursive: true, mode: 0o700 });
  const unixPaths = { home: join(s.home, ".gnupg", "S.gpg-agent"), tmp: `${sharedTmp}.sock` };
  const unixListeners = Object.values(unixPaths).map((path) =>
    Bun.listen({
      unix: path,
      socket: {
        open(sock: Socket) {
          unixAccepted++;
          sock.end();
        },
        data() {},
      },
    }),
  );
  const tcp = Bun.listen({
    hostname: "127.0.0.1",
    port: 0,
    socket: {
      open(sock: Socket) {
        accepted++;
        sock.end();
      },
      data() {},
    },
  });
  const udp: udp.Socket<"buffer"> = await Bun.udpSocket({
    hostname: "127.0.0.1",
    port: 0,
    socket: { data: () => void received++ },
  });
  return {
    targets: (own, extra = {}) => ({
      read: {
        ssh: join(s.home, ".ssh", "id_ed25519"),
        stateKey,
        otherBundle: otherBundleFile,
        project: join(s.project, "README.md"),
        own,
        ...extra.read,
      },
      write: { home: join(s.home, "written"), project: join(s.project, "written"), sharedTmp, ...extra.write },
      tcp: { host: "127.0.0.1", port: tcp.port },
      udp: { host: "127.0.0.1", port: udp.port },
      unix: unixPaths,
      dns: "example.com",
    }),
    udpReceived: () => received,
    tcpAccepted: () => accepted,
    unixAccepted: () => unixAccepted,
    close() {
      tcp.stop(true);
      for (const l of unixListeners) l.stop(true);
      rmSync(unixPaths.tmp, { force: true });
      udp.close();
      for (const role of ["main", "fork", "daemon"]) rmSync(`${sharedTmp}.${role}`, { force: true });
    },
  };
}

/** What every attempt of a default-profile process must get: denied, except its own bundle and temporary directory (and data, where it has one). */
export function expectDefaultDenials(
  report: Record<string, unknown>,
  allowed: string[] = ["read own", "write tmpdir"],
): { leaks: string[]; blocked: string[] } {
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

/** One file (a GJC bundle holds only its declared files) with the probe and its targets built in. */
async function built(entry: string, define: Record<string, unknown>): Promise<string> {
  const out = await Bun.build({
    entrypoints: [join(fixturesDir, "sandbox", entry)],
    target: "node",
    define: Object.fromEntries(Object.entries(define).map(([k, v]) => [k, JSON.stringify(v)])),
  });
  if (!out.success) throw new Error(out.logs.map(String).join("\n"));
  return out.outputs[0]!.text();
}

/** What a GJC probe may do: read its bundle, write its temporary directory. */
export const GJC_ALLOWED = ["read own", "write tmpdir"];

/** Installs `other` (to be another bundle's files) and `prober` (a stdio MCP server and a tool that run the probe). */
export async function installGjcProber(
  s: Pick<Sandbox, "root" | "home" | "project" | "gjc">,
): Promise<{ world: ProbeWorld; targets: ProbeTargets }> {
  const other = writeTree(join(s.root, "other-src"), {
    "gajae-plugin.json": JSON.stringify({
      kind: "gajae-code-plugin",
      name: "other",
      version: "1.0.0",
      tools: [{ name: "other_tool", path: "tools/t.ts", description: "x" }],
    }),
    "tools/t.ts": "export default () => ({ name: 'other_tool', execute() {} });\n",
  });
  expect((await s.gjc(["plugin", "install", other, "--user", "--json"])).exitCode).toBe(0);
  const otherRoot = (await s.gjc(["plugin", "inspect", "other", "--json"])).json().bundle.root as string;
  const w = await probeWorld(s, join(otherRoot, "gajae-plugin.json"));
  const targets = w.targets("gajae-plugin.json");
  const dir = writeTree(join(s.root, "prober-src"), {
    "gajae-plugin.json": JSON.stringify({
      kind: "gajae-code-plugin",
      name: "prober",
      version: "1.0.0",
      tools: [{ name: "probe_report", path: "tools/probe.ts", description: "sandbox probe" }],
      mcps: [{ name: "probe", transport: "stdio", command: "node", args: ["mcp/probe.mjs"] }],
    }),
    "mcp/probe.mjs": await built("probe-mcp.mjs", { PROBE_TARGETS: targets }),
    "tools/probe.ts": await built("probe-tool.mjs", { PROBE_TARGETS: targets, PROBE_ALLOWED: GJC_ALLOWED }),
  });
  // Installing checks the tool at once: it loads (in its sandbox) only if the probe held.
  const installed = await s.gjc(["plugin", "install", dir, "--user", "--json"]);
  expect(installed.exitCode).toBe(0);
  return { world: w, targets };
}

export const PROBE_CHECKS = readFileSync(join(fixturesDir, "sandbox", "probe-checks.mjs"), "utf8");

/** Installs a bundle to be "another bundle's files" and returns one of its installed files. */
export async function otherC2Bundle(h: C2Home): Promise<string> {
  const other = writeRuntimeBundle(join(h.root, "other-src"), { name: "other-one", commands: [{ id: "other.echo" }] });
  const { id } = await installBundle(h, other.dir);
  return join(bundleDir(c2Layout(h.ctx), id), "plugin.json");
}

/** A C2 runtime bundle whose `prober.probe` command runs the probe, installed beside another bundle. */
export async function installC2Prober(h: C2Home): Promise<ProbeWorld> {
  const w = await probeWorld(h, await otherC2Bundle(h));
  const b = writeRuntimeBundle(join(h.root, "probe-src"), {
    name: "prober",
    commands: [{ id: "prober.probe" }],
    extraFiles: { "probe-checks.mjs": PROBE_CHECKS, "probe-targets.json": JSON.stringify(w.targets("plugin.json")) },
  });
  await installBundle(h, b.dir);
  return w;
}
