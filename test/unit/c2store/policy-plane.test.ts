import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setC2Enabled, setC2Trusted } from "../../../src/c2store/lifecycle.ts";
import { effectivePolicy } from "../../../src/c2store/policy.ts";
import { applyPolicyPlan, planPolicyChange, policyCatalog, resetPolicy } from "../../../src/c2store/policy-plane.ts";
import { c2StoreHooks } from "../../../src/c2store/hooks.ts";
import { findInstalledC2 } from "../../../src/c2store/records.ts";
import { trustStateOf } from "../../../src/families/c2/trust.ts";
import { snapshotTree } from "../../helpers/tmp.ts";
import { c2Home, refusal, runtimeBundle, skillsBundle, type C2Home } from "./_bundles.ts";

const homes: C2Home[] = [];
afterEach(() => {
  homes.splice(0).forEach((h) => h.cleanup());
  c2StoreHooks.settle.length = 0;
});

let clock = Date.parse("2026-03-01T10:00:00Z");
async function trustedHome(opts: { scopes?: string[] } = {}) {
  const h = c2Home({}, () => new Date(clock));
  homes.push(h);
  const r = await h.install(h.bundle("demo", runtimeBundle("demo", "1.0.0", opts)));
  await setC2Trusted(h.ctx, "demo", true);
  return { h, id: r.c2.id };
}

const change = async (h: C2Home, input: Parameters<typeof planPolicyChange>[1]) =>
  applyPolicyPlan(h.ctx, (await planPolicyChange(h.ctx, input)).token);

