/**
 * The letter of the C2 standard on the host side, through a real `gjc host --stdio` client: a
 * failed runtime is failed in every plane document, never healthy; plan and apply share one
 * name for the plan, keep the state a plan leaves out, and report exactly what they stop;
 * replacing or uninstalling a bundle under a live host stops (or restarts) its language servers;
 * their args are passed verbatim, and a bun one runs isolated from the project's bun files.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fixturesDir, runCli } from "../helpers/cli.ts";
import { snapshotTree } from "../helpers/tmp.ts";
import { processAlive, writeRuntimeBundle } from "../unit/c2host/_bundle.ts";
import { spawnHost } from "./c2-host-client.ts";
import { c2HomesPerTest, installBundle, type C2Home } from "./c2-runtime-setup.ts";

/**
 * The suite, run by c2-host-standard.test.ts from source and by c2-host-standard.compiled.test.ts
 * through the compiled binary (`binary()` gives its path then; undefined runs the source CLI).
 */
export function hostStandardSuite(binary: () => string | undefined): void {
  const home = c2HomesPerTest();

  describe("a failed runtime is reported failed", () => {
    test("after handshake_mismatch: catalog failed/process_failed, extensions.list failed, plugins.list failed, each with the reason", async () => {
      const h = home();
      const ok = await installBundle(
        h,
        writeRuntimeBundle(join(h.root, "fine"), { name: "fine", commands: [{ id: "fine.echo" }] }).dir,
      );
      const bad = await installBundle(
        h,
        writeRuntimeBundle(join(h.root, "drifty"), {
          name: "drifty",
          commands: [{ id: "drifty.echo", argsSchema: { type: "object" } }],
          mode: "drift",
        }).dir,
      );
      await using c = spawnHost(h, [], {}, binary());
      // Before any call both are dormant and enabled.
      const before = await c.result("plugins.catalog");
      expect(before.plugins.find((p: any) => p.installed_id === bad.id)).toMatchObject({
        effective_state: { status: "enabled", reason: null },
        process: null,
        error: null,
      });
      const call = await c.call("plugins.invoke", { command: "drifty.echo", args: {} });
      expect(call.error.data.code).toBe("handshake_mismatch");
      await c.result("plugins.invoke", { command: "fine.echo" });

      const cat = await c.result("plugins.catalog");
      const entry = cat.plugins.find((p: any) => p.installed_id === bad.id);
      expect(entry.effective_state).toEqual({ status: "failed", reason: "process_failed" });
      expect(entry.process).toEqual({ phase: "failed", error: call.error.message });
      expect(entry.error).toBe(call.error.message);
      expect(cat.plugins.find((p: any) => p.installed_id === ok.id)).toMatchObject({
        effective_state: { status: "enabled", reason: null },
        process: { phase: "running" },
        error: null,
      });

      const ext = await c.result("extensions.list");
      expect(ext.ready).toEqual([ok.id]);
      expect(ext.untrusted).toEqual([]);
      expect(ext.failed).toEqual([{ id: bad.id, code: "handshake_mismatch", message: call.error.message }]);

      const list = (await c.result("plugins.list")).plugins;
      expect(list.find((p: any) => p.id === bad.id)).toMatchObject({
        runtime_status: "failed",
        error: { code: "handshake_mismatch", message: call.error.message },
      });
      expect(list.find((p: any) => p.id === ok.id)).toMatchObject({ runtime_status: "ready", error: null });

      // Another gjc process (list, inspect) reads it from the host's live file.
      const cli = (...args: string[]) => runCli(args, { binary: binary(), env: h.env, cwd: h.root });
      const listed = (await cli("plugin", "list", "--json")).json().bundles.find((b: any) => b.c2?.id === bad.id);
      expect(listed.c2.runtimeFailures).toEqual([
        { host: c.proc.pid, realm: "user", code: "handshake_mismatch", message: call.error.message },
      ]);
      expect((await cli("plugin", "list")).stdout).toContain(
        `drifty 1.0.0  failed (handshake_mismatch in gjc host ${c.proc.pid}, user)`,
      );
      expect((await cli("plugin", "inspect", "drifty", "--json")).json().bundle.c2.runtimeFailures).toHaveLength(1);
      expect(
        (await cli("plugin", "list", "--json")).json().bundles.find((b: any) => b.c2?.id === ok.id).c2.runtimeFailures,
      ).toEqual([]);
      // The failure is kept for this generation: no restart behind the user's back.
      const again = await c.call("plugins.invoke", { command: "drifty.echo", args: {} });
      expect(again.error.data.code).toBe("handshake_mismatch");
      expect((await c.result("plugins.processes")).processes.find((p: any) => p.plugin === bad.id)).toMatchObject({
        phase: "failed",
        starts: 1,
      });
      // A reload clears it: the runtime is dormant again, so no longer failed.
      await c.result("plugins.reload", { plugin: "drifty" });
      expect((await c.result("extensions.list")).failed).toEqual([]);
      expect(
        (await cli("plugin", "list", "--json")).json().bundles.find((b: any) => b.c2?.id === bad.id).c2.runtimeFailures,
      ).toEqual([]);
      expect(await c.close()).toBe(0);
    });
  });

  describe("plan and apply on the plane", () => {
    test("plan_change returns the id apply_change takes; a plan without state keeps a disabled plugin disabled", async () => {
      const h = home();
      await installBundle(
        h,
        writeRuntimeBundle(join(h.root, "cfg"), { name: "cfg", commands: [{ id: "cfg.info" }] }).dir,
      );
      await using c = spawnHost(h, [], {}, binary());
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
      expect(entry).toMatchObject({
        state: "disabled",
        config: { mode: "fast" },
        effective_state: { status: "disabled" },
      });
      // A component change still needs its state spelled out.
      expect((await c.call("plugins.plan_change", { plugin: "cfg", component: "runtime" })).error).toBeDefined();
      expect(await c.close()).toBe(0);
    });

    test("a config change to a running runtime lists it in active_resources, and the change notification lists what it stopped", async () => {
      const h = home();
      const b = await installBundle(
        h,
        writeRuntimeBundle(join(h.root, "cfg"), { name: "cfg", commands: [{ id: "cfg.info" }] }).dir,
      );
      await using c = spawnHost(h, [], {}, binary());
      const first = (await c.result("plugins.invoke", { command: "cfg.info" })).result;
      expect(first.config).toBeNull();
      const plan = await c.result("plugins.plan_change", { plugin: "cfg", config: { mode: "fast" } });
      expect(plan.active_resources).toEqual([
        { plugin: b.id, kind: "process", id: `${b.id}@user`, label: `${b.id} runtime (user)` },
      ]);
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

  const LSP_SERVER = readFileSync(join(fixturesDir, "runtimes", "lsp-server.mjs"), "utf8");

  function lspBundle(h: C2Home, version: string, server: Record<string, unknown> = {}) {
    return writeRuntimeBundle(join(h.root, "lsp-src"), {
      name: "zig-kit",
      version,
      commands: [{ id: "zigkit.echo" }],
      languageServers: [{ id: "ls", languages: ["zig"], command: "./lsp-server.mjs", args: ["--stdio"], ...server }],
      // The server's code stays the same (changed code would need re-trust first); a data file changes.
      // The versions differ in a Markdown file only, so the code (and its trust) stays the same.
      extraFiles: { "lsp-server.mjs": LSP_SERVER, "notes.md": `version ${version}\n` },
    }).dir;
  }

  const hoverOf = async (c: ReturnType<typeof spawnHost>, id: string) =>
    (await c.result("lsp.request", { id, method: "textDocument/hover", params: {} })).result;

  describe("replace and uninstall under a live host", () => {
    test("install --force restarts a live language server on the new files under the same id; uninstall stops it; both are announced", async () => {
      const h = home();
      const b = await installBundle(h, lspBundle(h, "1.0.0"));
      await using c = spawnHost(h, [], {}, binary());
      const started = await c.result("lsp.start", { language: "zig" });
      const id = `${started.id}:${b.id}/ls`;
      let seen = c.notifications.length;
      const replaced = await runCli(["plugin", "install", lspBundle(h, "1.1.0"), "--force", "--json"], {
        binary: binary(),
        env: h.env,
        cwd: h.root,
      });
      expect(replaced.exitCode).toBe(0);
      expect(replaced.json().warnings).toContainEqual(expect.objectContaining({ code: "bundle_in_use" }));
      await c.waitFor(
        (m) =>
          m.method === "plugins.changed" &&
          c.notifications.indexOf(m) >= seen &&
          m.params.restarted.language_servers.length > 0,
      );
      // One notice, or two when the host looked while the install was mid-commit: stopped, then restarted.
      const notices = c.notifications.slice(seen).filter((m) => m.method === "plugins.changed");
      expect(notices.flatMap((m) => m.params.stopped.language_servers)).toEqual([id]);
      expect(notices.flatMap((m) => m.params.restarted.language_servers)).toEqual([id]);
      expect(processAlive(started.pid)).toBe(false);
      const [live] = (await c.result("lsp.list")).servers;
      expect(live.id).toBe(started.id);
      expect(live.pid).not.toBe(started.pid);
      expect((await hoverOf(c, started.id)).contents).toBe(`hover from ${live.pid}`);
      expect(readFileSync(join(h.dataDir, "plugins", b.id, "bundle", "notes.md"), "utf8")).toBe("version 1.1.0\n");

      seen = c.notifications.length;
      const removed = await runCli(["plugin", "uninstall", "zig-kit", "--json"], {
        binary: binary(),
        env: h.env,
        cwd: h.root,
      });
      expect(removed.exitCode).toBe(0);
      const gone = await c.waitFor(
        (m) =>
          m.method === "plugins.changed" &&
          c.notifications.indexOf(m) >= seen &&
          m.params.stopped.language_servers.length > 0,
      );
      expect(gone.params.stopped.language_servers).toEqual([id]);
      expect(gone.params.restarted.language_servers).toEqual([]);
      expect(processAlive(live.pid)).toBe(false);
      expect((await c.result("lsp.list")).servers).toEqual([]);
      expect(await c.close()).toBe(0);
    });
  });

  describe("language server launch", () => {
    test("args and env reach the server verbatim; the project root is the working directory", async () => {
      const h = home();
      const b = await installBundle(
        h,
        lspBundle(h, "1.0.0", { args: ["--stdio", "${PLUGIN_ROOT}/x", "$HOME"], env: { LSP_MODE: "${PLUGIN_DATA}" } }),
      );
      const project = join(h.root, "proj");
      mkdirSync(project);
      await using c = spawnHost(h, [], {}, binary());
      const started = await c.result("lsp.start", { language: "zig", project_path: project });
      expect(started.cwd).toBe(project);
      const hover = await hoverOf(c, started.id);
      expect(hover.args).toEqual(["--stdio", "${PLUGIN_ROOT}/x", "$HOME"]);
      expect(hover.env).toEqual({
        PLUGIN_ROOT: join(h.dataDir, "plugins", b.id, "bundle"),
        LSP_MODE: "${PLUGIN_DATA}",
      });
      expect(await c.close()).toBe(0);
    });

    test("a request the server sends the host is answered (method not found), so the server never waits on it", async () => {
      const h = home();
      await installBundle(h, lspBundle(h, "1.0.0"));
      await using c = spawnHost(h, [], {}, binary());
      const started = await c.result("lsp.start", { language: "zig" });
      const asked = (await c.result("lsp.request", { id: started.id, method: "gjc/askClient", params: {} })).result;
      expect(asked.clientAnswered).toMatchObject({
        jsonrpc: "2.0",
        id: "server-1",
        error: { code: -32601, message: expect.stringContaining("workspace/configuration") },
      });
      // The connection stays usable.
      expect((await hoverOf(c, started.id)).contents).toBe(`hover from ${started.pid}`);
      expect(await c.close()).toBe(0);
    });

    test("a server run by bun gets --no-env-file, no install and an empty config: the project's .env and bunfig.toml preload never run in it", async () => {
      const h = home();
      const project = join(h.root, "proj");
      mkdirSync(project);
      const sentinel = join(h.root, "preloaded");
      writeFileSync(join(project, ".env"), "LSP_MODE=from-dotenv\n");
      writeFileSync(
        join(project, "evil.mjs"),
        `import { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify(sentinel)}, "ran");\n`,
      );
      writeFileSync(join(project, "bunfig.toml"), 'preload = ["./evil.mjs"]\n');
      await installBundle(
        h,
        lspBundle(h, "1.0.0", { command: "bun", args: [join(fixturesDir, "runtimes", "lsp-server.mjs")] }),
      );
      // The flags are what is tested: unsandboxed, so the project (and the fixture the server runs from) stay readable.
      const unsandboxed = { GJC_SANDBOX: "off" };
      const probe = await runCli(["plugin", "lsp", "probe", "zig-kit/ls", "--project", project, "--json"], {
        binary: binary(),
        env: { ...h.env, ...unsandboxed },
        cwd: h.root,
      });
      expect(probe.exitCode).toBe(0);
      expect(probe.json().launch.args).toEqual([
        "--no-env-file",
        "--no-install",
        "--config=/dev/null",
        join(fixturesDir, "runtimes", "lsp-server.mjs"),
      ]);
      await using c = spawnHost(h, [], unsandboxed, binary());
      const started = await c.result("lsp.start", { language: "zig", project_path: project });
      expect((await hoverOf(c, started.id)).env.LSP_MODE).toBeNull();
      expect(existsSync(sentinel)).toBe(false);
      expect(await c.close()).toBe(0);
    });
  });

  describe("JSON-RPC 2.0 on the plane", () => {
    test("notifications are never answered; jsonrpc must be 2.0; a batch gets one answer per request", async () => {
      const h = home();
      await using c = spawnHost(h, [], {}, binary());
      // Notifications: a known method, an unknown one, one with bad params. None is answered.
      c.sendLine(JSON.stringify({ jsonrpc: "2.0", method: "plugins.list" }));
      c.sendLine(JSON.stringify({ jsonrpc: "2.0", method: "no.such.method" }));
      c.sendLine(JSON.stringify({ jsonrpc: "2.0", method: "plugins.reset", params: { plugin: 5 } }));
      // Not 2.0: refused with the id when it is usable.
      c.sendLine(JSON.stringify({ jsonrpc: "1.0", id: "old", method: "plugins.list" }));
      c.sendLine(JSON.stringify({ id: "none", method: "plugins.list" }));
      c.sendLine(JSON.stringify({ jsonrpc: "2.0", id: { bad: true }, method: "plugins.list" }));
      // A batch: requests, a notification and invalid members.
      c.sendLine(
        JSON.stringify([
          { jsonrpc: "2.0", id: "b1", method: "plugins.list" },
          { jsonrpc: "2.0", method: "plugins.list" },
          { foo: 1 },
          1,
          { jsonrpc: "2.0", id: "b2", method: "nope" },
        ]),
      );
      c.sendLine("[]");
      c.sendLine(
        JSON.stringify([
          { jsonrpc: "2.0", method: "plugins.list" },
          { jsonrpc: "2.0", method: "extensions.list" },
        ]),
      );
      c.sendLine("{not json");
      expect(await c.result("plugins.list")).toEqual({ plugins: [] });
      // EOF: the plane answers what is in flight, then stops; everything it wrote is now here.
      expect(await c.close()).toBe(0);
      const out = c.notifications;
      const byId = (id: unknown) => out.filter((m) => !Array.isArray(m) && m.id === id);
      expect(byId("old")).toEqual([
        { jsonrpc: "2.0", id: "old", error: { code: -32600, message: expect.stringContaining('"2.0"') } },
      ]);
      expect(byId("none")).toEqual([
        { jsonrpc: "2.0", id: "none", error: { code: -32600, message: expect.any(String) } },
      ]);
      const batches = out.filter((m) => Array.isArray(m));
      expect(batches).toHaveLength(1);
      const [batch] = batches;
      expect(batch).toHaveLength(4);
      expect(batch.find((m: any) => m.id === "b1")).toEqual({ jsonrpc: "2.0", id: "b1", result: { plugins: [] } });
      expect(batch.find((m: any) => m.id === "b2").error.code).toBe(-32601);
      expect(batch.filter((m: any) => m.id === null).map((m: any) => m.error.code)).toEqual([-32600, -32600]);
      // The rest: the bad id, the empty batch and the parse error, each answered once with id null.
      const nulls = out
        .filter((m) => !Array.isArray(m) && m.id === null)
        .map((m) => m.error.code)
        .sort();
      expect(nulls).toEqual([-32700, -32600, -32600].sort());
      // Nothing else: no answer to any notification.
      expect(out.filter((m) => !Array.isArray(m) && m.method === undefined)).toHaveLength(5);
    });
  });

  describe("host.actions text is plain", () => {
    test("the plane refuses a rendered item whose label, detail or accessibilityLabel holds markup or control characters; plain text with < and & passes", async () => {
      const h = home();
      const docs: Record<string, unknown> = {
        plain: { items: [{ id: "a", label: "a < b & c", detail: "x > y", accessibilityLabel: "Tom & Jerry" }] },
        img: { items: [{ id: "a", label: "<img src=x onerror=alert(1)>" }] },
        script: { items: [{ id: "a", label: "x", detail: "<script>alert(1)</script>" }] },
        newline: { items: [{ id: "a", label: "x", accessibilityLabel: "one\ntwo" }] },
        bell: { items: [{ id: "a", label: "ding\u0007" }] },
      };
      await installBundle(
        h,
        writeRuntimeBundle(join(h.root, "acts"), {
          name: "acts",
          commands: [{ id: "acts.actions" }],
          ui: Object.entries(docs).map(([id, document]) => ({
            id,
            slot: "host.actions",
            label: id,
            command: "acts.actions",
            input: { document },
          })),
        }).dir,
      );
      await using c = spawnHost(h, [], {}, binary());
      const render = (id: string) =>
        c.call("plugins.invoke_ui", { plugin_id: "acts", contribution_id: id, context: { operation: "render" } });
      expect((await render("plain")).result.items[0]).toMatchObject({
        label: "a < b & c",
        detail: "x > y",
        accessibilityLabel: "Tom & Jerry",
      });
      for (const id of ["img", "script", "newline", "bell"]) {
        const r = await render(id);
        expect([id, r.error?.data.code]).toEqual([id, "invalid_host_actions"]);
        expect(JSON.stringify(r.error)).not.toContain("<script>");
      }
      expect(await c.close()).toBe(0);
    });

    test("validate and install refuse a UI descriptor whose label or description holds markup or a line break, with the same code", async () => {
      const h = home();
      const dir = writeRuntimeBundle(join(h.root, "marky"), {
        name: "marky",
        commands: [{ id: "marky.run" }],
        ui: [
          { id: "a", slot: "composer.toolbar", label: "<b>Bold</b>", command: "marky.run" },
          { id: "b", slot: "composer.toolbar", label: "Fine", description: "first\nsecond", command: "marky.run" },
        ],
      }).dir;
      const v = await runCli(["plugin", "validate", dir, "--json"], { binary: binary(), env: h.env, cwd: h.root });
      expect(v.exitCode).toBe(1);
      const found = v
        .json()
        .diagnostics.filter((d: any) => d.code === "invalid_ui")
        .map((d: any) => d.path);
      expect(found).toEqual([
        "plugin.json#/extensions/dev.codetwo/ui/0/label",
        "plugin.json#/extensions/dev.codetwo/ui/1/description",
      ]);
      const before = snapshotTree(h.dataDir);
      const i = await runCli(["plugin", "install", dir, "--user", "--json"], {
        binary: binary(),
        env: h.env,
        cwd: h.root,
      });
      expect(i.exitCode).toBe(1);
      expect(i.stderr).toContain("invalid_ui");
      expect(snapshotTree(h.dataDir)).toEqual(before);
    });
  });

  describe("connector events", () => {
    test("only an object with the reference envelope from a declared connector is forwarded; the rest is dropped and counted", async () => {
      const h = home();
      const good = {
        connectorId: "workspace",
        eventId: "e1",
        kind: "message.created",
        createdAt: "2026-01-01T00:00:00Z",
        text: "hi",
      };
      const b = await installBundle(
        h,
        writeRuntimeBundle(join(h.root, "chat"), {
          name: "chat",
          commands: [{ id: "chat.emit" }, { id: "chat.connector" }],
          connectors: [
            { id: "workspace", provider: "test-chat", command: "chat.connector", capabilities: ["messaging"] },
          ],
        }).dir,
      );
      // A bundle with no connector at all may not forward connector events either.
      const other = await installBundle(
        h,
        writeRuntimeBundle(join(h.root, "plain"), { name: "plain", commands: [{ id: "plain.emit" }] }).dir,
      );
      await using c = spawnHost(h, [], {}, binary());
      const bad = [
        "a string",
        [good],
        { ...good, connectorId: "elsewhere" },
        { ...good, eventId: "" },
        { connectorId: "workspace", kind: "x", createdAt: "2026-01-01T00:00:00Z" },
        { ...good, kind: 7 },
        { ...good, createdAt: "yesterday" },
      ];
      const emit = (command: string, payloads: unknown[]) =>
        c.result("plugins.invoke", {
          command,
          args: { events: payloads.map((payload) => ({ name: "connector/event", payload })) },
        });
      await emit("chat.emit", [...bad, { ...good, plugin_id: "spoofed" }]);
      await emit("plain.emit", [good]);
      // The one good event arrives, attributed to its bundle, without the spoofed plugin_id.
      const forwarded = await c.waitFor((m) => m.method === "plugins.connector_event");
      expect(forwarded.params).toEqual({ plugin_id: b.id, event: good });
      const procs = (await c.result("plugins.processes")).processes;
      expect(procs.find((p: any) => p.plugin === b.id).dropped_connector_events).toBe(bad.length);
      expect(procs.find((p: any) => p.plugin === other.id).dropped_connector_events).toBe(1);
      expect(await c.close()).toBe(0);
      expect(c.notifications.filter((m) => m.method === "plugins.connector_event")).toHaveLength(1);
      expect(c.stderr).toContain("connector/event dropped");
    });
  });

  describe("the command surface is readable", () => {
    test("argsSchema and description appear in validate, inspect, list, policy catalog, audit, the plane's catalog and plugins.list, and commands.list", async () => {
      const h = home();
      const argsSchema = {
        type: "object",
        properties: { path: { type: "string" } },
        required: ["path"],
        additionalProperties: false,
      };
      const src = join(h.root, "cmds");
      writeRuntimeBundle(src, { name: "cmds", commands: [{ id: "cmds.open", argsSchema }, { id: "cmds.ping" }] });
      // The helper writes no description; add one to the first command.
      const pj = JSON.parse(readFileSync(join(src, "plugin.json"), "utf8"));
      pj.extensions["dev.codetwo"].commands[0].description = "Open a file in the workspace.";
      writeFileSync(join(src, "plugin.json"), JSON.stringify(pj));
      const open = {
        id: "cmds.open",
        title: "Run cmds.open",
        description: "Open a file in the workspace.",
        argsSchema,
      };
      const ping = { id: "cmds.ping", title: "Run cmds.ping", description: "", argsSchema: null };
      const cli = (...args: string[]) => runCli(args, { binary: binary(), env: h.env, cwd: h.root });

      const validated = await cli("plugin", "validate", src, "--json");
      expect(validated.json().commands).toEqual([open, ping]);
      expect((await cli("plugin", "validate", src)).stdout).toContain('args {"type":"object"');
      const audit = await cli("plugin", "audit", src, "--json");
      expect(audit.json().capabilities.hostCommands.filter((c: any) => c.kind === "command")).toEqual([
        expect.objectContaining({ name: "cmds.open", title: open.title, description: open.description, argsSchema }),
        expect.objectContaining({ name: "cmds.ping", title: ping.title, description: "", argsSchema: null }),
      ]);

      const b = await installBundle(h, src);
      expect((await cli("plugin", "list", "--json")).json().bundles[0].c2.commands).toEqual([open, ping]);
      expect((await cli("plugin", "inspect", "cmds", "--json")).json().bundle.c2.commands).toEqual([open, ping]);
      expect((await cli("plugin", "inspect", "cmds")).stdout).toContain(
        "cmds.open  Run cmds.open — Open a file in the workspace.",
      );
      expect((await cli("plugin", "policy", "catalog", "--json")).json().plugins[0].commands).toEqual([open, ping]);
      expect((await cli("plugin", "policy", "catalog")).stdout).toContain(
        "command cmds.open — Open a file in the workspace.",
      );

      const wire = [
        { id: "cmds.open", title: open.title, description: open.description, args_schema: argsSchema },
        { id: "cmds.ping", title: ping.title, description: "", args_schema: null },
      ];
      await using c = spawnHost(h, [], {}, binary());
      expect((await c.result("plugins.catalog")).plugins[0].commands).toEqual(wire);
      expect((await c.result("plugins.list")).plugins[0].commands).toEqual(wire);
      const inventory = await c.result("commands.list");
      expect(inventory.commands).toEqual(
        wire.map((w) => ({ ...w, plugin_id: b.id, plugin_name: "cmds", status: "ready" })),
      );
      expect(inventory.host_commands).toEqual(expect.arrayContaining(["git.status", "plugins.list", "host.info"]));
      expect(await c.close()).toBe(0);
    });
  });

  describe("declared environment", () => {
    test("runtime env values reach the child except credentials and loader switches, and validate names the dropped ones first", async () => {
      const h = home();
      const dir = writeRuntimeBundle(join(h.root, "envy"), {
        name: "envy",
        commands: [{ id: "envy.env" }],
        env: {
          MODE: "fast",
          AUTHOR_NAME: "me",
          GITHUB_TOKEN: "not-a-secret-but-named-like-one",
          NODE_OPTIONS: "--require ./x.js",
          LD_PRELOAD: "x.so",
        },
      }).dir;
      const v = await runCli(["plugin", "validate", dir, "--json"], { binary: binary(), env: h.env, cwd: h.root });
      expect(v.exitCode).toBe(0);
      const dropped = v
        .json()
        .diagnostics.filter((d: any) => d.code === "invalid_runtime" && d.severity === "warning")
        .map((d: any) => d.path.split("/").pop());
      expect(dropped.sort()).toEqual(["GITHUB_TOKEN", "LD_PRELOAD", "NODE_OPTIONS"]);
      await installBundle(h, dir);
      const r = await runCli(["plugin", "run", "envy.env", "--json"], { binary: binary(), env: h.env, cwd: h.root });
      expect(r.exitCode).toBe(0);
      const env = r.json().result.env;
      expect(env).toMatchObject({ MODE: "fast", AUTHOR_NAME: "me" });
      for (const name of ["GITHUB_TOKEN", "NODE_OPTIONS", "LD_PRELOAD"]) expect(env[name]).toBeUndefined();
    });

    test("validate warns that a language server arg with a placeholder is passed verbatim", async () => {
      const h = home();
      const v = await runCli(
        ["plugin", "validate", lspBundle(h, "1.0.0", { args: ["${PLUGIN_ROOT}/server.js"] }), "--json"],
        { binary: binary(), env: h.env, cwd: h.root },
      );
      expect(v.exitCode).toBe(0);
      expect(v.json().diagnostics).toContainEqual(
        expect.objectContaining({
          code: "invalid_language_server",
          severity: "warning",
          path: "plugin.json#/extensions/dev.codetwo/languageServers/0/args/0",
        }),
      );
    });
  });
}
