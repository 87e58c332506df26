/** Several real gjc processes at once against one scope: the lock serializes them, nothing is lost. */
import { afterEach, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { makeWorld, writeBundle, type World } from "./gjc-install-fixture.ts";

let w: World;
afterEach(() => w?.cleanup());

const registry = () => JSON.parse(readFileSync(join(w.user, "registry.json"), "utf8"));

describe("concurrent installs into one scope", () => {
  test("8 processes installing 8 different bundles: all 8 entries land", async () => {
    w = makeWorld();
    const names = Array.from({ length: 8 }, (_, i) => `par${i}`);
    const srcs = names.map((n) => writeBundle(join(w.root, "src", n), n, { tools: [`${n}_a`, `${n}_b`] }));
    const env = { GJC_LOCK_TIMEOUT_MS: "60000" };
    const results = await Promise.all(srcs.map((s) => w.gjc(["plugin", "install", s, "--user", "--json"], { env })));
    for (const r of results) {
      expect(r.exitCode).toBe(0);
      expect(r.json().status).toBe("installed");
    }
    const reg = registry();
    expect(reg.plugins.map((p: { name: string }) => p.name)).toEqual(names);
    expect(readdirSync(w.user).sort()).toEqual(
      [
        "registry.index.json",
        "registry.json",
        "registry.last-good.json",
        ...reg.plugins.map((p: { dir: string }) => p.dir),
      ].sort(),
    );
    const verify = await w.gjc(["plugin", "verify", "--json"]);
    expect(verify.exitCode).toBe(0);
    expect(verify.json().bundles).toHaveLength(8);
  });

  test("4 processes installing the same bundle: one installs, the others report unchanged", async () => {
    w = makeWorld();
    const src = writeBundle(join(w.root, "src"), "same", { tools: ["same_a"] });
    const env = { GJC_LOCK_TIMEOUT_MS: "60000" };
    const results = await Promise.all(
      Array.from({ length: 4 }, () => w.gjc(["plugin", "install", src, "--project", "--json"], { env })),
    );
    const statuses = results.map((r) => {
      expect(r.exitCode).toBe(0);
      return r.json().status;
    });
    expect(statuses.filter((s) => s === "installed")).toHaveLength(1);
    expect(statuses.filter((s) => s === "unchanged")).toHaveLength(3);
    const reg = JSON.parse(readFileSync(join(w.projectScope, "registry.json"), "utf8"));
    expect(reg.plugins).toHaveLength(1);
    expect(readdirSync(w.projectScope).filter((n) => n.includes("@"))).toEqual([reg.plugins[0].dir]);
  });

  test("installs into both scopes and a disable running at once keep every change", async () => {
    w = makeWorld();
    const base = writeBundle(join(w.root, "src", "base"), "base", { tools: ["base_a", "base_b"] });
    expect((await w.gjc(["plugin", "install", base, "--user"])).exitCode).toBe(0);
    const u = writeBundle(join(w.root, "src", "u1"), "u1");
    const p = writeBundle(join(w.root, "src", "p1"), "p1");
    const env = { GJC_LOCK_TIMEOUT_MS: "60000" };
    const results = await Promise.all([
      w.gjc(["plugin", "install", u, "--user"], { env }),
      w.gjc(["plugin", "install", p, "--project"], { env }),
      w.gjc(["plugin", "disable", "base", "--user", "--surface", "tool:base_b"], { env }),
    ]);
    expect(results.map((r) => r.exitCode)).toEqual([0, 0, 0]);
    const reg = registry();
    expect(reg.plugins.map((x: { name: string }) => x.name)).toEqual(["base", "u1"]);
    expect(reg.plugins[0].disabledSurfaceIds).toEqual(["tool:base_b"]);
    expect(JSON.parse(readFileSync(join(w.projectScope, "registry.json"), "utf8")).plugins[0].name).toBe("p1");
  });
});