describe("catalog → plan → apply", () => {
  test("the catalog starts at inherit; a plan shows the exact impact; apply persists and advances last-good", async () => {
    const { h, id } = await trustedHome();
    const cat = policyCatalog(h.ctx);
    expect(cat).toMatchObject({ configRevision: 0, recovery: { kind: "normal" } });
    expect(cat.plugins[0]).toMatchObject({
      id: `bundle:${id}`,
      state: "inherit",
      effective: { state: "enabled", source: "default" },
      effectiveState: { status: "enabled" },
    });

    const plan = await planPolicyChange(h.ctx, { plugin: "demo", state: "disabled" });
    expect(plan).toMatchObject({
      noop: false,
      before: { state: "enabled" },
      after: { state: "disabled" },
      affected: [`bundle:${id}`],
      requiresConfirmation: true,
      configRevision: 0,
    });
    expect(plan.activeResources).toEqual([
      { plugin: `bundle:${id}`, kind: "plugin-scope", id: `bundle:${id}`, label: "demo runtime" },
    ]);
    expect(readFileSync(join(h.data, "plugin-plans", `${plan.token}.json`), "utf8")).toContain(plan.token);

    const applied = await applyPolicyPlan(h.ctx, plan.token);
    expect(applied).toMatchObject({ configRevision: 1, changed: true, effective: { state: "disabled" } });
    expect(effectivePolicy(h.ctx, "demo")).toMatchObject({ state: "disabled", stateSource: "user" });
    expect(JSON.parse(readFileSync(join(h.data, "plugin-config.last-good.json"), "utf8"))).toEqual(
      JSON.parse(readFileSync(join(h.data, "plugin-config.json"), "utf8")),
    );
    expect(readdirSync(h.data).includes("plugin-plans")).toBe(false);
  });

  test("a plan is single-use, and stale once the policy or the installed set moved on", async () => {
    const { h } = await trustedHome();
    const used = await planPolicyChange(h.ctx, { plugin: "demo", state: "disabled" });
    const stalePolicy = await planPolicyChange(h.ctx, { plugin: "demo", state: "enabled", config: { a: 1 } });
    await applyPolicyPlan(h.ctx, used.token);
    let before = snapshotTree(h.data);
    expect(await refusal(() => applyPolicyPlan(h.ctx, used.token))).toMatchObject({ code: "plan_not_found", exit: 3 });
    expect(snapshotTree(h.data)).toEqual(before);
    const stale = await refusal(() => applyPolicyPlan(h.ctx, stalePolicy.token));
    expect(stale).toMatchObject({ code: "stale_plan", exit: 3 });
    expect(stale.message).toContain("revision 0 → 1");
    // Nothing changed but the stale plan itself, which is consumed (single use).
    const withoutPlan = Object.fromEntries(Object.entries(before).filter(([k]) => !k.startsWith("plugin-plans")));
    expect(snapshotTree(h.data)).toEqual(withoutPlan);
    expect((await refusal(() => applyPolicyPlan(h.ctx, stalePolicy.token))).code).toBe("plan_not_found");

    const graph = await planPolicyChange(h.ctx, { plugin: "demo", state: "enabled" });
    await h.install(h.bundle("other", skillsBundle("other")));
    before = snapshotTree(h.data);
    expect(await refusal(() => applyPolicyPlan(h.ctx, graph.token))).toMatchObject({ code: "stale_plan", exit: 3 });
    const flip = await planPolicyChange(h.ctx, { plugin: "demo", state: "enabled" });
    await setC2Enabled(h.ctx, "other", false);
    expect((await refusal(() => applyPolicyPlan(h.ctx, flip.token))).code).toBe("stale_plan");
    expect(await refusal(() => applyPolicyPlan(h.ctx, "not-a-token"))).toMatchObject({
      code: "invalid_plan_token",
      exit: 2,
    });
  });

  test("a damaged stored plan is refused naming the bad field, discarded, and changes nothing", async () => {
    const { h } = await trustedHome();
    const damages: [(plan: any) => void, string][] = [
      [(p) => (p.request.extra = 1), 'request has an unknown field "extra" (at /request/extra)'],
      [(p) => (p.request.state = "on"), 'request.state "on" is not allowed (at /request/state)'],
      [(p) => (p.config_revision = "0"), "config_revision must be an integer, not a string (at /config_revision)"],
      [(p) => (p.request.project = "relative/dir"), "(at /request/project)"],
      [(p) => (p.token = "0".repeat(32)), "it was made for another token (at /token)"],
    ];
    for (const [damage, problem] of damages) {
      const plan = await planPolicyChange(h.ctx, { plugin: "demo", state: "disabled" });
      const path = join(h.data, "plugin-plans", `${plan.token}.json`);
      const stored = JSON.parse(readFileSync(path, "utf8"));
      damage(stored);
      writeFileSync(path, JSON.stringify(stored));
      const before = snapshotTree(h.data);
      const refused = await refusal(() => applyPolicyPlan(h.ctx, plan.token));
      expect(refused).toMatchObject({ code: "stale_plan", exit: 3 });
      expect(refused.message).toContain(problem);
      const withoutPlan = Object.fromEntries(Object.entries(before).filter(([k]) => !k.startsWith("plugin-plans")));
      expect(snapshotTree(h.data)).toEqual(withoutPlan);
      expect(effectivePolicy(h.ctx, "demo").state).toBe("enabled");
    }
  });

  test("plans survive between processes and expire", async () => {
    const { h } = await trustedHome();
    const plan = await planPolicyChange(h.ctx, { plugin: "demo", state: "disabled" });
    clock += 16 * 60 * 1000;
    expect(await refusal(() => applyPolicyPlan(h.ctx, plan.token))).toMatchObject({ code: "stale_plan", exit: 3 });
    expect(effectivePolicy(h.ctx, "demo").state).toBe("enabled");
  });

  test("enabling an untrusted runtime does not settle: the policy is rolled back and last-good stays", async () => {
    const { h } = await trustedHome();
    await change(h, { plugin: "demo", state: "disabled" });
    const lastGood = readFileSync(join(h.data, "plugin-config.last-good.json"), "utf8");
    const primary = readFileSync(join(h.data, "plugin-config.json"), "utf8");
    await setC2Trusted(h.ctx, "demo", false);
    const plan = await planPolicyChange(h.ctx, { plugin: "demo", state: "enabled" });
    expect(plan.warnings).toEqual([{ code: "untrusted", message: expect.stringContaining("not trusted") }]);
    expect(plan).toMatchObject({ settles: false, trustBlock: "untrusted", missingServices: [] });
    const e = await refusal(() => applyPolicyPlan(h.ctx, plan.token));
    expect(e).toMatchObject({ code: "change_not_settled", exit: 3 });
    expect(e.message).toContain("not trusted");
    expect(readFileSync(join(h.data, "plugin-config.json"), "utf8")).toBe(primary);
    expect(readFileSync(join(h.data, "plugin-config.last-good.json"), "utf8")).toBe(lastGood);
  });

  test("enabling a runtime that needs re-trust (capabilities changed by an upgrade) does not settle either, until it is trusted again", async () => {
    const { h } = await trustedHome();
    await change(h, { plugin: "demo", state: "disabled" });
    const lastGood = readFileSync(join(h.data, "plugin-config.last-good.json"), "utf8");
    const primary = readFileSync(join(h.data, "plugin-config.json"), "utf8");
    // The upgrade adds a runtime argument: still trusted in the record, but what it runs changed.
    const spec = runtimeBundle("demo", "1.1.0");
    (spec["plugin.json"] as any).extensions["dev.codetwo"].runtime.args = ["plugin.js", "--v2"];
    expect((await h.install(h.bundle("demo", spec), { force: true })).status).not.toBe("unchanged");
    expect(trustStateOf(findInstalledC2(h.ctx, "demo")!.record)).toBe("needs-retrust");
    const plan = await planPolicyChange(h.ctx, { plugin: "demo", state: "enabled" });
    expect(plan).toMatchObject({ settles: false, trustBlock: "needs-retrust", missingServices: [] });
    expect(plan.warnings).toEqual([{ code: "trust_outdated", message: expect.stringContaining("needs re-trust") }]);
    const e = await refusal(() => applyPolicyPlan(h.ctx, plan.token));
    expect(e).toMatchObject({ code: "change_not_settled", exit: 3 });
    expect(e.message).toContain("needs re-trust");
    expect(readFileSync(join(h.data, "plugin-config.json"), "utf8")).toBe(primary);
    expect(readFileSync(join(h.data, "plugin-config.last-good.json"), "utf8")).toBe(lastGood);
    await setC2Trusted(h.ctx, "demo", true);
    const again = await planPolicyChange(h.ctx, { plugin: "demo", state: "enabled" });
    expect(again).toMatchObject({ settles: true, trustBlock: null, warnings: [] });
    expect(await applyPolicyPlan(h.ctx, again.token)).toMatchObject({ changed: true, effective: { state: "enabled" } });
  });

  test("a runtime settle hook that fails rolls the change back", async () => {
    const { h } = await trustedHome();
    const seen: string[] = [];
    c2StoreHooks.settle.push((_ctx, req) => {
      seen.push(req.effective.state);
      if (req.effective.config && (req.effective.config as { crash?: boolean }).crash)
        throw new Error("the runtime never became ready");
    });
    const e = await refusal(() => change(h, { plugin: "demo", state: "enabled", config: { crash: true } }));
    expect(e.message).toContain("never became ready");
    expect(seen).toEqual(["enabled", "enabled"]); // the change, then the rollback
    expect(effectivePolicy(h.ctx, "demo").config).toBeNull();
    await change(h, { plugin: "demo", state: "enabled", config: { crash: false } });
    expect(effectivePolicy(h.ctx, "demo").config).toEqual({ crash: false });
  });

  test("components are independent overrides; inherit removes one", async () => {
    const { h, id } = await trustedHome();
    await change(h, { plugin: "demo", state: "disabled", component: "ui:go" });
    expect(effectivePolicy(h.ctx, "demo")).toMatchObject({
      state: "enabled",
      components: { [`bundle:${id}:ui:go`]: "disabled" },
    });
    await change(h, { plugin: "demo", state: "inherit", component: `bundle:${id}:ui:go` });
    expect(effectivePolicy(h.ctx, "demo").components[`bundle:${id}:ui:go`]).toBe("enabled");
    expect(
      await refusal(() => planPolicyChange(h.ctx, { plugin: "demo", state: "disabled", component: "ui:nope" })),
    ).toMatchObject({ code: "unknown_component", exit: 2 });
  });

  test("refusals: unknown plugin, data-only bundle, user-only runtime at project scope", async () => {
    const { h } = await trustedHome({ scopes: ["user"] });
    await h.install(h.bundle("notes", skillsBundle("notes")));
    const before = snapshotTree(h.data);
    expect(await refusal(() => planPolicyChange(h.ctx, { plugin: "ghost", state: "disabled" }))).toMatchObject({
      code: "not_installed",
      exit: 1,
    });
    expect(await refusal(() => planPolicyChange(h.ctx, { plugin: "notes", state: "disabled" }))).toMatchObject({
      code: "no_runtime",
      exit: 3,
    });
    expect(
      await refusal(() => planPolicyChange(h.ctx, { plugin: "demo", state: "disabled", project: h.root })),
    ).toMatchObject({ code: "unsupported_scope", exit: 3 });
    expect(snapshotTree(h.data)).toEqual(before);
    // A user-only runtime seen from a project follows the user policy.
    await change(h, { plugin: "demo", state: "disabled" });
    expect(effectivePolicy(h.ctx, "demo", h.root)).toMatchObject({
      state: "disabled",
      stateSource: "user",
      projectScoped: false,
    });
  });
});

