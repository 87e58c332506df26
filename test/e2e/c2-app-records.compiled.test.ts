/**
 * A C2 data directory shared with the C2 app: a bundle the app installed (its own record,
 * installed-plugin.json schema_version 3, built from c2-notes §4.1) is listed, inspected and shown
 * in the session document and the policy catalog as foreign, read-only; every command that would
 * change it is refused with foreign_record, and doctor --fix leaves it, and the app's staging
 * directory, exactly as they were. Run against the compiled binary.
 */
import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { compiledBinary } from "../helpers/binary.ts";
import { sandboxPerTest } from "../helpers/sandbox.ts";
import { snapshotTree, writeTree } from "../helpers/tmp.ts";
import { skillsBundle } from "../unit/c2store/_bundles.ts";
import { spawnHost } from "./c2-host-client.ts";
import { c2HomesPerTest } from "./c2-runtime-setup.ts";

const box = sandboxPerTest("gjc-c2app-");
const c2HomesBox = c2HomesPerTest();

const errorCode = (r: { stderr: string }) =>
  JSON.parse(r.stderr.split("\n").find((l) => l.startsWith('{"error"'))!).error.code;

const COUNTS = {
  skills: 1,
  subagents: 0,
  mcp_servers: 0,
  scaffolds: 0,
  commands: 0,
  runtime_commands: 0,
  hooks: 0,
  lsp_servers: 0,
  monitors: 0,
  apps: 0,
  ui: 0,
  connectors: 0,
  scenes: 0,
  pipelines: 0,
  runtime: 0,
};

/** The reference app's installed record (c2-notes §4.1/§4.2: closed, snake_case, schema_version 3). */
function appRecord(id: string, name: string, over: Record<string, unknown> = {}) {
  return {
    schema_version: 3,
    id,
    name,
    version: "1.0.0",
    description: "Greets the user.",
    author: null,
    source: "GitHub · IchenDEV/codeTwo",
    repository: "https://github.com/IchenDEV/codeTwo",
    standard_version: "1.2.0",
    enabled: true,
    trusted: true,
    scope: "user",
    counts: COUNTS,
    components: [
      {
        kind: "skill",
        id: `${id}:skill:skills-hi-skill-md-1b2c3d4e`,
        name: "hi",
        description: "says hi",
        path: "skills/hi/SKILL.md",
      },
    ],
    scaffolds: [],
    extension_components: [],
    runtime_commands: [],
    ui_contributions: [],
    connector_contributions: [],
    lsp_servers: [],
    diagnostics: [],
    ...over,
  };
}

function writeAppBundle(c2: string, id: string, name: string) {
  const bundle = skillsBundle(name) as Record<string, unknown>;
  const tree: Record<string, unknown> = {
    [`plugins/${id}/installed-plugin.json`]: JSON.stringify(appRecord(id, name), null, 2),
  };
  for (const [rel, content] of Object.entries(bundle)) tree[`plugins/${id}/bundle/${rel}`] = content;
  tree[`plugins/.data/${id}/state.json`] = "{}";
  writeTree(c2, tree as never);
}

