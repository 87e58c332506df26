/**
 * A store written by main at 34cadc3 (fixtures/stores/main-34cadc3, see fixtures/stores/README.md),
 * the last binary before one reader judged every state file: its registries, C2 records, cache,
 * locks and key are read and upgraded in place. Its state files that the new reader wants signed
 * (generations.json, runtime-verdicts.json) were unsigned then: they are foreign now, warned about
 * and ignored (rollback has no old generation to go to; session start checks tools again), and the
 * next change writes signed ones.
 */
import { describe, expect, test } from "bun:test";
import { chmodSync, cpSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { registryMac, stateKey } from "../../src/store/state-mac.ts";
import { fixturesDir } from "../helpers/cli.ts";
import { sandboxPerTest, type Sandbox } from "../helpers/sandbox.ts";

const box = sandboxPerTest();

/**
 * Copies the old store into the sandbox, puts the sandbox's root in place of `@ROOT@`, and signs
 * each registry again as that binary did (registry.json's documented layout: the MAC covers the
 * `plugins` text, which names absolute paths, so moving the files to another root changes it).
 */
function oldStore(s: Sandbox): void {
  const from = join(fixturesDir, "stores", "main-34cadc3");
  for (const part of ["home", "project", "src"]) cpSync(join(from, part), join(s.root, part), { recursive: true });
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
      d.isDirectory() ? walk(join(dir, d.name)) : [join(dir, d.name)],
    );
  for (const file of walk(s.root).filter((f) => f.endsWith(".json"))) {
    const text = readFileSync(file, "utf8");
    if (text.includes("@ROOT@")) writeFileSync(file, text.replaceAll("@ROOT@", s.root));
  }
  chmodSync(join(s.home, ".gjc", "state.key"), 0o600); // git keeps no 0600
  const key = stateKey(s.context(), false) as Uint8Array;
  for (const [scope, root] of [
    ["user", s.user],
    ["project", join(s.project, ".gjc", "gjc-plugins")],
  ] as const) {
    for (const name of ["registry.json", "registry.last-good.json"]) {
      const path = join(root, name);
      const text = readFileSync(path, "utf8");
      const head = `{"version":1,"scope":"${scope}","plugins":`;
      const tail = /,"mac":"hmac-sha256:[0-9a-f]{64}"\}\n$/.exec(text);
      expect({ head: text.startsWith(head), tail: tail !== null }).toEqual({ head: true, tail: true });
      const plugins = text.slice(head.length, tail!.index);
      writeFileSync(path, `${head}${plugins},"mac":"${registryMac(key, scope, plugins)}"}\n`);
    }
  }
}

const rows = async (s: Sandbox) =>
  (await s.gjc(["plugin", "list", "--json"]))
    .json()
    .bundles.map(
      (b: { family: string; name: string; scope: string; enabled: boolean; c2?: { id: string; trusted: boolean } }) => [
        b.family,
        b.name,
        b.scope,
        b.enabled,
        b.c2?.id ?? null,
        b.c2?.trusted ?? null,
      ],
    );