describe("project scope", () => {
  test("spellings that differ by `.`, `..` or a symlink resolve to one project policy", async () => {
    const { h, id } = await trustedHome();
    const real = join(h.root, "work", "proj");
    mkdirSync(join(real, "sub"), { recursive: true });
    symlinkSync(real, join(h.root, "alias"));
    await change(h, { plugin: "demo", state: "disabled", project: `${join(h.root, "alias")}/./sub/..` });
    const doc = JSON.parse(readFileSync(join(h.data, "plugin-config.json"), "utf8"));
    expect(Object.keys(doc.projects)).toEqual([real]);
    for (const spelling of [real, `${real}/.`, `${real}/sub/..`, join(h.root, "alias")]) {
      expect(effectivePolicy(h.ctx, "demo", spelling)).toMatchObject({
        state: "disabled",
        stateSource: "project",
        projectPath: real,
      });
      expect(policyCatalog(h.ctx, { project: spelling }).plugins[0].state).toBe("disabled");
    }
    expect(effectivePolicy(h.ctx, "demo")).toMatchObject({ state: "enabled" });
    expect(effectivePolicy(h.ctx, "demo", h.root)).toMatchObject({ state: "enabled", stateSource: "default" });
    // Project inherits the user's choice; an explicit project enable wins over a user disable.
    await change(h, { plugin: "demo", state: "disabled" });
    expect(effectivePolicy(h.ctx, "demo", h.root)).toMatchObject({ state: "disabled", stateSource: "user" });
    await change(h, { plugin: "demo", state: "enabled", project: real, config: { p: 1 } });
    expect(effectivePolicy(h.ctx, "demo", real)).toMatchObject({
      state: "enabled",
      stateSource: "project",
      config: { p: 1 },
    });
    await resetPolicy(h.ctx, "demo", { project: join(h.root, "alias") });
    expect(effectivePolicy(h.ctx, "demo", real)).toMatchObject({ state: "disabled", stateSource: "user" });
    expect(JSON.parse(readFileSync(join(h.data, "plugin-config.json"), "utf8")).projects).toEqual({});
    void id;
  });
});