test("a bundle the C2 app installed is foreign: shown read-only, never changed or deleted — compiled binary", async () => {
  const binary = await compiledBinary();
  const s = box();
  const run = (...args: string[]) => s.gjc(args, { binary });
  const id = "hello-app-83dfd86f";
  writeAppBundle(s.c2, id, "hello-app");
  // The app's install in progress (its staging directory has the same shape as gjc's).
  writeTree(s.c2, {
    [`plugins/.other-app-0badf00d.stage-3f1c2a9e-0000-4000-8000-000000000001/installed-plugin.json`]: JSON.stringify(
      appRecord("other-app-0badf00d", "other-app"),
    ),
  });
  // A gjc-installed bundle beside it keeps working as before.
  expect((await run("plugin", "install", s.write("src/notes", skillsBundle("notes")), "--json")).exitCode).toBe(0);

  const list = await run("plugin", "list", "--json");
  expect(list.exitCode).toBe(0);
  const doc = list.json();
  expect(doc.ok).toBe(true);
  expect(doc.problems).toEqual([]);
  expect(doc.bundles.map((b: { name: string }) => b.name)).toEqual(["notes"]);
  expect(doc.foreign).toEqual([
    {
      family: "c2",
      scope: "user",
      id,
      writer: "c2-app",
      schemaVersion: 3,
      path: join(s.c2, "plugins", id),
      problem: expect.any(String),
      name: "hello-app",
      version: "1.0.0",
      description: "Greets the user.",
      source: "GitHub · IchenDEV/codeTwo",
      repository: "https://github.com/IchenDEV/codeTwo",
      enabled: true,
      trusted: true,
    },
  ]);
  const human = await run("plugin", "list");
  expect(human.exitCode).toBe(0);
  expect(human.stdout).toContain("hello-app 1.0.0  enabled, trusted in the C2 app");

  const inspect = await run("plugin", "inspect", "hello-app", "--json");
  expect(inspect.exitCode).toBe(0);
  expect(inspect.json()).toMatchObject({
    family: "c2",
    foreign: { id, writer: "c2-app", name: "hello-app", trusted: true },
  });

  const session = await run("plugin", "session", "--family", "c2", "--json");
  expect(session.exitCode).toBe(0);
  const bundles = session.json().bundles;
  expect(bundles.find((b: { id: string }) => b.id === id)).toMatchObject({
    name: "hello-app",
    status: "foreign",
    trusted: true,
    reasons: [{ code: "foreign_record" }],
  });
  // Its skill is not handed out: gjc holds no hashes of the app's files.
  expect(session.json().skills.every((k: { plugin: string }) => k.plugin !== id)).toBe(true);

  const catalog = await run("plugin", "policy", "catalog", "--json");
  expect(catalog.exitCode).toBe(0);
  expect(catalog.json().foreign).toEqual([
    { id, name: "hello-app", version: "1.0.0", writer: "c2-app", enabled: true, trusted: true },
  ]);

  const before = snapshotTree(s.c2);
  for (const args of [
    ["plugin", "uninstall", "hello-app"],
    ["plugin", "uninstall", id],
    ["plugin", "disable", "hello-app"],
    ["plugin", "untrust", "hello-app"],
    ["plugin", "verify", "hello-app"],
    ["plugin", "upgrade", "hello-app"],
  ]) {
    const r = await run(...args, "--json");
    expect({ args, exit: r.exitCode, code: errorCode(r) }).toEqual({ args, exit: 3, code: "foreign_record" });
  }
  expect(snapshotTree(s.c2)).toEqual(before);

  const doctor = await run("plugin", "doctor", "--fix", "--json");
  expect(doctor.exitCode).toBe(0);
  expect(doctor.json().findings.find((f: { path: string }) => f.path === join(s.c2, "plugins", id))).toMatchObject({
    kind: "foreign_entry",
    severity: "info",
    fixable: false,
  });
  // The record, the bundle, its data and the app's staging directory are all still there, byte for byte.
  const after = snapshotTree(s.c2);
  for (const [path, digest] of Object.entries(before))
    if (path.includes(id) || path.includes("other-app")) expect(after[path]).toBe(digest);
  expect(Object.keys(after).some((p) => p.includes(".other-app-0badf00d.stage-"))).toBe(true);
});

test("a record of an unknown schema is foreign too, and a broken gjc record is still repaired", async () => {
  const s = box();
  writeTree(s.c2, {
    "plugins/odd-00000001/installed-plugin.json": JSON.stringify({ schema_version: 7, anything: true }),
    "plugins/mine-00000002/installed-plugin.json": JSON.stringify({ schema_version: 1, id: "mine-00000002" }),
  });
  const list = await s.gjc(["plugin", "list", "--json"]);
  expect(list.exitCode).toBe(3);
  expect(list.json().foreign).toMatchObject([{ id: "odd-00000001", writer: "unknown", schemaVersion: 7 }]);
  expect(list.json().problems).toMatchObject([{ id: "mine-00000002" }]);
  const fixed = await s.gjc(["plugin", "doctor", "--fix", "--json"]);
  expect(
    fixed
      .json()
      .findings.map((f: { kind: string }) => f.kind)
      .sort(),
  ).toEqual(["broken_record", "foreign_entry"]);
  expect(Object.keys(snapshotTree(s.c2)).some((p) => p.includes("odd-00000001/installed-plugin.json"))).toBe(true);
  expect(Object.keys(snapshotTree(s.c2)).some((p) => p.includes("mine-00000002"))).toBe(false);
});

test("the host plane's plugins.catalog lists the C2 app's bundle as foreign — compiled binary", async () => {
  const binary = await compiledBinary();
  const h = c2HomesBox();
  writeAppBundle(h.c2, "hello-app-83dfd86f", "hello-app");
  await using c = spawnHost(h, [], {}, binary);
  const cat = await c.result("plugins.catalog");
  expect(cat.plugins).toEqual([]);
  expect(cat.broken).toEqual([]);
  expect(cat.foreign).toEqual([
    { id: "hello-app-83dfd86f", name: "hello-app", version: "1.0.0", writer: "c2-app", enabled: true, trusted: true },
  ]);
  expect(await c.close()).toBe(0);
});

test("an install whose installed id is a C2 app bundle's is refused, nothing replaced", async () => {
  const s = box();
  const src = s.write("src/same", skillsBundle("same"));
  const first = await s.gjc(["plugin", "install", src, "--json"]);
  const id = first.json().c2.id as string;
  // The app now owns that directory (its record, same id: the same source).
  writeFileSync(join(s.c2, "plugins", id, "installed-plugin.json"), JSON.stringify(appRecord(id, "same")));
  const before = snapshotTree(s.c2);
  for (const args of [
    ["plugin", "install", src, "--json"],
    ["plugin", "install", src, "--force", "--json"],
  ]) {
    const r = await s.gjc(args);
    expect({ args, exit: r.exitCode, code: errorCode(r) }).toEqual({ args, exit: 3, code: "foreign_record" });
  }
  expect(snapshotTree(s.c2)).toEqual(before);
});