describe("a store written by main at 34cadc3", () => {
  test("is listed, verified and checked as it was: both GJC scopes, the trusted C2 runtime (trust kept), the locks and the cache", async () => {
    const s = box();
    oldStore(s);
    expect(await rows(s)).toEqual([
      ["gjc", "review-kit", "user", true, null, null],
      ["gjc", "review-kit", "project", false, null, null],
      ["c2", "hello-runtime", "user", true, "hello-runtime-3929ffce", true],
      ["c2", "notes-skills", "user", false, "notes-skills-117fb5c9", false],
    ]);
    expect((await s.gjc(["plugin", "inspect", "hello-runtime", "--json"])).json().bundle.c2.trustState).toBe("trusted");
    const verify = await s.gjc(["plugin", "verify", "--json"]);
    expect({ exit: verify.exitCode, ok: verify.json().bundles.map((b: { ok: boolean }) => b.ok) }).toEqual({
      exit: 0,
      ok: [true, true, true, true],
    });
    expect((await s.gjc(["plugin", "lock", "--project", "--check"])).exitCode).toBe(0);
    const cache = await s.gjc(["plugin", "cache", "verify", "--json"]);
    expect({ exit: cache.exitCode, checked: cache.json().checked }).toEqual({ exit: 0, checked: 3 });
    // (runtime-verdicts.json beside the registry is listed as an info finding, as that binary listed it.)
    const doctor = await s.gjc(["plugin", "doctor", "--json"]);
    expect(doctor.json().findings.filter((f: { severity: string }) => f.severity !== "info")).toEqual([]);
  });

  test("its unsigned history and verdicts are foreign: rollback has nothing old to go to, session start checks again; the next change writes signed ones", async () => {
    const s = box();
    oldStore(s);
    const history = await s.gjc(["plugin", "history", "--user", "--json"]);
    expect({ generations: history.json().generations, warned: history.stderr.includes("foreign_state") }).toEqual({
      generations: [],
      warned: true,
    });
    const session = await s.gjc(["plugin", "session", "--json"]);
    expect({ exit: session.exitCode, warned: session.stderr.includes("foreign_state") }).toEqual({
      exit: 0,
      warned: true,
    });
    expect((await s.gjc(["plugin", "session", "--json"])).stderr).not.toContain("foreign_state");

    expect((await s.gjc(["plugin", "enable", "notes-skills"])).exitCode).toBe(0);
    const after = await s.gjc(["plugin", "history", "--user", "--json"]);
    expect({ n: after.json().generations.length, warned: after.stderr.includes("foreign_state") }).toEqual({
      n: 1,
      warned: false,
    });
    expect(
      JSON.parse(readFileSync(join(s.home, ".gjc", "agent", "plugins-history", "generations.json"), "utf8")).mac,
    ).toMatch(/^hmac-sha256:[0-9a-f]{64}$/);
  });

  test("is changed in place: its C2 record is trusted again with the code bound, GJC bundles upgrade from their recorded source, uninstall removes", async () => {
    const s = box();
    oldStore(s);
    // (A C2 local source's identity includes its real path, so the moved fixture cannot be upgraded from src/.)
    const record = () =>
      JSON.parse(readFileSync(join(s.c2, "plugins", "hello-runtime-3929ffce", "installed-plugin.json"), "utf8"));
    expect(record().trusted_capabilities.code).toBeUndefined();
    expect((await s.gjc(["plugin", "untrust", "hello-runtime"])).exitCode).toBe(0);
    expect((await s.gjc(["plugin", "trust", "hello-runtime"])).exitCode).toBe(0);
    expect(record().trusted_capabilities.code).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect((await s.gjc(["plugin", "inspect", "hello-runtime", "--json"])).json().bundle.c2.trustState).toBe("trusted");

    writeFileSync(join(s.root, "src", "review-kit", "prompts", "system.md"), "Review twice.\n");
    expect((await s.gjc(["plugin", "upgrade", "review-kit", "--user"])).exitCode).toBe(0);
    expect((await s.gjc(["plugin", "uninstall", "review-kit", "--project"])).exitCode).toBe(0);
    expect((await s.gjc(["plugin", "uninstall", "notes-skills"])).exitCode).toBe(0);
    expect((await rows(s)).map((r: unknown[]) => r.slice(0, 3))).toEqual([
      ["gjc", "review-kit", "user"],
      ["c2", "hello-runtime", "user"],
    ]);
    expect((await s.gjc(["plugin", "verify"])).exitCode).toBe(0);
    expect(
      (await s.gjc(["plugin", "doctor", "--json"]))
        .json()
        .findings.filter((f: { severity: string }) => f.severity !== "info"),
    ).toEqual([]);
  });
});
