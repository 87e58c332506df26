import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { RuntimeInstance } from "../../../src/c2host/runtime-instance.ts";
import { tempDir } from "../../helpers/tmp.ts";
import { liveGroupMembers, processAlive } from "./_bundle.ts";
import { makeInstance } from "./_instance.ts";

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function setup(options: Parameters<typeof makeInstance>[1] = {}) {
  const tmp = tempDir("gjc-c2rt-");
  const made = makeInstance(tmp.path, options);
  cleanups.push(tmp.cleanup, () => made.instance.unload());
  return { ...made, root: tmp.path };
}

async function failure(p: Promise<unknown>): Promise<{ code: string; message: string; hint?: string }> {
  try {
    await p;
  } catch (e) {
    return e as { code: string; message: string; hint?: string };
  }
  throw new Error("expected the call to fail");
}

async function expectStopped(instance: RuntimeInstance, pid: number | undefined) {
  expect(pid).toBeNumber();
  await instance.unload();
  expect(liveGroupMembers(pid!)).toEqual([]);
  expect(processAlive(pid!)).toBe(false);
}

describe("runtime instance", () => {
  test("stays dormant until the first call, then initializes with host, config and dataDir", async () => {
    const { instance, spec, recorded } = setup({ commands: [{ id: "demo.info" }], config: { answer: 42 } });
    expect(instance.phase).toBe("dormant");
    expect(existsSync(spec.dataDir)).toBe(false);
    const info = (await instance.invoke("demo.info", {})) as any;
    expect(instance.phase).toBe("running");
    expect(info.pid).toBe(instance.pid);
    expect(info.cwd).toBe(spec.bundleDir);
    expect(info.dataDir).toBe(spec.dataDir);
    expect(existsSync(spec.dataDir)).toBe(true);
    expect(info.projectPath).toBeNull();
    expect(info.config).toEqual({ answer: 42 });
    expect(info.host).toEqual({
      name: "gjc",
      version: expect.any(String),
      commands: ["git.status", "plugins.list", "host.info"],
    });
    expect(recorded.logs.some((l) => l.message.startsWith("ready with 3 host commands"))).toBe(true);
    await expectStopped(instance, info.pid);
  });

  test("concurrent first calls share one start", async () => {
    const { instance } = setup({ commands: [{ id: "demo.echo" }] });
    const results = await Promise.all([
      instance.invoke("demo.echo", { n: 1 }),
      instance.invoke("demo.echo", { n: 2 }),
      instance.invoke("demo.echo", { n: 3 }),
    ]);
    expect(results).toEqual([{ args: { n: 1 } }, { args: { n: 2 } }, { args: { n: 3 } }]);
    expect(instance.startCount).toBe(1);
  });

  test("a plugin error answer reaches the caller with its message and keeps the runtime up", async () => {
    const { instance } = setup({ commands: [{ id: "demo.fail" }, { id: "demo.echo" }] });
    const err = await failure(instance.invoke("demo.fail", { message: "nope" }));
    expect(err.code).toBe("plugin_command_failed");
    expect(err.message).toBe("demo.fail: nope");
    expect(await instance.invoke("demo.echo", 1)).toEqual({ args: 1 });
  });

  test("the project instance gets projectPath", async () => {
    const { instance } = setup({
      commands: [{ id: "demo.info" }],
      projectPath: "/some/project",
      scopeSupport: ["user", "project"],
    });
    const info = (await instance.invoke("demo.info", {})) as any;
    expect(info.projectPath).toBe("/some/project");
  });
});

