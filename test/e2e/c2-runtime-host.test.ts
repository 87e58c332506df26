import { describe, expect, test } from "bun:test";
import { realpathSync } from "node:fs";
import { join } from "node:path";
import { liveGroupMembers, processAlive, writeRuntimeBundle } from "../unit/c2host/_bundle.ts";
import { spawnHost } from "./c2-host-client.ts";
import { c2HomesPerTest, dirtyRepo, installBundle } from "./c2-runtime-setup.ts";

const home = c2HomesPerTest();

async function setup() {
  const h = home();
  const b = writeRuntimeBundle(join(h.root, "src"), {
    name: "realmy",
    commands: [
      { id: "realmy.info" },
      { id: "realmy.emit" },
      { id: "realmy.events" },
      { id: "realmy.stubborn" },
      { id: "realmy.connector" },
    ],
    scopeSupport: ["user", "project"],
    connectors: [{ id: "w", provider: "test-chat", command: "realmy.connector", capabilities: ["messaging"] }],
  });
  const installed = await installBundle(h, b.dir);
  const projA = await dirtyRepo(join(h.root, "projA"));
  const projB = await dirtyRepo(join(h.root, "projB"));
  return { h, installed, projA: realpathSync(projA), projB: realpathSync(projB) };
}

describe("gjc host --stdio", () => {
  test("keeps one process per realm between calls, with separate data dirs, and stops them all on EOF", async () => {
    const { h, installed, projA, projB } = await setup();
    await using c = spawnHost(h);
    expect(await c.result("extensions.list")).toEqual({ ready: [installed.id], untrusted: [], failed: [] });
    const user = (await c.result("plugins.invoke", { command: "realmy.info" })).result;
    const a = (
      await c.result("plugins.invoke", { command: "realmy.info", scope: { kind: "project", project_path: projA } })
    ).result;
    const b = (await c.result("plugins.invoke", { command: "realmy.info", project_path: projB })).result;
    const a2 = (await c.result("plugins.invoke", { command: "realmy.info", project_path: `${projA}/.` })).result;
    expect(new Set([user.pid, a.pid, b.pid]).size).toBe(3);
    expect(a2.pid).toBe(a.pid);
    expect(new Set([user.dataDir, a.dataDir, b.dataDir]).size).toBe(3);
    expect([user.projectPath, a.projectPath, b.projectPath]).toEqual([null, projA, projB]);
    for (const pid of [user.pid, a.pid, b.pid]) expect(processAlive(pid)).toBe(true);
    const processes = (await c.result("plugins.processes")).processes;
    expect(processes.filter((p: any) => p.phase === "running").length).toBe(3);
    expect(await c.close()).toBe(0);
    for (const pid of [user.pid, a.pid, b.pid]) expect(liveGroupMembers(pid)).toEqual([]);
  });

  test("SIGTERM stops every child, including a grandchild that ignores SIGTERM", async () => {
    const { h } = await setup();
    await using c = spawnHost(h);
    const r = (await c.result("plugins.invoke", { command: "realmy.stubborn" })).result;
    expect(liveGroupMembers(r.pid).length).toBe(2);
    c.proc.kill("SIGTERM");
    await c.done;
    expect(liveGroupMembers(r.pid)).toEqual([]);
    expect(processAlive(r.grandchild)).toBe(false);
  });

  test("idle project realms are reaped unless a lease holds them; the next call starts a new process", async () => {
    const { h, projA, projB } = await setup();
    await using c = spawnHost(h, ["--idle-ms", "150"]);
    const user = (await c.result("plugins.invoke", { command: "realmy.info" })).result;
    const a = (await c.result("plugins.invoke", { command: "realmy.info", project_path: projA })).result;
    const { lease } = await c.result("realms.lease", { project_path: projB });
    const b = (await c.result("plugins.invoke", { command: "realmy.info", project_path: projB })).result;
    // Wait for the condition: the reaper removes project A's realm.
    for (;;) {
      const ps = (await c.result("plugins.processes")).processes;
      if (!ps.some((p: any) => p.realm === `project ${projA}`)) break;
      await c.result("realms.reap");
    }
    expect(liveGroupMembers(a.pid)).toEqual([]);
    expect(processAlive(b.pid)).toBe(true);
    expect(processAlive(user.pid)).toBe(true);
    const again = (await c.result("plugins.invoke", { command: "realmy.info", project_path: projA })).result;
    expect(again.pid).not.toBe(a.pid);
    await c.result("realms.release", { lease });
    await c.close();
  });

  test("connector/event is attributed to the emitting bundle; only subscribed events are delivered", async () => {
    const { h, installed } = await setup();
    await using c = spawnHost(h);
    await c.result("plugins.invoke", {
      command: "realmy.emit",
      args: {
        events: [
          {
            name: "connector/event",
            payload: {
              plugin_id: "spoofed",
              connectorId: "w",
              eventId: "e1",
              kind: "message",
              createdAt: "2026-01-01T00:00:00Z",
            },
          },
          { name: "custom/thing", payload: 1 },
        ],
      },
    });
    const ev = await c.waitFor((m) => m.method === "plugins.connector_event");
    expect(ev.params).toEqual({
      plugin_id: installed.id,
      event: { connectorId: "w", eventId: "e1", kind: "message", createdAt: "2026-01-01T00:00:00Z" },
    });
    const bus = await c.waitFor((m) => m.method === "plugins.event");
    expect(bus.params).toEqual({ plugin_id: installed.id, name: "custom/thing", payload: 1 });
    expect(await c.result("events.publish", { name: "skills/changed", payload: { n: 1 } })).toEqual({ delivered: 1 });
    expect(await c.result("events.publish", { name: "scenes/changed", payload: null })).toEqual({ delivered: 0 });
    const received = (await c.result("plugins.invoke", { command: "realmy.events" })).result.received;
    expect(received).toEqual([{ name: "skills/changed", payload: { n: 1 } }]);
    await c.close();
  });

  test("policy through the plane: plan, apply (stops the realm), blocked call, reset; errors keep their codes", async () => {
    const { h, projA } = await setup();
    await using c = spawnHost(h);
    const a = (await c.result("plugins.invoke", { command: "realmy.info", project_path: projA })).result;
    const catalog = await c.result("plugins.catalog", { scope: { kind: "project", project_path: projA } });
    expect(catalog.plugins[0].name).toBe("realmy");
    expect(catalog.processes.some((p: any) => p.pid === a.pid && p.phase === "running")).toBe(true);
    const plan = await c.result("plugins.plan_change", {
      plugin: "realmy",
      state: "disabled",
      scope: { kind: "project", project_path: projA },
    });
    await c.result("plugins.apply_change", { id: plan.id });
    expect(liveGroupMembers(a.pid)).toEqual([]);
    const blocked = await c.call("plugins.invoke", { command: "realmy.info", project_path: projA });
    expect(blocked.error).toMatchObject({ code: -32000, data: { code: "plugin_disabled" } });
    await c.result("plugins.reset", { plugin: "realmy", scope: { kind: "project", project_path: projA } });
    expect(
      (await c.call("plugins.invoke", { command: "realmy.info", project_path: projA })).result.result.projectPath,
    ).toBe(projA);
    const unknown = await c.call("plugins.nope");
    expect(unknown.error.code).toBe(-32601);
    const badParams = await c.call("plugins.invoke", { command: 5 });
    expect(badParams.error).toMatchObject({ code: -32602 });
    await c.close();
  });
});
