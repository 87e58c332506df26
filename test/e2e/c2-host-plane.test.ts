/**
 * The management plane answers what a host asks about names and state, through a real
 * `gjc host --stdio`: `plugins.list` with a pending runtime and its missing services, the
 * pending state in `plugins.catalog`, and a command namespace that is reserved whatever its case.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { runCli } from "../helpers/cli.ts";
import { writeTree } from "../helpers/tmp.ts";
import { writeRuntimeBundle } from "../unit/c2host/_bundle.ts";
import { spawnHost } from "./c2-host-client.ts";
import { c2HomesPerTest, installBundle } from "./c2-runtime-setup.ts";

const home = c2HomesPerTest();

describe("names and pending state on the plane", () => {
  test("plugins.list and plugins.catalog show a runtime waiting on a missing service as pending", async () => {
    const h = home();
    const ready = await installBundle(
      h,
      writeRuntimeBundle(join(h.root, "ready"), { name: "ready", commands: [{ id: "ready.echo" }] }).dir,
    );
    const waiter = await installBundle(
      h,
      writeRuntimeBundle(join(h.root, "waiter"), {
        name: "waiter",
        commands: [{ id: "waiter.echo" }],
        inject: ["desktop-host-actions"],
      }).dir,
    );
    await using c = spawnHost(h);
    const list = (await c.result("plugins.list")).plugins;
    expect(list.find((p: any) => p.id === ready.id)).toMatchObject({ runtime_status: "ready", missing: [] });
    expect(list.find((p: any) => p.id === waiter.id)).toMatchObject({
      runtime_status: "pending",
      missing: ["desktop-host-actions"],
      enabled: true,
      trusted: true,
    });
    const cat = await c.result("plugins.catalog");
    expect(cat.plugins.find((p: any) => p.installed_id === waiter.id)).toMatchObject({
      effective_state: { status: "pending", reason: "missing_dependencies" },
      missing: ["desktop-host-actions"],
    });
    // Calling it says which service is missing (never a silent success), and nothing started.
    const call = await c.call("plugins.invoke", { command: "waiter.echo" });
    expect(call.error.data.code).toBe("missing_service");
    expect(call.error.data.details.missing).toEqual(["desktop-host-actions"]);
    expect((await c.result("plugins.processes")).processes).toEqual([]);
    // extensions.list: the reference shape plus `failed`; a pending runtime is neither ready, untrusted nor failed.
    expect(await c.result("extensions.list")).toEqual({ ready: [ready.id], untrusted: [], failed: [] });
    expect(await c.close()).toBe(0);
  });

  test("plugin list shows pending; a reserved namespace in any case is refused at install", async () => {
    const h = home();
    await installBundle(
      h,
      writeRuntimeBundle(join(h.root, "waiter"), {
        name: "waiter",
        commands: [{ id: "waiter.echo" }],
        inject: ["desktop-host-actions"],
      }).dir,
    );
    const env = { ...h.env };
    const listed = await runCli(["plugin", "list"], { env, cwd: h.root });
    expect(listed.exitCode).toBe(0);
    expect(listed.stdout).toContain("pending (this host lacks desktop-host-actions)");
    const plan = await runCli(["plugin", "policy", "plan", "waiter", "--state", "enabled"], { env, cwd: h.root });
    expect(plan.exitCode).toBe(0);
    expect(plan.stdout).toContain(
      "cannot settle: the runtime would stay pending (this host lacks desktop-host-actions)",
    );
    const json = await runCli(["plugin", "list", "--json"], { env, cwd: h.root });
    expect(json.json().bundles[0].c2.missingServices).toEqual(["desktop-host-actions"]);

    const bad = writeRuntimeBundle(join(h.root, "shouty"), { name: "shouty", commands: [{ id: "Git.status" }] }).dir;
    const r = await runCli(["plugin", "install", bad, "--user", "--json"], { env, cwd: h.root });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain("reserved_namespace");
    const after = await runCli(["plugin", "list", "--json"], { env, cwd: h.root });
    expect(after.json().bundles.map((p: any) => p.name)).toEqual(["waiter"]);
  });

  test("nothing to do is an explicit answer: reloading a data-only bundle is an error; scenes are not counted as supported", async () => {
    const h = home();
    const dir = join(h.root, "office");
    writeTree(dir, {
      "plugin.json": {
        $schema: "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json",
        name: "office",
        version: "1.0.0",
        extensions: { "dev.codetwo": { standardVersion: "1.2.0" } },
      },
      "skills/notes/SKILL.md": "---\nname: notes\ndescription: Notes.\n---\nTake notes.\n",
      "scenes/review.scene.json": {
        $schema: "https://agent-scenes.org/schemas/1.0.0/scene.schema.json",
        name: "review",
        title: "Review",
      },
    });
    await installBundle(h, dir, { trust: false });
    await using c = spawnHost(h);
    const r = await c.call("plugins.reload", { plugin: "office" });
    expect(r.error).toMatchObject({ code: -32000, data: { code: "no_runtime" } });
    expect(await c.close()).toBe(0);
    const listed = await runCli(["plugin", "list", "--json"], { env: h.env, cwd: h.root });
    expect(listed.json().bundles[0].c2).toMatchObject({
      contributions: { skills: 1, scenes: 1 },
      totalContributions: 1,
    });
    expect(listed.json().bundles[0].c2.components).toContainEqual(
      expect.objectContaining({ kind: "scene", status: "unsupported" }),
    );
  });
});
