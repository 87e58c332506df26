/**
 * The letter of the C2 standard on the host side, through a real `gjc host --stdio` client: a
 * failed runtime is failed in every plane document, never healthy.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { writeRuntimeBundle } from "../unit/c2host/_bundle.ts";
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
