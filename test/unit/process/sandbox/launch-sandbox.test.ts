import { afterAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { launch } from "../../../../src/process/launch.ts";
import { allowCommandFor, denialsIn } from "../../../../src/process/sandbox/denials.ts";
import { drainSandboxNotices } from "../../../../src/process/sandbox/notices.ts";
import type { SandboxProfile } from "../../../../src/process/sandbox/profile.ts";
import { SECCOMP_FILTERS } from "../../../../src/process/sandbox/seccomp-filter.generated.ts";
import { buildFilter, SECCOMP_ARCHES, seccompArch } from "../../../../src/process/sandbox/seccomp.ts";
import { tempDir } from "../../../helpers/tmp.ts";

const tmp = tempDir("gjc-launch-sandbox-");
afterAll(() => tmp.cleanup());

/** Runs `node script` through the launcher with `profile`; resolves with its stdout. */
async function confined(
  script: string,
  profile: SandboxProfile,
  hostEnv: Record<string, string | undefined> = process.env,
): Promise<string> {
  const dir = join(tmp.path, `s${Math.random().toString(36).slice(2)}`);
  require("node:fs").mkdirSync(dir);
  writeFileSync(join(dir, "probe.cjs"), script);
  const child = launch({
    argv: ["node", join(dir, "probe.cjs")],
    cwd: dir,
    env: { PATH: process.env.PATH ?? "" },
    sandbox: {
      subject: { bundle: "unit", process: { kind: "runtime" } },
      profile: { ...profile, read: [dir, ...profile.read] },
      hostEnv,
    },
  });
  const out = await new Response(child.proc.stdout).text();
  await child.stop();
  return out.trim();
}

const connect = (port: number, host = "127.0.0.1") =>
  `new Promise((r) => { const s = require("net").connect(${port}, ${JSON.stringify(host)}); s.on("connect", () => { s.end(); r("ok"); }); s.on("error", (e) => r(e.code)); })`;

describe("the launcher's sandbox", () => {
  test("a grant of 127.0.0.1:<port> reaches exactly that listener: not the same port on 127.0.0.2, not another port", async () => {
    const a = Bun.listen({
      hostname: "127.0.0.1",
      port: 0,
      socket: {
        open(s) {
          s.write("A");
          s.end();
        },
        data() {},
      },
    });
    const twin = Bun.listen({
      hostname: "127.0.0.2",
      port: a.port,
      socket: {
        open(s) {
          s.end();
        },
        data() {},
      },
    });
    const b = Bun.listen({
      hostname: "127.0.0.1",
      port: 0,
      socket: {
        open(s) {
          s.end();
        },
        data() {},
      },
    });
    try {
      const script = `Promise.all([${connect(a.port)}, ${connect(a.port, "127.0.0.2")}, ${connect(b.port)}]).then((r) => console.log(r.join(" ")));`;
      const granted = { read: [], write: [], net: [{ host: "127.0.0.1", port: a.port }] };
      // Through the namespace's relay (the host is checked too) ...
      expect(await confined(script, granted)).toBe("ok ECONNREFUSED EACCES");
      // ... and, without a namespace, by Landlock's port rule alone: the host is not checked (documented).
      expect(await confined(script, granted, { ...process.env, GJC_SANDBOX_WITHOUT: "netns" })).toBe("ok ok EACCES");
      expect(await confined(script, { read: [], write: [], net: [] })).toBe("EACCES EACCES EACCES");
    } finally {
      a.stop(true);
      twin.stop(true);
      b.stop(true);
    }
  });

  test("a grant by host name is reached through the relay's HTTP proxy, which refuses other hosts and names the grant", async () => {
    const server = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: () => new Response("hello from the granted host"),
    });
    try {
      // An HTTP client that honours HTTP_PROXY (as curl, Python and Go ones do); "localhost" is resolved by the relay.
      const get = (host: string) =>
        `new Promise((r) => { const s = require("net").connect(Number(new URL(process.env.HTTP_PROXY).port), "127.0.0.1"); let out = ""; s.on("connect", () => s.write("GET http://${host}:${server.port}/ HTTP/1.1\\r\\nHost: ${host}\\r\\nConnection: close\\r\\n\\r\\n")); s.on("data", (d) => (out += d)); s.on("end", () => r(out.split("\\r\\n")[0] + (out.includes("hello from the granted host") ? " body" : ""))); s.on("error", (e) => r(e.code)); })`;
      const script = `Promise.all([${get("localhost")}, ${get("127.0.0.1")}]).then((r) => console.log(r.join(" | ")));`;
      const out = await confined(script, { read: [], write: [], net: [{ host: "localhost", port: server.port }] });
      expect(out).toBe("HTTP/1.1 200 OK body | HTTP/1.1 403 Forbidden");
      expect(drainSandboxNotices()).toContainEqual({
        code: "sandbox_denied",
        message: `unit (runtime) tried to connect to 127.0.0.1:${server.port}, which its sandbox does not allow`,
        hint: `if it should: gjc plugin allow unit --runtime --net 127.0.0.1:${server.port}`,
      });
    } finally {
      server.stop(true);
    }
  });

  test("the command holds no capability, even when gjc runs as root", async () => {
    const fields = `const lines = require("fs").readFileSync("/proc/self/status", "utf8").split("\\n"); console.log(["CapEff", "CapPrm", "CapBnd", "CapAmb", "NoNewPrivs"].map((k) => lines.find((l) => l.startsWith(k + ":")).slice(k.length + 1).trim()).join(" "));`;
    const out = await confined(fields, { read: [], write: [], net: [] });
    expect(out).toBe("0000000000000000 0000000000000000 0000000000000000 0000000000000000 1");
  });

  test("beneath a covered folder, exactly the granted file and folder are bound back; their neighbours are not there", async () => {
    const outside = join(tmp.path, `granted${Math.random().toString(36).slice(2)}`);
    require("node:fs").mkdirSync(join(outside, "folder", "inner"), { recursive: true });
    writeFileSync(join(outside, "file.txt"), "the granted file");
    writeFileSync(join(outside, "folder", "inner", "x.txt"), "in the granted folder");
    writeFileSync(join(outside, "neighbour.txt"), "not granted");
    const read = (p: string) =>
      `(() => { try { return require("fs").readFileSync(${JSON.stringify(p)}, "utf8"); } catch (e) { return e.code; } })()`;
    const script = `console.log([${read(join(outside, "file.txt"))}, ${read(join(outside, "folder", "inner", "x.txt"))}, ${read(join(outside, "neighbour.txt"))}].join(" | "));`;
    const out = await confined(script, {
      read: [join(outside, "file.txt"), join(outside, "folder")],
      write: [],
      net: [],
    });
    // The folders are below the covered /tmp (or TMPDIR): the neighbour is absent, not just unreadable.
    expect(out).toBe("the granted file | in the granted folder | ENOENT");
  });

  test("a granted path holding a NUL byte is refused by the stage: the command never runs", async () => {
    const dir = join(tmp.path, `nul${Math.random().toString(36).slice(2)}`);
    require("node:fs").mkdirSync(dir);
    const marker = join(dir, "ran");
    writeFileSync(join(dir, "probe.cjs"), `require("fs").writeFileSync(${JSON.stringify(marker)}, "1");`);
    const child = launch({
      argv: ["node", join(dir, "probe.cjs")],
      cwd: dir,
      env: { PATH: process.env.PATH ?? "" },
      sandbox: {
        subject: { bundle: "unit", process: { kind: "runtime" } },
        profile: { read: [dir, `${tmp.path}\0/etc`], write: [], net: [] },
        hostEnv: process.env,
      },
    });
    const [stderr, code] = await Promise.all([new Response(child.proc.stderr).text(), child.exited]);
    await child.stop();
    expect(code).toBe(126);
    expect(stderr).toContain("the sandbox could not be applied: refused a path or argument holding a NUL byte");
    expect(require("node:fs").existsSync(marker)).toBe(false);
  });

  test("TMPDIR is a private directory the process may write, removed when it is stopped", async () => {
    const out = await confined(
      `const fs = require("fs"); fs.writeFileSync(require("path").join(process.env.TMPDIR, "x"), "1"); console.log(process.env.TMPDIR);`,
      { read: [], write: [], net: [] },
      { ...process.env, TMPDIR: tmp.path },
    );
    expect(out.startsWith(join(tmp.path, "gjc-sandbox-"))).toBe(true);
    expect(require("node:fs").existsSync(out)).toBe(false);
  });
});

