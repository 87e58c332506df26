/** install → list → verify → drift → verify → reinstall → uninstall, from the compiled binary. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { compiledBinary } from "../helpers/binary.ts";
import { snapshotTree } from "../helpers/tmp.ts";
import { makeWorld, writeBundle, type World } from "./gjc-install-fixture.ts";

let w: World;
let binary: string;
beforeAll(async () => {
  binary = await compiledBinary();
  w = makeWorld();
});
afterAll(() => w?.cleanup());

describe("compiled gjc: GJC install lifecycle", () => {
  test("install, list, verify, quarantine, repair, refusals, uninstall", async () => {
    const run = (args: string[]) => w.gjc(args, { binary });
    const src = writeBundle(join(w.root, "src"), "binbundle", { tools: ["bin_a", "bin_b"], mcps: ["bin_docs"] });

    const inst = await run(["plugin", "install", src, "--user", "--json"]);
    expect(inst.exitCode).toBe(0);
    expect(inst.json()).toMatchObject({ schema: "gjc/install@1", status: "installed", files: 4 });

    const list = await run(["plugin", "list", "--json"]);
    expect(list.json().bundles).toMatchObject([
      { family: "gjc", name: "binbundle", scope: "user", gjc: { counts: { surfaces: 3, enabled: 3 } } },
    ]);
    expect((await run(["plugin", "verify"])).exitCode).toBe(0);

    const reg = JSON.parse(readFileSync(join(w.user, "registry.json"), "utf8"));
    writeFileSync(join(reg.plugins[0].pluginRoot, "tools", "bin_a.ts"), "tampered\n");
    const drift = await run(["plugin", "verify", "--json"]);
    expect(drift.exitCode).toBe(3);
    expect(drift.json().bundles[0].problems[0]).toMatchObject({ kind: "changed", path: "tools/bin_a.ts" });
    expect((await run(["plugin", "list", "--json"])).json().bundles[0].quarantined).toBe(true);

    const before = snapshotTree(w.root);
    const refusal = await run(["plugin", "install", src, "--json"]);
    expect(refusal.exitCode).toBe(2);
    expect(refusal.json().error.code).toBe("scope_required");
    expect(snapshotTree(w.root)).toEqual(before);

    expect((await run(["plugin", "install", src, "--user", "--json"])).json().status).toBe("repaired");
    expect((await run(["plugin", "verify"])).exitCode).toBe(0);
    const un = await run(["plugin", "uninstall", "binbundle", "--user", "--json"]);
    expect(un.json()).toMatchObject({ status: "uninstalled" });
    expect((await run(["plugin", "doctor", "--json"])).json().ok).toBe(true);
  });
});