describe("recovery", () => {
  test("a corrupt primary is kept as evidence and the last good copy is used until reset", async () => {
    const { h } = await trustedHome();
    await change(h, { plugin: "demo", state: "disabled" });
    writeFileSync(join(h.data, "plugin-config.json"), '{"schema_version":1,"revision":"x"');
    const cat = policyCatalog(h.ctx);
    expect(cat.recovery.kind).toBe("restored-last-good");
    expect(cat.plugins[0].effective.state).toBe("disabled");
    expect(effectivePolicy(h.ctx, "demo")).toMatchObject({ state: "disabled", recovery: "restored-last-good" });
    const before = snapshotTree(h.data);
    expect(await refusal(() => planPolicyChange(h.ctx, { plugin: "demo", state: "enabled" }))).toMatchObject({
      code: "policy_recovery",
      exit: 3,
    });
    expect(snapshotTree(h.data)).toEqual(before);
    const reset = await resetPolicy(h.ctx, "demo");
    expect(reset.recoveryBefore.kind).toBe("restored-last-good");
    expect(readFileSync(reset.evidence!, "utf8")).toBe('{"schema_version":1,"revision":"x"');
    expect(policyCatalog(h.ctx).recovery.kind).toBe("normal");
    expect(effectivePolicy(h.ctx, "demo").state).toBe("enabled");
  });

  test("with no usable copy the store is in safe mode (no runtime enabled) until reset", async () => {
    const { h } = await trustedHome();
    writeFileSync(join(h.data, "plugin-config.json"), "garbage");
    expect(effectivePolicy(h.ctx, "demo")).toMatchObject({
      state: "disabled",
      stateSource: "safe-mode",
      recovery: "safe-mode",
    });
    expect(policyCatalog(h.ctx).plugins[0].effectiveState).toEqual({ status: "disabled", reason: "safe-mode" });
    // Safe mode persists across processes (nothing was rewritten) …
    expect(readFileSync(join(h.data, "plugin-config.json"), "utf8")).toBe("garbage");
    expect(policyCatalog(h.ctx).recovery.kind).toBe("safe-mode");
    // … until reset writes a valid primary at revision 0.
    const reset = await resetPolicy(h.ctx, "demo");
    expect(reset).toMatchObject({ configRevision: 0, changed: true });
    expect(JSON.parse(readFileSync(join(h.data, "plugin-config.json"), "utf8"))).toEqual({
      schema_version: 1,
      revision: 0,
      user: {},
      projects: {},
    });
    expect(effectivePolicy(h.ctx, "demo")).toMatchObject({ state: "enabled", recovery: "normal" });
  });
});