describe("handshake failures are remembered for the generation", () => {
  const cases: [string, string, RegExp][] = [
    ["drift", "handshake_mismatch", /schema for `demo.echo` does not match the manifest argsSchema/],
    ["missing", "handshake_mismatch", /do not match the manifest \(missing: demo.two\)/],
    ["extra", "handshake_mismatch", /do not match the manifest \(extra: surprise.extra\)/],
    ["protocol2", "handshake_protocol", /speaks plugin protocol 2\.0\.0; this host speaks 1\.0\.0/],
    ["exit-on-init", "handshake_failed", /stopped before answering `initialize`.*code 7/],
    ["oversize-init", "handshake_failed", /exceeds the 1 MiB limit/],
  ];
  for (const [mode, code, message] of cases) {
    test(`${mode} → ${code}`, async () => {
      const { instance } = setup({
        mode,
        commands: [{ id: "demo.echo", argsSchema: { type: "object" } }, { id: "demo.two" }],
      });
      const first = await failure(instance.invoke("demo.echo", {}));
      expect(first.code).toBe(code);
      expect(first.message).toMatch(message);
      expect(first.hint).toMatch(/reload/i);
      const pid = instance.pid!;
      expect(liveGroupMembers(pid)).toEqual([]);
      const second = await failure(instance.invoke("demo.two", {}));
      expect(second).toBe(first);
      expect(instance.startCount).toBe(1);
      expect(instance.phase).toBe("failed");
    });
  }

  test("a runtime that never answers fails after the (injected) handshake timeout", async () => {
    const { instance } = setup({ mode: "silent", binding: { handshakeTimeoutMs: 300 } });
    const err = await failure(instance.invoke("demo.echo", {}));
    expect(err.code).toBe("handshake_timeout");
    expect(err.message).toMatch(/did not answer `initialize` within 300 ms/);
    expect(liveGroupMembers(instance.pid!)).toEqual([]);
  });

  test("non-JSON noise is dropped with a warning and the connection stays up", async () => {
    const { instance, recorded } = setup({ mode: "noise", commands: [{ id: "demo.noise" }, { id: "demo.echo" }] });
    expect(await instance.invoke("demo.noise", {})).toEqual({ noisy: true });
    expect(await instance.invoke("demo.echo", 5)).toEqual({ args: 5 });
    const warnings = recorded.logs.filter((l) => l.level === "warn").map((l) => l.message);
    expect(warnings).toContain("dropped a stdout line that is not JSON: starting up...");
    expect(warnings).toContain("dropped a stdout line that is not JSON: this is not json");
    expect(warnings).toContain("dropped a stdout line that is not a JSON-RPC object: [1,2,3]");
    expect(recorded.logs).toContainEqual({
      plugin: "demo-runtime",
      level: "info",
      message: "stderr is the log channel",
    });
  });
});

describe("a noisy runtime cannot amplify its output", () => {
  test("of each kind, the first 10 lines are shown and the rest summarised with a count", async () => {
    const { instance, recorded } = setup({ commands: [{ id: "demo.spam" }] });
    expect(await instance.invoke("demo.spam", { count: 2500 })).toEqual({ spammed: 2500 });
    await instance.unload();
    const messages = recorded.logs.map((l) => l.message);
    const suppressed = (kind: string) =>
      messages
        .map((m) => new RegExp(`^(\\d+) more ${kind} were not shown`).exec(m))
        .reduce((n, m) => n + (m ? Number(m[1]) : 0), 0);
    // Each kind: 10 lines shown, every other one counted in a summary (one per 1,000, one at unload).
    // The runtime's start-up wrote one stderr line and one log message before the flood.
    const kinds = [
      ["dropped protocol lines", (m: string) => m === "dropped a stdout line that is not JSON: not json", 2500],
      ["stderr lines", (m: string) => m === "chatter on stderr" || m === "stderr is the log channel", 2501],
      ["log messages", (m: string) => m.startsWith("log ") || m.startsWith("ready with"), 2501],
    ] as const;
    for (const [kind, shown, total] of kinds) {
      expect([kind, messages.filter(shown).length, suppressed(kind)]).toEqual([kind, 10, total - 10]);
    }
    expect(recorded.logs.length).toBeLessThanOrEqual(3 * 10 + 3 * 3);
  });
});

