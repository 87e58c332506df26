/** Grants in plugin sets: written by lock, compared by lock --check, applied by sync only as far as the user confirms. */
import { describe, expect, test } from "bun:test";
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sandboxPerTest, type Sandbox } from "../helpers/sandbox.ts";
import { snapshotTree } from "../helpers/tmp.ts";
import { writeC2ProcessBundle, writeGjcServerBundle } from "./grants-fixture.ts";

const box = sandboxPerTest("gjc-grants-sets-");
const lockOf = (s: Sandbox) => join(s.project, ".gjc", "plugins.lock.json");
const readLock = (s: Sandbox) => JSON.parse(readFileSync(lockOf(s), "utf8"));
const errorCode = (stderr: string) => JSON.parse(stderr.trim().split("\n").at(-1)!).error.code;

/** Machine A: a project bundle with grants, locked. */
async function teamProject(): Promise<Sandbox> {
  const a = box();
  writeGjcServerBundle(a, "project/bundles/notes");
  expect((await a.gjc(["plugin", "install", "./bundles/notes", "--project"])).exitCode).toBe(0);
  mkdirSync(join(a.project, "docs"));
  expect((await a.gjc(["plugin", "allow", "notes", "--read", "./docs", "--net", "example.org:443"])).exitCode).toBe(0);
  expect((await a.gjc(["plugin", "allow", "notes", "--server", "notes", "--project", "read"])).exitCode).toBe(0);
  // A grant outside the project is this machine's own: a project lock cannot carry it.
  expect((await a.gjc(["plugin", "allow", "notes", "--write", a.tmp])).exitCode).toBe(0);
  expect((await a.gjc(["plugin", "lock", "--project"])).exitCode).toBe(0);
  return a;
}

function checkout(a: Sandbox): Sandbox {
  const b = box();
  mkdirSync(join(b.project, ".gjc"), { recursive: true });
  cpSync(lockOf(a), lockOf(b));
  cpSync(join(a.project, "bundles"), join(b.project, "bundles"), { recursive: true });
  mkdirSync(join(b.project, "docs"));
  return b;
}

describe("grants in a project lock", () => {
  test("lock writes project-relative grants and leaves out what lies outside the project", async () => {
    const a = await teamProject();
    const entry = readLock(a).bundles.find((e: { name: string }) => e.name === "notes");
    expect(entry.grants).toEqual({
      bundle: { read: ["./docs"], net: ["example.org:443"] },
      processes: { "server:notes": { project: "read" } },
    });
    expect((await a.gjc(["plugin", "lock", "--project", "--check", "--json"])).exitCode).toBe(0);
    await a.gjc(["plugin", "allow", "notes", "--net", "other.example"]);
    const check = await a.gjc(["plugin", "lock", "--project", "--check", "--json"]);
    expect(check.exitCode).not.toBe(0);
    expect(check.json().differences).toEqual([{ name: "notes", family: "gjc", kind: "changed", fields: ["grants"] }]);
  });

  test("sync on a fresh checkout installs the set but asks before it grants; --grant confirms; the result round-trips", async () => {
    const a = await teamProject();
    const b = checkout(a);
    const first = await b.gjc(["plugin", "sync", "--project", "--json"]);
    expect(first.exitCode).toBe(3);
    const doc = JSON.parse(first.stdout);
    expect(doc.needsGrants).toEqual(["notes"]);
    expect(doc.items.find((i: { name: string }) => i.name === "notes")).toMatchObject({
      action: "install",
      grants: "needs-confirmation",
    });
    expect((await b.gjc(["plugin", "permissions", "notes", "--json"])).json().grants.net).toEqual([]);
    expect((await b.gjc(["plugin", "sync", "--project"])).stdout).toContain("sync again with --grant notes");

    const unknown = await b.gjc(["plugin", "sync", "--project", "--grant", "ghost", "--json"]);
    expect(unknown.exitCode).toBe(2);
    expect(errorCode(unknown.stderr)).toBe("invalid_option_value");

    const dry = await b.gjc(["plugin", "sync", "--project", "--grant", "notes", "--dry-run", "--json"]);
    expect(JSON.parse(dry.stdout).items.find((i: { name: string }) => i.name === "notes").grants).toBe("applied");
    expect((await b.gjc(["plugin", "permissions", "notes", "--json"])).json().grants.net).toEqual([]);

    const confirmed = await b.gjc(["plugin", "sync", "--project", "--grant", "notes", "--json"]);
    expect(confirmed.exitCode).toBe(0);
    const p = (await b.gjc(["plugin", "permissions", "notes", "--json"])).json();
    expect(p.grants).toEqual({
      read: [join(b.project, "docs")],
      write: [],
      net: [{ host: "example.org", port: 443 }],
      project: null,
    });
    expect(p.processes[0].grants.project).toBe("read");
    expect((await b.gjc(["plugin", "lock", "--project", "--check"])).exitCode).toBe(0);
    const again = await b.gjc(["plugin", "sync", "--project", "--json"]);
    expect(again.exitCode).toBe(0);
    expect(JSON.parse(again.stdout).needsGrants).toEqual([]);
  });

  test("sync lowers grants to the lock's without asking", async () => {
    const a = await teamProject();
    await a.gjc(["plugin", "allow", "notes", "--net", "extra.example"]);
    const r = await a.gjc(["plugin", "sync", "--project", "--json"]);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout).items.find((i: { name: string }) => i.name === "notes").grants).toBe("applied");
    const p = (await a.gjc(["plugin", "permissions", "notes", "--json"])).json();
    expect(p.grants.net).toEqual([{ host: "example.org", port: 443 }]);
    // What the lock could not carry is taken back too: sync makes the scope exactly its lock.
    expect(p.grants.write).toEqual([]);
  });

  const hostile: [string, object][] = [
    ["an absolute path", { bundle: { read: ["/home"] } }],
    ["a path that climbs out", { bundle: { write: ["./../.."] } }],
    ["a home path", { processes: { "server:notes": { read: ["~/.ssh"] } } }],
    ["junk net", { bundle: { net: ["not a host"] } }],
  ];
  for (const [label, grants] of hostile) {
    test(`a project lock with ${label} is refused as a whole (invalid_lock), nothing changed`, async () => {
      const a = await teamProject();
      const b = checkout(a);
      const lock = readLock(b);
      lock.bundles[0].grants = grants;
      writeFileSync(lockOf(b), JSON.stringify(lock, null, 2));
      const before = snapshotTree(b.root);
      const r = await b.gjc(["plugin", "sync", "--project", "--grant", "notes", "--json"]);
      expect(r.exitCode).toBe(1);
      expect(errorCode(r.stderr)).toBe("invalid_lock");
      expect(snapshotTree(b.root)).toEqual(before);
    });
  }

  test("a project lock never grants a C2 bundle (user-wide)", async () => {
    const a = await teamProject();
    const lock = readLock(a);
    lock.bundles.push({ ...lock.bundles[0], name: "kit", family: "c2", grants: { bundle: { net: ["example.org"] } } });
    writeFileSync(lockOf(a), JSON.stringify(lock, null, 2));
    const r = await a.gjc(["plugin", "sync", "--project", "--json"]);
    expect(errorCode(r.stderr)).toBe("invalid_lock");
    expect(r.stderr).toContain("C2 bundles are user-wide");
  });
});

