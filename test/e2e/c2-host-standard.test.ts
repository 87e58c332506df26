/**
 * The letter of the C2 standard on the host side, through a real `gjc host --stdio` client: a
 * failed runtime is failed in every plane document, never healthy; plan and apply share one
 * name for the plan, keep the state a plan leaves out, and report exactly what they stop.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { processAlive, writeRuntimeBundle } from "../unit/c2host/_bundle.ts";
import { spawnHost } from "./c2-host-client.ts";
import { c2HomesPerTest, installBundle } from "./c2-runtime-setup.ts";

const home = c2HomesPerTest();

describe("a failed runtime is reported failed", () => {
  test("after handshake_mismatch: catalog failed/process_failed, extensions.list failed, plugins.list failed, each with the reason", async () => {
    const h = home();
    const ok = await installBundle(h, writeRuntimeBundle(join(h.root, "fine"), { name: "fine", commands: [{ id: "fine.echo" }] }).dir);
    const bad = await installBundle(h, writeRuntimeBundle(join(h.root, "drifty"), { name: "drifty", commands: [{ id: "drifty.echo", argsSchema: { type: "object" } }], mode: "drift" }).dir);
    await using c = spawnHost(h);
    // Before any call both are dormant and enabled.
    const before = await c.result("plugins.catalog");
    expect(before.plugins.find((p: any) => p.installed_id === bad.id)).toMatchObject({ effective_state: { status: "enabled", reason: null }, process: null, error: null });
    const call = await c.call("plugins.invoke", { command: "drifty.echo", args: {} });
    expect(call.error.data.code).toBe("handshake_mismatch");
    await c.result("plugins.invoke", { command: "fine.echo" });

    const cat = await c.result("plugins.catalog");
    const entry = cat.plugins.find((p: any) => p.installed_id === bad.id);
    expect(entry.effective_state).toEqual({ status: "failed", reason: "process_failed" });
    expect(entry.process).toEqual({ phase: "failed", error: call.error.message });
    expect(entry.error).toBe(call.error.message);
    expect(cat.plugins.find((p: any) => p.installed_id === ok.id)).toMatchObject({ effective_state: { status: "enabled", reason: null }, process: { phase: "running" }, error: null });

    const ext = await c.result("extensions.list");
    expect(ext.ready).toEqual([ok.id]);
    expect(ext.untrusted).toEqual([]);
    expect(ext.failed).toEqual([{ id: bad.id, code: "handshake_mismatch", message: call.error.message }]);

    const list = (await c.result("plugins.list")).plugins;
    expect(list.find((p: any) => p.id === bad.id)).toMatchObject({ runtime_status: "failed", error: { code: "handshake_mismatch", message: call.error.message } });
    expect(list.find((p: any) => p.id === ok.id)).toMatchObject({ runtime_status: "ready", error: null });

    // The failure is kept for this generation: no restart behind the user's back.
    const again = await c.call("plugins.invoke", { command: "drifty.echo", args: {} });
    expect(again.error.data.code).toBe("handshake_mismatch");
    expect((await c.result("plugins.processes")).processes.find((p: any) => p.plugin === bad.id)).toMatchObject({ phase: "failed", starts: 1 });
    // A reload clears it: the runtime is dormant again, so no longer failed.
    await c.result("plugins.reload", { plugin: "drifty" });
    expect((await c.result("extensions.list")).failed).toEqual([]);
    expect(await c.close()).toBe(0);
  });
});

describe("plan and apply on the plane", () => {
  test("plan_change returns the id apply_change takes; a plan without state keeps a disabled plugin disabled", async () => {
    const h = home();
    await installBundle(h, writeRuntimeBundle(join(h.root, "cfg"), { name: "cfg", commands: [{ id: "cfg.info" }] }).dir);
    await using c = spawnHost(h);
    const off = await c.result("plugins.plan_change", { plugin: "cfg", state: "disabled" });
    expect(typeof off.id).toBe("string");
    expect(off).not.toHaveProperty("token");
    expect((await c.call("plugins.apply_change", { token: off.id })).error.code).toBe(-32602);
    await c.result("plugins.apply_change", { id: off.id });

    const plan = await c.result("plugins.plan_change", { plugin: "cfg", config: { mode: "fast" } });
    expect(plan.request.state).toBe("disabled");
    expect(plan.after).toMatchObject({ state: "disabled", config: { mode: "fast" } });
    await c.result("plugins.apply_change", { id: plan.id });
    const entry = (await c.result("plugins.catalog")).plugins[0];
    expect(entry).toMatchObject({ state: "disabled", config: { mode: "fast" }, effective_state: { status: "disabled" } });
    // A component change still needs its state spelled out.
    expect((await c.call("plugins.plan_change", { plugin: "cfg", component: "runtime" })).error).toBeDefined();
    expect(await c.close()).toBe(0);
  });

  test("a config change to a running runtime lists it in active_resources, and the change notification lists what it stopped", async () => {
    const h = home();
    const b = await installBundle(h, writeRuntimeBundle(join(h.root, "cfg"), { name: "cfg", commands: [{ id: "cfg.info" }] }).dir);
    await using c = spawnHost(h);
    const first = (await c.result("plugins.invoke", { command: "cfg.info" })).result;
    expect(first.config).toBeNull();
    const plan = await c.result("plugins.plan_change", { plugin: "cfg", config: { mode: "fast" } });
    expect(plan.active_resources).toEqual([{ plugin: b.id, kind: "process", id: `${b.id}@user`, label: `${b.id} runtime (user)` }]);
    expect(plan.requires_confirmation).toBe(true);
    const seen = c.notifications.length;
    await c.result("plugins.apply_change", { id: plan.id });
    const changed = await c.waitFor((m) => m.method === "plugins.changed" && c.notifications.indexOf(m) >= seen);
    expect(changed.params.stopped).toEqual({ runtimes: [`${b.id}@user`], language_servers: [] });
    expect(processAlive(first.pid)).toBe(false);
    const second = (await c.result("plugins.invoke", { command: "cfg.info" })).result;
    expect(second.config).toEqual({ mode: "fast" });
    // A change that touches nothing running lists nothing.
    const same = await c.result("plugins.plan_change", { plugin: "cfg", config: { mode: "fast" } });
    expect(same.active_resources).toEqual([]);
    expect(same.noop).toBe(true);
    expect(await c.close()).toBe(0);
  });
});
