import { describe, expect, test } from "bun:test";
import { capabilityFor, operationIsWellFormed } from "../../../src/c2host/connector-gate.ts";
import { parsePorcelainV2 } from "../../../src/c2host/git-status.ts";
import { checkInitializeResult, initializeParams, protocolCompatible } from "../../../src/c2host/handshake.ts";
import { validateHostActions } from "../../../src/c2host/host-actions.ts";
import { LspFrameReader, lspFrame } from "../../../src/c2host/lsp-framing.ts";
import { routeLanguages } from "../../../src/c2host/lsp-routing.ts";
import { manifestOf } from "./_bundle.ts";

describe("handshake rules", () => {
  test("compatibility is by major version 1", () => {
    expect(["1.0.0", "1.4.2"].map(protocolCompatible)).toEqual([true, true]);
    expect(["", "2.0.0", "0.9.0", undefined, 1].map(protocolCompatible)).toEqual([false, false, false, false, false]);
  });

  test("absent ≡ null schemas, key order ignored, duplicates refused", () => {
    const declared = [
      { id: "a.b", title: "x", description: "", argsSchema: { type: "object", properties: { x: { type: "string" } } } },
      { id: "a.c", title: "y", description: "", argsSchema: null },
    ];
    const ok = checkInitializeResult(
      {
        protocolVersion: "1.2.0",
        commands: [
          { name: "a.c", schema: null },
          { name: "a.b", schema: { properties: { x: { type: "string" } }, type: "object" }, description: "ignored" },
        ],
        events: ["skills/changed", 3],
      },
      declared,
    );
    expect(ok.events).toEqual(["skills/changed"]);
    expect(() =>
      checkInitializeResult({ protocolVersion: "1.0.0", commands: [{ name: "a.b" }, { name: "a.c" }] }, declared),
    ).toThrow("initialize schema for `a.b` does not match the manifest argsSchema");
    expect(() =>
      checkInitializeResult({ protocolVersion: "1.0.0", commands: [{ name: "a.c" }, { name: "a.c" }] }, declared),
    ).toThrow("duplicate command `a.c`");
    expect(() => checkInitializeResult({ protocolVersion: "1.0.0" }, declared)).toThrow("no `commands` array");
  });

  test("initialize params carry projectPath only for project instances", () => {
    const user = initializeParams({ visibleCommands: ["git.status"], config: undefined, dataDir: "/d" });
    expect(user).toEqual({
      protocolVersion: "1.0.0",
      host: { name: "gjc", version: expect.any(String), commands: ["git.status"] },
      config: null,
      dataDir: "/d",
    });
    expect("projectPath" in user).toBe(false);
    expect(
      initializeParams({ visibleCommands: [], config: { a: 1 }, dataDir: "/d", projectPath: "/p" }).projectPath,
    ).toBe("/p");
  });

  // The handshake compares argument schemas with Bun.deepEquals: key order does not matter, array order and kind do.
  test("JSON equality as the handshake relies on it", () => {
    const jsonEqual = (a: unknown, b: unknown) => Bun.deepEquals(a, b);
    expect(jsonEqual({ b: 2, a: 1 }, { a: 1, b: 2 })).toBe(true);
    expect(jsonEqual({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] })).toBe(true);
    expect(jsonEqual({ a: [1, 2] }, { a: [2, 1] })).toBe(false);
    expect(jsonEqual({ type: "object" }, { type: "array" })).toBe(false);
    expect(jsonEqual({}, [])).toBe(false);
    expect(jsonEqual(null, {})).toBe(false);
  });
});

describe("host.actions documents", () => {
  test("limits are inclusive at the edge", () => {
    const label80 = "é".repeat(80);
    const input = { s: "x".repeat(4096 - 8) }; // {"s":"…"} is exactly 4096 bytes
    expect(Buffer.byteLength(JSON.stringify(input))).toBe(4096);
    const eight = Array.from({ length: 8 }, (_, i) => ({
      id: `i${i}`,
      label: label80,
      input: i === 0 ? input : null,
      accessibilityLabel: "a".repeat(160),
    }));
    const r = validateHostActions({ items: eight });
    expect(r.ok).toBe(true);
    expect(validateHostActions({ items: [{ id: "x", label: `${label80}e` }] }).ok).toBe(false);
    expect(validateHostActions({ items: [{ id: "x", label: "ok", input: { s: "x".repeat(4096 - 7) } }] }).ok).toBe(
      false,
    );
    expect(validateHostActions({ items: [{ id: "x", label: "ok", input: [1] }] }).ok).toBe(false);
    expect(validateHostActions({ items: [{ id: "x y", label: "ok" }] }).ok).toBe(false);
    expect(validateHostActions({ items: [{ id: "x", label: "   " }] }).ok).toBe(false);
    expect(validateHostActions([]).ok).toBe(false);
  });
});