describe("sandbox pieces", () => {
  test("the seccomp filter assembles for each supported architecture, and the stage installs exactly that filter", () => {
    expect(seccompArch()).toBeDefined();
    for (const arch of Object.values(SECCOMP_ARCHES)) {
      const filter = buildFilter(arch);
      expect(filter.length % 8).toBe(0);
      expect(filter.length / 8).toBeGreaterThan(40);
    }
    // The stage takes the filter assembled at build time: it is buildFilter's, byte for byte
    // (a stale copy: bun scripts/gen-seccomp-filter.ts).
    const assembled = Object.fromEntries(
      Object.entries(SECCOMP_ARCHES).map(([name, arch]) => [name, buildFilter(arch).toBase64()]),
    );
    expect(SECCOMP_FILTERS).toEqual(assembled);
  });

  test("refused connections and lookups are read from what Node and Bun print, and name the grant", () => {
    const text =
      "Error: connect EACCES 127.0.0.1:5432\n    at …\nError: getaddrinfo EAI_AGAIN api.example.com\nconnect ECONNREFUSED 127.0.0.1:9";
    expect(denialsIn(text)).toEqual([{ host: "127.0.0.1", port: 5432 }, { host: "api.example.com" }]);
    expect(
      allowCommandFor({ bundle: "docs", process: { kind: "server", id: "s" } }, { host: "127.0.0.1", port: 5432 }),
    ).toBe("gjc plugin allow docs --server s --net 127.0.0.1:5432");
    expect(allowCommandFor({ bundle: "r", process: { kind: "runtime" } }, { host: "api.example.com" })).toBe(
      "gjc plugin allow r --runtime --net api.example.com",
    );
    expect(allowCommandFor({ bundle: "l", process: { kind: "lsp", id: "zls" } }, { host: "h", port: 1 })).toBe(
      "gjc plugin allow l --lsp zls --net h:1",
    );
  });
});
