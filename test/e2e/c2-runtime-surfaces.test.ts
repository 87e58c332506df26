import { describe, expect, test } from "bun:test";
import { copyFileSync, existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fixturesDir, runCli } from "../helpers/cli.ts";
import { liveGroupMembers, writeRuntimeBundle } from "../unit/c2host/_bundle.ts";
import { c2HomesPerTest, installBundle, type C2Home, unconfined } from "./c2-runtime-setup.ts";

const home = c2HomesPerTest();
const run = (h: C2Home, args: string[]) => runCli(args, { env: h.env, cwd: h.root });
const errorOf = (r: { stdout: string }) =>
  JSON.parse(r.stdout).error as { code: string; message: string; hint?: string };

describe("UI actions", () => {
  test("list, and invoke with {context, input} through the owning bundle", async () => {
    const h = home();
    await installBundle(h, join(fixturesDir, "examples", "hello-runtime"));
    const list = await run(h, ["plugin", "ui", "list", "--json"]);
    expect(list.exitCode).toBe(0);
    expect(list.json().contributions).toEqual([
      expect.objectContaining({
        pluginName: "hello-runtime",
        id: "greet",
        slot: "session.header",
        command: "hello.greet",
        status: "ready",
        order: 10,
      }),
    ]);
    const r = await run(h, ["plugin", "ui", "invoke", "hello-runtime", "greet", "--context", '{"cwd":"/x"}', "--json"]);
    expect(r.exitCode).toBe(0);
    expect(r.json().result).toEqual({ greeting: "Hello, C2!" });
    const unknown = await run(h, ["plugin", "ui", "invoke", "hello-runtime", "nope", "--json"]);
    expect([unknown.exitCode, errorOf(unknown).code]).toEqual([1, "unknown_contribution"]);
  });

  test("a disabled UI component and an untrusted bundle are refused before any start", async () => {
    const h = unconfined(home());
    const sentinel = join(h.root, "sentinel");
    const b = writeRuntimeBundle(join(h.root, "b"), {
      name: "uiy",
      commands: [{ id: "uiy.echo" }],
      ui: [{ id: "go", slot: "composer.toolbar", label: "Go", command: "uiy.echo", input: { x: 1 } }],
      env: { GJC_TEST_SENTINEL: sentinel },
    });
    await installBundle(h, b.dir);
    const plan = await run(h, [
      "plugin",
      "policy",
      "plan",
      "uiy",
      "--state",
      "disabled",
      "--component",
      "ui:go",
      "--json",
    ]);
    expect(plan.exitCode).toBe(0);
    expect((await run(h, ["plugin", "policy", "apply", plan.json().token])).exitCode).toBe(0);
    const off = await run(h, ["plugin", "ui", "invoke", "uiy", "go", "--json"]);
    expect([off.exitCode, errorOf(off).code]).toEqual([3, "component_disabled"]);
    expect((await run(h, ["plugin", "ui", "list", "uiy", "--json"])).json().contributions[0]).toMatchObject({
      status: "disabled",
      reasons: [{ code: "component_disabled" }],
    });
    expect((await run(h, ["plugin", "untrust", "uiy"])).exitCode).toBe(0);
    const untrusted = await run(h, ["plugin", "ui", "invoke", "uiy", "go", "--json"]);
    expect([untrusted.exitCode, errorOf(untrusted).code]).toEqual([3, "untrusted"]);
    expect(existsSync(sentinel)).toBe(false);
  });

  test("host.actions: render is validated, invoke gets the cached input of the item", async () => {
    const h = home();
    const b = writeRuntimeBundle(join(h.root, "b"), {
      name: "actiony",
      commands: [{ id: "actiony.actions" }],
      ui: [
        {
          id: "panel",
          slot: "host.actions",
          label: "Panel",
          command: "actiony.actions",
          input: {
            document: {
              items: [
                { id: "one", label: " First ", input: { n: 1 } },
                { id: "two", label: "Second", enabled: false },
              ],
            },
          },
        },
      ],
    });
    await installBundle(h, b.dir);
    const render = await run(h, ["plugin", "ui", "invoke", "actiony", "panel", "--json"]);
    expect(render.exitCode).toBe(0);
    expect(render.json().items).toEqual([
      {
        id: "one",
        label: "First",
        detail: "",
        state: "default",
        enabled: true,
        input: { n: 1 },
        accessibilityLabel: "First",
      },
      {
        id: "two",
        label: "Second",
        detail: "",
        state: "default",
        enabled: false,
        input: null,
        accessibilityLabel: "Second",
      },
    ]);
    const invoke = await run(h, ["plugin", "ui", "invoke", "actiony", "panel", "--item", "one", "--json"]);
    expect(invoke.exitCode).toBe(0);
    expect(invoke.json().result.invoked).toEqual({ n: 1 });
    const disabled = await run(h, ["plugin", "ui", "invoke", "actiony", "panel", "--item", "two", "--json"]);
    expect(errorOf(disabled).code).toBe("action_disabled");
  });

  test("host.actions documents out of bounds render nothing", async () => {
    const h = home();
    const docs = {
      html: { items: [], html: "<b>x</b>" },
      nine: { items: Array.from({ length: 9 }, (_, i) => ({ id: `a${i}`, label: "x" })) },
      bigInput: { items: [{ id: "a", label: "x", input: { blob: "z".repeat(4096) } }] },
      badState: { items: [{ id: "a", label: "x", state: "blinking" }] },
      dupIds: {
        items: [
          { id: "a", label: "x" },
          { id: "a", label: "y" },
        ],
      },
      extraKey: { items: [{ id: "a", label: "x", onClick: "alert(1)" }] },
      // The host chooses the markup: a tag, a character reference, a newline or a control character in any text is refused.
      imgLabel: { items: [{ id: "a", label: '<img src=x onerror="alert(1)">' }] },
      scriptDetail: { items: [{ id: "a", label: "x", detail: "<script>alert(1)</script>" }] },
      entityDetail: { items: [{ id: "a", label: "x", detail: "a &lt;b&gt;" }] },
      newlineLabel: { items: [{ id: "a", label: "two\nlines" }] },
      escapeA11y: { items: [{ id: "a", label: "x", accessibilityLabel: "\u001b[31mred" }] },
      lineSeparator: { items: [{ id: "a", label: "x", accessibilityLabel: "a\u2028b" }] },
    };
    const b = writeRuntimeBundle(join(h.root, "b"), {
      name: "badactions",
      commands: [{ id: "bad.actions" }],
      ui: Object.entries(docs).map(([k, document]) => ({
        id: k,
        slot: "host.actions",
        label: k,
        command: "bad.actions",
        input: { document },
      })),
    });
    await installBundle(h, b.dir);
    for (const k of Object.keys(docs)) {
      const r = await run(h, ["plugin", "ui", "invoke", "badactions", k, "--json"]);
      expect([k, r.exitCode, errorOf(r).code]).toEqual([k, 1, "invalid_host_actions"]);
    }
  });
});