describe("limits and lost connections", () => {
  test("a line over 1 MiB closes the peer and stops the process", async () => {
    const { instance } = setup({ commands: [{ id: "demo.big" }, { id: "demo.echo" }] });
    const err = await failure(instance.invoke("demo.big", {}));
    expect(err.code).toBe("runtime_protocol_error");
    expect(err.message).toMatch(/exceeds the 1 MiB limit/);
    const later = await failure(instance.invoke("demo.echo", {}));
    expect(later.code).toBe("runtime_protocol_error");
    await instance.unload();
    expect(liveGroupMembers(instance.pid!)).toEqual([]);
  });

  test("a runtime exiting mid-request fails the call with its exit code", async () => {
    const { instance } = setup({ commands: [{ id: "demo.exit" }, { id: "demo.echo" }] });
    const err = await failure(instance.invoke("demo.exit", { code: 5 }));
    expect(err.code).toBe("runtime_exited");
    expect(err.message).toMatch(/exited with code 5/);
    expect((await failure(instance.invoke("demo.echo", {}))).code).toBe("runtime_exited");
  });

  test("65 pending requests: 64 are answered, the 65th is refused without harming the others", async () => {
    const { instance } = setup({ commands: [{ id: "demo.hold" }, { id: "demo.echo" }] });
    await instance.invoke("demo.echo", 0); // started
    const calls = Array.from({ length: 65 }, () =>
      instance.invoke("demo.hold", { until: 64 }).then(
        (r) => ({ r }),
        (e) => ({ e }),
      ),
    );
    const settled = await Promise.all(calls);
    expect(settled.slice(0, 64).every((s) => "r" in s && (s.r as any).held === 64)).toBe(true);
    expect((settled[64] as any).e.code).toBe("runtime_busy");
    expect((settled[64] as any).e.message).toMatch(/pending requests/);
    expect(await instance.invoke("demo.echo", 1)).toEqual({ args: 1 });
  });

  test("an oversized outbound request is refused and the connection keeps working", async () => {
    const { instance } = setup({ commands: [{ id: "demo.echo" }] });
    const err = await failure(instance.invoke("demo.echo", "z".repeat(1024 * 1024)));
    expect(err.code).toBe("message_too_large");
    expect(await instance.invoke("demo.echo", "small")).toEqual({ args: "small" });
  });

  test("16 concurrent host callbacks are served; the 17th closes the peer", async () => {
    const release: (() => void)[] = [];
    let started = 0;
    let allStarted = Promise.withResolvers<void>();
    const block = () =>
      new Promise<unknown>((resolve) => {
        if (++started === 16) allStarted.resolve();
        release.push(() => resolve("released"));
      });
    const ok = setup({ commands: [{ id: "demo.flood" }], extraHostCommands: { "test.block": block } });
    const sixteen = ok.instance.invoke("demo.flood", { count: 16, name: "test.block" });
    await allStarted.promise;
    for (const r of release.splice(0)) r();
    expect(((await sixteen) as unknown[]).length).toBe(16);

    started = 0;
    allStarted = Promise.withResolvers<void>();
    const bad = setup({ commands: [{ id: "demo.flood" }], extraHostCommands: { "test.block": block } });
    const err = await failure(bad.instance.invoke("demo.flood", { count: 17, name: "test.block" }));
    expect(err.code).toBe("runtime_protocol_error");
    expect(err.message).toMatch(/host callbacks/);
    await bad.instance.unload();
    expect(liveGroupMembers(bad.instance.pid!)).toEqual([]);
  });

  test("unload ends a grandchild that ignores SIGTERM and reaps the child first", async () => {
    const { instance, spec } = setup({ commands: [{ id: "demo.stubborn" }] });
    const r = (await instance.invoke("demo.stubborn", {})) as { pid: number; grandchild: number };
    expect(Number(readFileSync(join(spec.dataDir, "grandchild.pid"), "utf8"))).toBe(r.grandchild);
    expect(liveGroupMembers(r.pid).sort()).toEqual([r.pid, r.grandchild].sort());
    await instance.unload();
    expect(liveGroupMembers(r.pid)).toEqual([]);
    expect(processAlive(r.grandchild)).toBe(false);
  });
});