describe("grants in a user lock", () => {
  test("paths under the home are written ~/…; C2 grants travel too; sync on a fresh home asks, then applies", async () => {
    const a = box();
    expect((await a.gjc(["plugin", "install", writeGjcServerBundle(a), "--user"])).exitCode).toBe(0);
    expect((await a.gjc(["plugin", "install", writeC2ProcessBundle(a), "--user"])).exitCode).toBe(0);
    mkdirSync(join(a.home, "notes"));
    await a.gjc(["plugin", "allow", "notes", "--write", "~/notes"]);
    await a.gjc(["plugin", "allow", "kit", "--lsp", "ls", "--net", "[::1]:9"]);
    expect((await a.gjc(["plugin", "lock", "--user"])).exitCode).toBe(0);
    const lock = JSON.parse(readFileSync(join(a.user, "..", "plugins.lock.json"), "utf8"));
    const by = (n: string) => lock.bundles.find((e: { name: string }) => e.name === n);
    expect(by("notes").grants).toEqual({ bundle: { write: ["~/notes"] } });
    expect(by("kit").grants).toEqual({ processes: { "lsp:ls": { net: ["[::1]:9"] } } });

    // The same lock, grants taken back here: sync asks for both before it raises them again.
    await a.gjc(["plugin", "allow", "notes", "--reset"]);
    await a.gjc(["plugin", "allow", "kit", "--reset"]);
    const asked = await a.gjc(["plugin", "sync", "--user", "--json"]);
    expect(asked.exitCode).toBe(3);
    expect(JSON.parse(asked.stdout).needsGrants.sort()).toEqual(["kit", "notes"]);
    expect((await a.gjc(["plugin", "sync", "--user", "--grant", "kit,notes"])).exitCode).toBe(0);
    expect((await a.gjc(["plugin", "permissions", "notes", "--json"])).json().grants.write).toEqual([
      join(a.home, "notes"),
    ]);
    expect(
      (await a.gjc(["plugin", "permissions", "kit", "--json"]))
        .json()
        .processes.find((p: { process: { kind: string } }) => p.process.kind === "lsp").grants.net,
    ).toEqual([{ host: "::1", port: 9 }]);
  });
});
