import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fnv1a32Hex } from "../../../src/bundle/hash.ts";
import {
  inspectC2,
  listC2,
  setC2Enabled,
  setC2Trusted,
  uninstallC2,
  verifyC2,
} from "../../../src/c2store/lifecycle.ts";
import { findInstalledC2, listInstalledC2 } from "../../../src/c2store/records.ts";
import { effectivePolicy } from "../../../src/c2store/policy.ts";
import { applyPolicyPlan, planPolicyChange } from "../../../src/c2store/policy-plane.ts";
import { snapshotTree } from "../../helpers/tmp.ts";
import { c2Home, refusal, runtimeBundle, skillsBundle, type C2Home } from "./_bundles.ts";

const homes: C2Home[] = [];
afterEach(() => homes.splice(0).forEach((h) => h.cleanup()));
const home = () => {
  const h = c2Home();
  homes.push(h);
  return h;
};

describe("C2 install from a local directory", () => {
  test("stores the verbatim collected bundle with modes, a closed record and a data dir", async () => {
    const h = home();
    const dir = h.bundle(
      "src/demo",
      runtimeBundle("demo", "1.0.0", {
        extra: {
          "node_modules/x.js": "skipped",
          ".hidden": "kept",
          "all.sh": { content: "x", mode: 0o777 },
          "private.txt": { content: "y", mode: 0o600 },
        },
      }),
    );
    symlinkSync("/etc/passwd", join(dir, "link-not-copied"));
    const r = await h.install(dir);
    expect(r.status).toBe("installed");
    const real = statSync(dir) && dir;
    expect(r.c2.id).toBe(`demo-${fnv1a32Hex(`local/source-${fnv1a32Hex(real)}:demo`)}`);
    const bundle = join(h.data, "plugins", r.c2.id, "bundle");
    expect(readFileSync(join(bundle, "plugin.js"), "utf8")).toBe("process.exit(0);\n");
    expect(statSync(join(bundle, "bin/tool")).mode & 0o777).toBe(0o755);
    expect(statSync(join(bundle, "all.sh")).mode & 0o777).toBe(0o755); // group/other write never installed (issue #12)
    expect(statSync(join(bundle, "private.txt")).mode & 0o777).toBe(0o600);
    expect(existsSync(join(bundle, ".hidden"))).toBe(true);
    expect(existsSync(join(bundle, "node_modules"))).toBe(false);
    expect(existsSync(join(bundle, "link-not-copied"))).toBe(false);
    expect(existsSync(join(h.data, "plugins", ".data", r.c2.id))).toBe(true);
    const record = JSON.parse(readFileSync(join(h.data, "plugins", r.c2.id, "installed-plugin.json"), "utf8"));
    expect(record).toMatchObject({
      schema_version: 1,
      id: r.c2.id,
      name: "demo",
      version: "1.0.0",
      enabled: true,
      trusted: false,
      scope: "user",
      standard_version: "1.2.0",
    });
    expect(record.files.map((f: { path: string }) => f.path)).toEqual([
      ".hidden",
      "all.sh",
      "bin/tool",
      "plugin.js",
      "plugin.json",
      "private.txt",
    ]);
    // Nothing transient is left beside the bundle.
    expect(Object.keys(snapshotTree(join(h.data, "plugins"))).filter((k) => /\.(stage|backup|trash)-/.test(k))).toEqual(
      [],
    );
    expect(existsSync(join(h.data, ".fetch"))).toBe(false);
    expect(existsSync(join(h.data, "c2.lock"))).toBe(false);
  });

  test("a runtime bundle starts enabled and untrusted with the runtime.requires_trust notice", async () => {
    const h = home();
    const r = await h.install(h.bundle("demo", runtimeBundle("demo")));
    expect(r.enabled).toBe(true);
    expect(r.c2.trusted).toBe(false);
    expect(r.warnings.map((n) => n.code)).toEqual(["runtime.requires_trust"]);
    const skills = await h.install(h.bundle("skills", skillsBundle("notes")));
    expect(skills.warnings).toEqual([]);
    const installed = findInstalledC2(h.ctx, "demo")!;
    expect(installed).toMatchObject({
      id: r.c2.id,
      name: "demo",
      enabled: true,
      trusted: false,
      bundleDir: join(h.data, "plugins", r.c2.id, "bundle"),
      dataDir: join(h.data, "plugins", ".data", r.c2.id),
    });
    expect(installed.manifest.codetwo.commands[0].id).toBe("demo.run");
    expect(listInstalledC2(h.ctx).map((i) => i.name)).toEqual(["demo", "notes"]);
    expect(findInstalledC2(h.ctx, `bundle:${r.c2.id}`)?.id).toBe(r.c2.id);
  });

  test("identical reinstall is a no-op; different content needs --force; force keeps id, enabled and trusted", async () => {
    const h = home();
    const dir = h.bundle("demo", runtimeBundle("demo", "1.0.0"));
    const first = await h.install(dir);
    await setC2Enabled(h.ctx, "demo", false);
    await setC2Trusted(h.ctx, "demo", true);
    expect((await h.install(dir)).status).toBe("unchanged");

    h.bundle("demo", runtimeBundle("demo", "2.0.0"));
    const before = snapshotTree(h.data);
    const refused = await refusal(() => h.install(dir));
    expect(refused).toMatchObject({ code: "already_installed", exit: 1 });
    expect(snapshotTree(h.data)).toEqual(before);

    const dry = await h.install(dir, { force: true, dryRun: true });
    expect(dry.status).toBe("would-update");
    expect(snapshotTree(h.data)).toEqual(before);

    const updated = await h.install(dir, { force: true });
    expect(updated).toMatchObject({
      status: "updated",
      version: "2.0.0",
      previousVersion: "1.0.0",
      enabled: false,
      c2: { id: first.c2.id, trusted: true },
    });
    const record = findInstalledC2(h.ctx, first.c2.id)!;
    expect(record).toMatchObject({ version: "2.0.0", enabled: false, trusted: true });
    expect(record.installedAt).toBe(findInstalledC2(h.ctx, first.c2.id)!.installedAt);
  });

  test("invalid bundles are refused and leave the data dir exactly as it was (even absent)", async () => {
    const h = home();
    const bad = h.bundle("bad", {
      "plugin.json": {
        $schema: "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json",
        name: "bad",
        version: "1.0",
        extensions: { "dev.codetwo": { standardVersion: "1.2.0" } },
      },
    });
    const r1 = await refusal(() => h.install(bad));
    expect(r1.exit).toBe(1);
    expect(existsSync(h.data)).toBe(false);

    await h.install(h.bundle("ok", skillsBundle("ok")));
    const before = snapshotTree(h.data);
    const linked = h.bundle("linked", runtimeBundle("linked"));
    const outside = h.bundle("outside", { tool: { content: "#!/bin/sh\n", mode: 0o755 } });
    symlinkSync(outside, join(linked, "linkdir"));
    const manifest = JSON.parse(readFileSync(join(linked, "plugin.json"), "utf8"));
    manifest.extensions["dev.codetwo"].runtime.command = "linkdir/tool";
    writeFileSync(join(linked, "plugin.json"), JSON.stringify(manifest));
    const r2 = await refusal(() => h.install(linked));
    expect(r2.code).toBe("unsafe_path");
    expect(r2.exit).toBe(3);
    const nested = h.bundle("mono", { "packages/tool/plugin.json": skillsBundle("tool")["plugin.json"] as object });
    const r3 = await refusal(() => h.install(nested));
    expect(r3.exit).toBeGreaterThan(0);
    expect(snapshotTree(h.data)).toEqual(before);
  });

  test("uninstall forgets policy and removes bundle and data; --keep-data keeps the data", async () => {
    const h = home();
    const a = await h.install(h.bundle("a", runtimeBundle("alpha")));
    const b = await h.install(h.bundle("b", runtimeBundle("beta")));
    await setC2Trusted(h.ctx, "alpha", true);
    const plan = await planPolicyChange(h.ctx, { plugin: "alpha", state: "disabled" });
    await applyPolicyPlan(h.ctx, plan.token);
    writeFileSync(join(h.data, "plugins", ".data", a.c2.id, "state.db"), "x");
    const gone = await uninstallC2(h.ctx, "alpha");
    expect(gone).toMatchObject({ status: "uninstalled", c2: { id: a.c2.id, policyForgotten: true, dataKept: false } });
    expect(existsSync(join(h.data, "plugins", a.c2.id))).toBe(false);
    expect(existsSync(join(h.data, "plugins", ".data", a.c2.id))).toBe(false);
    const policy = JSON.parse(readFileSync(join(h.data, "plugin-config.json"), "utf8"));
    expect(policy.user).toEqual({});
    expect(JSON.parse(readFileSync(join(h.data, "plugin-config.last-good.json"), "utf8")).user).toEqual({});

    writeFileSync(join(h.data, "plugins", ".data", b.c2.id, "keep.me"), "y");
    await uninstallC2(h.ctx, b.c2.id, { keepData: true });
    expect(readFileSync(join(h.data, "plugins", ".data", b.c2.id, "keep.me"), "utf8")).toBe("y");
    expect(listC2(h.ctx).plugins).toEqual([]);

    const before = snapshotTree(h.data);
    expect(await refusal(() => uninstallC2(h.ctx, "alpha"))).toMatchObject({ code: "not_installed", exit: 1 });
    expect(snapshotTree(h.data)).toEqual(before);

    // Reinstall starts with fresh policy.
    const again = await h.install(join(h.root, "a"));
    expect(again.c2.id).toBe(a.c2.id);
    expect(effectivePolicy(h.ctx, "alpha")).toMatchObject({ state: "enabled", stateSource: "default", trusted: false });
  });

  test("trust and enable are independent decisions", async () => {
    const h = home();
    await h.install(h.bundle("demo", runtimeBundle("demo")));
    await setC2Trusted(h.ctx, "demo", true);
    expect(findInstalledC2(h.ctx, "demo")).toMatchObject({ enabled: true, trusted: true });
    await setC2Enabled(h.ctx, "demo", false);
    expect(findInstalledC2(h.ctx, "demo")).toMatchObject({ enabled: false, trusted: true });
    expect(effectivePolicy(h.ctx, "demo")).toMatchObject({
      state: "disabled",
      stateSource: "bundle-disabled",
      trusted: true,
    });
    await setC2Trusted(h.ctx, "demo", false);
    await setC2Enabled(h.ctx, "demo", true);
    expect(findInstalledC2(h.ctx, "demo")).toMatchObject({ enabled: true, trusted: false });
    const flip = await setC2Enabled(h.ctx, "demo", true);
    expect(flip.changed).toBe(false);
    const view = inspectC2(h.ctx, "demo");
    expect(view).toMatchObject({ enabled: true, c2: { trusted: false, hasRuntime: true } });
    expect(view.c2.components.find((c) => c.kind === "ui")?.effectiveStatus).toBe("requires-trust");
    await setC2Trusted(h.ctx, "demo", true);
    expect(inspectC2(h.ctx, "demo").c2.components.find((c) => c.kind === "ui")?.effectiveStatus).toBe("ready");
    expect(inspectC2(h.ctx, "demo").c2.contributions).toMatchObject({ runtime: 1, runtimeCommands: 1, ui: 1 });
  });

  test("verify quarantines drift and a clean verify lifts it", async () => {
    const h = home();
    const r = await h.install(h.bundle("demo", runtimeBundle("demo")));
    expect((await verifyC2(h.ctx)).ok).toBe(true);
    const js = join(h.data, "plugins", r.c2.id, "bundle", "plugin.js");
    const original = readFileSync(js);
    writeFileSync(js, "evil()");
    writeFileSync(join(h.data, "plugins", r.c2.id, "bundle", "extra.txt"), "x");
    const drift = await verifyC2(h.ctx, "demo");
    expect(drift.ok).toBe(false);
    expect(drift.bundles[0].problems.map(({ kind, path }) => ({ kind, path }))).toEqual([
      { kind: "changed", path: "plugin.js" },
      { kind: "extra", path: "extra.txt" },
    ]);
    expect(findInstalledC2(h.ctx, "demo")!.quarantine?.reason).toBe("runtime_mismatch");
    writeFileSync(js, original);
    await Bun.write(join(h.data, "plugins", r.c2.id, "bundle", "extra.txt"), "");
    const { rmSync } = await import("node:fs");
    rmSync(join(h.data, "plugins", r.c2.id, "bundle", "extra.txt"));
    expect((await verifyC2(h.ctx, "demo")).ok).toBe(true);
    expect(findInstalledC2(h.ctx, "demo")!.quarantine).toBeNull();
  });

  test("a command killed between the two commit renames leaves the old bundle, restored next time", async () => {
    const h = home();
    const r = await h.install(h.bundle("demo", skillsBundle("demo")));
    const home1 = join(h.data, "plugins", r.c2.id);
    const before = snapshotTree(home1);
    // What a kill -9 right after "rename bundle → backup" looks like, plus an orphan stage.
    renameSync(home1, join(h.data, "plugins", `.${r.c2.id}.backup-0b1c2d3e-aaaa-bbbb-cccc-123456789abc`));
    mkdirSync(join(h.data, "plugins", `.${r.c2.id}.stage-0b1c2d3e-aaaa-bbbb-cccc-123456789abd`, "bundle"), {
      recursive: true,
    });
    writeFileSync(join(h.data, ".plugin-config.json.tmp-4242-abc123"), "half");
    // A reader puts the backup back at once (no lock is held, so no install is mid-commit) …
    expect(listInstalledC2(h.ctx).map((i) => i.id)).toEqual([r.c2.id]);
    expect(snapshotTree(home1)).toEqual(before);
    // … and the next mutating command removes the rest.
    expect((await verifyC2(h.ctx)).bundles.map((b) => b.c2!.id)).toEqual([r.c2.id]);
    expect(snapshotTree(home1)).toEqual(before);
    expect(Object.keys(snapshotTree(join(h.data, "plugins"))).some((k) => k.includes(".stage-"))).toBe(false);
    expect(existsSync(join(h.data, ".plugin-config.json.tmp-4242-abc123"))).toBe(false);
  });
});
