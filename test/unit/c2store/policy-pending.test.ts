/**
 * Pending is not enabled: a runtime whose `inject` names a service the gjc host lacks is shown
 * as pending (with the missing names) in the policy catalog and `list`, a plan that leaves it
 * enabled says it cannot settle, and applying it rolls back without advancing last-known-good.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { listC2, setC2Trusted } from "../../../src/c2store/lifecycle.ts";
import { applyPolicyPlan, planPolicyChange, policyCatalog } from "../../../src/c2store/policy-plane.ts";
import { snapshotTree } from "../../helpers/tmp.ts";
import { c2Home, refusal, runtimeBundle, skillsBundle, type C2Home } from "./_bundles.ts";

const homes: C2Home[] = [];
afterEach(() => homes.splice(0).forEach((h) => h.cleanup()));

async function pendingHome() {
  const h = c2Home();
  homes.push(h);
  const r = await h.install(
    h.bundle(
      "waiter",
      runtimeBundle("waiter", "1.0.0", { inject: ["desktop-host-actions"], optionalInject: ["store"] }),
    ),
  );
  await setC2Trusted(h.ctx, "waiter", true);
  return { h, id: r.c2.id };
}

describe("pending runtimes", () => {
  test("the catalog shows pending with the missing services, dependencies and checklist metadata", async () => {
    const { h, id } = await pendingHome();
    await h.install(h.bundle("notes", skillsBundle("notes")));
    const cat = policyCatalog(h.ctx);
    const waiter = cat.plugins.find((p) => p.installedId === id)!;
    expect(waiter).toMatchObject({
      metadata: {
        origin: "third-party",
        role: "extension",
        category: "ui",
        scopeSupport: ["user", "project"],
        essential: false,
        defaultEnabled: true,
      },
      dependencies: { required: ["extensions-runtime", "desktop-host-actions"], optional: ["store"] },
      missingServices: ["desktop-host-actions"],
      effective: { state: "enabled" },
      effectiveState: { status: "pending", reason: "missing-dependencies" },
    });
    const notes = cat.plugins.find((p) => p.name === "notes")!;
    expect(notes).toMatchObject({
      metadata: { category: "content" },
      dependencies: { required: [], optional: [] },
      missingServices: [],
      effectiveState: { status: "enabled" },
    });
    // The project view says the same (the runtime is project-capable).
    expect(
      policyCatalog(h.ctx, { project: h.root }).plugins.find((p) => p.installedId === id)!.effectiveState.status,
    ).toBe("pending");
    expect(listC2(h.ctx).plugins.find((p) => p.c2.id === id)!.c2.missingServices).toEqual(["desktop-host-actions"]);
  });

  test("a plan to enable it cannot settle; apply rolls back and last-known-good stays", async () => {
    const { h, id } = await pendingHome();
    // Disable first (that settles: a disabled runtime waits for nothing) so last-good exists.
    const off = await planPolicyChange(h.ctx, { plugin: "waiter", state: "disabled" });
    expect(off).toMatchObject({ settles: true, missingServices: [] });
    await applyPolicyPlan(h.ctx, off.token);
    const lastGood = readFileSync(join(h.data, "plugin-config.last-good.json"), "utf8");
    const primary = readFileSync(join(h.data, "plugin-config.json"), "utf8");

    const on = await planPolicyChange(h.ctx, { plugin: "waiter", state: "enabled" });
    expect(on).toMatchObject({ settles: false, missingServices: ["desktop-host-actions"] });
    expect(on.warnings.map((w) => w.message).join("\n")).toContain("cannot settle");
    const before = snapshotTree(h.data);
    const e = await refusal(() => applyPolicyPlan(h.ctx, on.token));
    expect(e).toMatchObject({ code: "change_not_settled", exit: 3 });
    expect(e.message).toContain("pending");
    expect(e.message).toContain("desktop-host-actions");
    expect(readFileSync(join(h.data, "plugin-config.json"), "utf8")).toBe(primary);
    expect(readFileSync(join(h.data, "plugin-config.last-good.json"), "utf8")).toBe(lastGood);
    // Only the consumed plan is gone.
    const after = snapshotTree(h.data);
    expect(Object.keys(after).filter((k) => !k.startsWith("plugin-plans"))).toEqual(
      Object.keys(before).filter((k) => !k.startsWith("plugin-plans")),
    );
    expect(policyCatalog(h.ctx).plugins.find((p) => p.installedId === id)!.effectiveState.status).toBe("disabled");
  });

  test("from a fresh store the first enable of a pending runtime never creates last-known-good", async () => {
    const { h } = await pendingHome();
    const plan = await planPolicyChange(h.ctx, { plugin: "waiter", state: "enabled" });
    expect(plan.settles).toBe(false);
    expect(await refusal(() => applyPolicyPlan(h.ctx, plan.token))).toMatchObject({ code: "change_not_settled" });
    expect(existsSync(join(h.data, "plugin-config.last-good.json"))).toBe(false);
  });
});
