/**
 * Issue #12, class 10: what runs is what was installed. An installed runtime or language
 * server file changed after install refuses the process start with runtime_mismatch (exit 3),
 * starts nothing, and quarantines the bundle as verify does.
 */
import { describe, expect, test } from "bun:test";
import { appendFileSync, chmodSync, existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { listInstalledC2 } from "../../src/c2store/records.ts";
import { fixturesDir, runCli } from "../helpers/cli.ts";
import { writeRuntimeBundle } from "../unit/c2host/_bundle.ts";
import { c2HomesPerTest, installBundle, type C2Home, unconfined } from "./c2-runtime-setup.ts";

const home = c2HomesPerTest();
const run = (h: C2Home, args: string[]) => runCli(args, { env: h.env, cwd: h.root });
const errorOf = (r: { stdout: string }) =>
  JSON.parse(r.stdout).error as { code: string; message: string; hint?: string; details?: any };
const installedDir = (h: C2Home, name: string) => listInstalledC2(h.ctx).find((b) => b.name === name)!.bundleDir;

describe("runtime files are checked before a process starts", () => {
  test("gjc plugin run: a changed runtime script is refused, nothing starts, the bundle is quarantined", async () => {
    const h = unconfined(home());
    const sentinel = join(h.root, "sentinel");
    const b = writeRuntimeBundle(join(h.root, "src"), {
      name: "drifty",
      commands: [{ id: "demo.echo", argsSchema: { type: "object" } }],
      env: { GJC_TEST_SENTINEL: sentinel },
    });
    await installBundle(h, b.dir);
    const ok = await run(h, ["plugin", "run", "demo.echo", "--json"]);
    expect(ok.exitCode).toBe(0);
    expect(existsSync(sentinel)).toBe(true);
    const { rmSync } = await import("node:fs");
    rmSync(sentinel);

    // Another process (or user) edits the installed runtime.
    appendFileSync(join(installedDir(h, "drifty"), "runtime.mjs"), "\n// tampered\n");
    const r = await run(h, ["plugin", "run", "demo.echo", "--json"]);
    expect(r.exitCode).toBe(3);
    expect(errorOf(r).code).toBe("runtime_mismatch");
    expect(errorOf(r).message).toContain("runtime.mjs");
    expect(errorOf(r).details.files).toEqual(["changed:runtime.mjs"]);
    expect(existsSync(sentinel)).toBe(false);
    // Quarantined as verify would: the next run says so, and list/inspect show it.
    const again = await run(h, ["plugin", "run", "demo.echo", "--json"]);
    expect([again.exitCode, errorOf(again).code]).toEqual([3, "quarantined"]);
    expect(listInstalledC2(h.ctx).find((x) => x.name === "drifty")!.quarantine).toMatchObject({
      reason: "runtime_mismatch",
      files: ["changed:runtime.mjs"],
    });
    expect(existsSync(sentinel)).toBe(false);
  });

  test("a mode change (group/other write added) is drift too", async () => {
    const h = home();
    const b = writeRuntimeBundle(join(h.root, "src"), {
      name: "modey",
      commands: [{ id: "demo.echo", argsSchema: { type: "object" } }],
    });
    await installBundle(h, b.dir);
    chmodSync(join(installedDir(h, "modey"), "runtime.mjs"), 0o666);
    const r = await run(h, ["plugin", "run", "demo.echo", "--json"]);
    expect([r.exitCode, errorOf(r).code]).toEqual([3, "runtime_mismatch"]);
  });

  test("gjc plugin lsp probe: a changed language server file is refused before the server starts", async () => {
    const h = unconfined(home());
    const sentinel = join(h.root, "sentinel");
    const b = writeRuntimeBundle(join(h.root, "src"), {
      name: "zig-one",
      commands: [{ id: "zigone.echo" }],
      languageServers: [
        { id: "zls", languages: ["zig"], command: "./lsp-server.mjs", args: [], env: { GJC_TEST_SENTINEL: sentinel } },
      ],
      extraFiles: { "lsp-server.mjs": readFileSync(join(fixturesDir, "runtimes", "lsp-server.mjs"), "utf8") },
    });
    await installBundle(h, b.dir);
    appendFileSync(join(installedDir(h, "zig-one"), "lsp-server.mjs"), "\n// tampered\n");
    const r = await run(h, ["plugin", "lsp", "probe", "zig-one/zls", "--json"]);
    expect([r.exitCode, errorOf(r).code]).toEqual([3, "runtime_mismatch"]);
    expect(existsSync(sentinel)).toBe(false);
  });
});