describe("connectors", () => {
  test("the capability gate runs before the process; allowed operations get {operation, input}", async () => {
    const h = unconfined(home());
    const sentinel = join(h.root, "sentinel");
    const b = writeRuntimeBundle(join(h.root, "b"), {
      name: "chatty",
      commands: [{ id: "chat.connector" }],
      connectors: [
        {
          id: "workspace",
          provider: "test-chat",
          command: "chat.connector",
          capabilities: ["connection", "conversations", "messaging"],
        },
      ],
      env: { GJC_TEST_SENTINEL: sentinel },
    });
    await installBundle(h, b.dir);
    const denied = await run(h, ["plugin", "connector", "invoke", "chatty", "workspace", "document.read", "--json"]);
    expect([denied.exitCode, errorOf(denied).code]).toEqual([3, "capability_denied"]);
    expect(errorOf(denied).message).toContain("does not declare the capability");
    expect(existsSync(sentinel)).toBe(false);
    const ok = await run(h, [
      "plugin",
      "connector",
      "invoke",
      "chatty",
      "workspace",
      "conversation.messages",
      "--input",
      '{"limit":2}',
      "--json",
    ]);
    expect(ok.exitCode).toBe(0);
    expect(ok.json()).toMatchObject({
      connector: "workspace",
      provider: "test-chat",
      capability: "conversations",
      result: { operation: "conversation.messages", input: { limit: 2 } },
    });
    const list = await run(h, ["plugin", "connector", "invoke", "chatty", "workspace", "resources.list", "--json"]);
    expect(list.json().capability).toBe("conversations");
  });
});

