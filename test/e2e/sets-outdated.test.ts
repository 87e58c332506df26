/**
 * gjc plugin outdated (git branch head via ls-remote, highest semver tag, archives and
 * directories not checkable; exit 0 unless --exit-code) and gjc plugin upgrade --all (one
 * outcome per bundle, a failure does not stop the others, the lock follows).
 */
import { afterEach, describe, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, renameSync } from "node:fs";
import { join } from "node:path";
import { writeBundle } from "./gjc-install-fixture.ts";
import { makeSetWorld, registry, type SetWorld } from "./sets-fixture.ts";

let w: SetWorld;
afterEach(() => w?.cleanup());

async function setup() {
  w = makeSetWorld();
  const branchy = w.repo("branchy");
  const taggy = w.repo("taggy");
  taggy.tag("v1.0.0");
  const gone = w.repo("gone");
  writeBundle(join(w.root, "tarsrc", "tarry"), "tarry");
  mkdirSync(join(w.project, "vendor"), { recursive: true });
  execFileSync("tar", ["czf", join(w.project, "vendor", "tarry.tgz"), "-C", join(w.root, "tarsrc"), "tarry"]);
  for (const src of [`${branchy.url}#main`, `${taggy.url}#v1.0.0`, gone.url, "./vendor/tarry.tgz"])
    expect((await w.gjc(["plugin", "install", src, "--project"])).exitCode).toBe(0);
  expect((await w.gjc(["plugin", "lock", "--project"])).exitCode).toBe(0);
  return { branchy, taggy, gone };
}

describe("outdated and upgrade --all", () => {
  test("outdated: branch head, highest semver tag, not checkable, unreachable; exit 0 unless --exit-code", async () => {
    const { branchy, taggy, gone } = await setup();
    let r = await w.gjc(["plugin", "outdated", "--project", "--json", "--exit-code"]);
    expect(r.exitCode).toBe(0);
    expect(r.json().rows.map((x: { name: string; status: string }) => `${x.name}:${x.status}`)).toEqual([
      "branchy:current",
      "gone:current",
      "taggy:current",
      "tarry:not-checkable",
    ]);

    const moved = branchy.commit({ "tools/branchy_tool.ts": "export default () => 2;\n" });
    taggy.commit({ "README.md": "v1.2" });
    taggy.tag("v1.2.0");
    taggy.commit({ "README.md": "v1.10" });
    taggy.tag("v1.10.0");
    taggy.tag("not-a-version");
    renameSync(gone.dir, `${gone.dir}.moved`);
    r = await w.gjc(["plugin", "outdated", "--project", "--json"]);
    expect(r.exitCode).toBe(0); // updates are not an error
    const rows = Object.fromEntries(r.json().rows.map((x: { name: string }) => [x.name, x]));
    expect(rows.branchy).toMatchObject({ status: "outdated", installed: { ref: "main" }, latest: { commit: moved } });
    expect(rows.taggy).toMatchObject({
      status: "outdated",
      installed: { ref: "v1.0.0" },
      latest: { tag: "v1.10.0", commit: taggy.head() },
    });
    // Why a row is not compared, as {code, message}: the refusal's error code, or not_checkable.
    expect(rows.gone).toMatchObject({
      status: "unreachable",
      reasons: [{ code: "source_unreachable", message: expect.any(String) }],
    });
    expect(rows.tarry).toMatchObject({
      status: "not-checkable",
      reasons: [{ code: "not_checkable", message: "an archive has no newer version to ask for" }],
    });
    expect([rows.branchy.reasons, rows.taggy.reasons]).toEqual([[], []]);
    expect(r.json().outdated).toBe(2);
    const ci = await w.gjc(["plugin", "outdated", "--project", "--exit-code"]);
    expect(ci.exitCode).toBe(1);
    expect(ci.stdout).toContain("2 bundles can be upgraded");
  });

  test("upgrade --all: one outcome per bundle (upgraded, unchanged, failed with the reason); the lock follows; --dry-run changes nothing", async () => {
    const { branchy, gone } = await setup();
    branchy.commit({ "tools/branchy_tool.ts": "export default () => 2;\n" }).toString();
    renameSync(gone.dir, `${gone.dir}.moved`);
    const lockBefore = readFileSync(w.lock, "utf8");
    const dry = await w.gjc(["plugin", "upgrade", "--all", "--project", "--dry-run", "--json"]);
    expect(dry.json().outcomes.map((o: { name: string; outcome: string }) => `${o.name}:${o.outcome}`)).toEqual([
      "branchy:upgraded",
      "gone:failed",
      "taggy:unchanged",
      "tarry:unchanged",
    ]);
    expect(readFileSync(w.lock, "utf8")).toBe(lockBefore);

    const r = await w.gjc(["plugin", "upgrade", "--all", "--project", "--json"]);
    expect(r.exitCode).toBe(1); // one failed
    const out = r.json();
    expect(out.outcomes.find((o: { name: string }) => o.name === "gone")).toMatchObject({
      outcome: "failed",
      reasons: [{ code: "source_unreachable", message: expect.any(String) }],
    });
    expect(
      out.outcomes
        .filter((o: { outcome: string }) => o.outcome !== "failed")
        .map((o: { reasons: unknown[] }) => o.reasons),
    ).toEqual([[], [], []]);
    expect(out.locksUpdated).toEqual([w.lock]);
    const lock = JSON.parse(readFileSync(w.lock, "utf8"));
    expect(lock.bundles.find((e: { name: string }) => e.name === "branchy").pin.commit).toBe(branchy.head());
    expect(registry(w.projectScope).plugins.find((p) => p.name === "branchy")!.source.sha).toBe(branchy.head());
    expect((await w.gjc(["plugin", "lock", "--project", "--check"])).exitCode).toBe(0);
    const human = await w.gjc(["plugin", "upgrade", "--all", "--project"]);
    expect(human.stdout).toContain("0 upgraded, 3 unchanged, 1 failed.");
    const both = await w.gjc(["plugin", "upgrade", "branchy", "--all", "--project"]);
    expect(both.exitCode).toBe(2);
  });
});