describe("connector capability gate", () => {
  test("namespaces per capability", () => {
    expect(capabilityFor("conversation.messages", ["connection", "conversations"])).toBe("conversations");
    expect(capabilityFor("resources.list", ["tables"])).toBe("tables");
    expect(capabilityFor("document.read", ["conversations", "messaging"])).toBeUndefined();
    expect(capabilityFor("notification.send", ["turn_notifications"])).toBe("turn_notifications");
    expect(capabilityFor("issues.list", ["connection"])).toBeUndefined();
    expect(capabilityFor("connection.", ["connection"])).toBeUndefined();
    expect(operationIsWellFormed("message.send")).toBe(true);
    expect(operationIsWellFormed("message")).toBe(false);
  });
});

describe("language routing", () => {
  const bundle = (id: string, servers: { id: string; languages: string[] }[]) => ({
    id,
    name: id,
    version: "1.0.0",
    bundleDir: "/b",
    dataDir: "/d",
    enabled: true,
    trusted: true,
    manifest: manifestOf({
      $schema: "s",
      name: id,
      version: "1.0.0",
      extensions: {
        "dev.codetwo": { standardVersion: "1.2.0", languageServers: servers.map((s) => ({ ...s, command: "x" })) },
      },
    }),
  });
  test("two servers of one bundle for one language are a conflict too", () => {
    const b = bundle("one", [
      { id: "a", languages: ["zig"] },
      { id: "b", languages: ["ZIG", "c"] },
    ]);
    const routes = routeLanguages([{ bundle: b, serverIds: ["a", "b"] }]);
    expect(routes.find((r) => r.language === "zig")?.provider).toBeNull();
    expect(routes.find((r) => r.language === "c")?.provider?.server).toBe("b");
    expect(routeLanguages([{ bundle: b, serverIds: ["a"] }]).map((r) => [r.language, r.provider?.server])).toEqual([
      ["zig", "a"],
    ]);
  });

  test("LSP frames split anywhere are reassembled by byte length", () => {
    const bytes = new Uint8Array([...lspFrame({ id: 1, result: "ünïcode" }), ...lspFrame({ id: 2 })]);
    const reader = new LspFrameReader();
    const got: unknown[] = [];
    for (const b of bytes) got.push(...reader.push(new Uint8Array([b])));
    expect(got).toEqual([{ id: 1, result: "ünïcode" }, { id: 2 }]);
  });
});

describe("git porcelain v2 parsing", () => {
  test("headers, ordinary, renamed (-z source record), unmerged and untracked entries", () => {
    const z = [
      "# branch.oid abc",
      "# branch.head feature/x",
      "# branch.upstream origin/feature/x",
      "# branch.ab +2 -1",
      "1 MM N... 100644 100644 100644 aaa bbb dir/both sides.txt",
      "2 R. N... 100644 100644 100644 aaa bbb R100 new.txt",
      "old.txt",
      "u UU N... 100644 100644 100644 100644 a b c conflict.txt",
      "? untracked.txt",
      "",
    ].join("\0");
    const r = parsePorcelainV2(new TextEncoder().encode(z));
    expect(r).toMatchObject({ is_repo: true, branch: "feature/x", ahead: 2, behind: 1 });
    expect(r.files).toEqual([
      {
        path: "dir/both sides.txt",
        original_path: null,
        staged: true,
        unstaged: true,
        state: "modified",
        staged_state: "modified",
        unstaged_state: "modified",
      },
      {
        path: "new.txt",
        original_path: "old.txt",
        staged: true,
        unstaged: false,
        state: "renamed",
        staged_state: "renamed",
        unstaged_state: null,
      },
      {
        path: "conflict.txt",
        original_path: null,
        staged: true,
        unstaged: true,
        state: "unmerged",
        staged_state: "unmerged",
        unstaged_state: "unmerged",
      },
      {
        path: "untracked.txt",
        original_path: null,
        staged: false,
        unstaged: true,
        state: "untracked",
        staged_state: null,
        unstaged_state: "untracked",
      },
    ]);
  });
});