describe("language servers", () => {
  function lspBundle(
    h: C2Home,
    dir: string,
    name: string,
    servers: { id: string; languages: string[] }[],
    sentinel?: string,
  ) {
    return writeRuntimeBundle(join(h.root, dir), {
      name,
      commands: [{ id: `${name.replace(/-/g, "")}.echo` }],
      languageServers: servers.map((s) => ({
        ...s,
        command: "./lsp-server.mjs",
        args: [],
        ...(sentinel ? { env: { GJC_TEST_SENTINEL: sentinel } } : {}),
      })),
      extraFiles: { "lsp-server.mjs": readFileSync(join(fixturesDir, "runtimes", "lsp-server.mjs"), "utf8") },
    });
  }

  test("one provider per language; conflicts fail closed and are shown", async () => {
    const h = home();
    await installBundle(h, lspBundle(h, "a", "zig-one", [{ id: "zls", languages: ["zig", "Zon"] }]).dir);
    await installBundle(h, lspBundle(h, "b", "zig-two", [{ id: "other", languages: ["zig"] }]).dir);
    await installBundle(h, lspBundle(h, "c", "lua-untrusted", [{ id: "lua", languages: ["lua"] }]).dir, {
      trust: false,
    });
    const r = await run(h, ["plugin", "lsp", "list", "--json"]);
    expect(r.exitCode).toBe(0);
    const doc = r.json();
    expect(doc.conflicts).toEqual(["zig"]);
    const zig = doc.languages.find((l: any) => l.language === "zig");
    expect(zig.provider).toBeNull();
    expect(zig.providers.map((p: any) => p.pluginName).sort()).toEqual(["zig-one", "zig-two"]);
    expect(doc.languages.find((l: any) => l.language === "zon").provider).toMatchObject({
      pluginName: "zig-one",
      server: "zls",
    });
    expect(doc.languages.find((l: any) => l.language === "lua")).toBeUndefined();
    expect(doc.servers.find((s: any) => s.server === "lua")).toMatchObject({
      status: "untrusted",
      reasons: [{ code: "untrusted" }],
    });
    const human = await run(h, ["plugin", "lsp", "list"]);
    expect(human.stdout).toContain("zig → conflict");
  });

  test("probe runs initialize over Content-Length framing, prints capabilities, and stops the server", async () => {
    const h = unconfined(home());
    const sentinel = join(h.root, "sentinel");
    await installBundle(h, lspBundle(h, "a", "zig-one", [{ id: "zls", languages: ["zig"] }], sentinel).dir);
    const project = join(h.root, "proj");
    await Bun.write(join(project, "x.zig"), "");
    const r = await run(h, ["plugin", "lsp", "probe", "zig-one/zls", "--project", project, "--json"]);
    expect(r.exitCode).toBe(0);
    expect(r.json()).toMatchObject({
      server: "zls",
      capabilities: { hoverProvider: true, textDocumentSync: 1 },
      serverInfo: { name: "fixture-ls" },
    });
    const [, pid, , cwd] = readFileSync(sentinel, "utf8").trim().split(" ");
    expect(cwd).toBe(r.json().cwd);
    expect(liveGroupMembers(Number(pid))).toEqual([]);
    const missing = await run(h, ["plugin", "lsp", "probe", "zig-one/nope", "--json"]);
    expect([missing.exitCode, errorOf(missing).code]).toEqual([1, "unknown_contribution"]);
  });
});
