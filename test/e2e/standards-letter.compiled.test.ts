/**
 * The letter of both standards where gjc had drifted from it, each checked through the compiled
 * binary: GJC stdio servers confined to the plugin root (validate and install refuse the same
 * way), GJC uninstall removing only what the registry records, C2 archives that must extract
 * plugin.json at their root, and C2 agents/ and commands/ read one level deep.
 */
import { expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { compiledBinary } from "../helpers/binary.ts";
import { sandboxPerTest } from "../helpers/sandbox.ts";
import { gzip, tar } from "../helpers/tar.ts";
import { snapshotTree } from "../helpers/tmp.ts";
import { skillsBundle } from "../unit/c2store/_bundles.ts";

const box = sandboxPerTest("gjc-letter-");
const errorOf = (r: { stderr: string }) =>
  JSON.parse(r.stderr.split("\n").find((l) => l.startsWith('{"error"'))!).error;

const gjcBundle = (mcpArgs: string[]) => ({
  "gajae-plugin.json": {
    kind: "gajae-code-plugin",
    name: "conf",
    version: "1.0.0",
    mcps: [{ name: "docs", transport: "stdio", command: "bun", args: mcpArgs }],
    system_appendix: [{ name: "p", path: "p.md" }],
  },
  "mcp/s.ts": "// server\n",
  "p.md": "Policy.\n",
});

test("GJC stdio servers are confined to the plugin root: validate and install refuse a path outside it with one code", async () => {
  const binary = await compiledBinary();
  const s = box();
  const run = (...args: string[]) => s.gjc(args, { binary });
  for (const [i, args] of [
    ["mcp/s.ts", "../../etc/passwd"],
    ["mcp/s.ts", "/etc/passwd"],
    ["mcp/s.ts", "--config=/home/user/.ssh/id_ed25519"],
  ].entries()) {
    const dir = s.write(`src/b${i}`, gjcBundle(args));
    const validate = await run("plugin", "validate", dir, "--json");
    expect(validate.exitCode).toBe(1);
    const codes = validate.json().diagnostics.map((d: { code: string }) => d.code);
    expect(codes).toEqual(["security_policy"]);
    const before = snapshotTree(s.home);
    const install = await run("plugin", "install", dir, "--user", "--json");
    expect([install.exitCode, errorOf(install).code]).toEqual([3, "security_policy"]);
    expect(errorOf(install).message).toContain("confined to the plugin root");
    expect(snapshotTree(s.home)).toEqual(before);
  }
  // The alias spelling is judged the same way.
  const alias = s.write("src/alias", {
    ...gjcBundle([]),
    "gajae-plugin.json": {
      kind: "gajae-code-plugin",
      name: "conf",
      version: "1.0.0",
      mcpServers: { docs: { command: "bun", args: ["mcp/s.ts", "../x"] } },
      system_appendix: [{ name: "p", path: "p.md" }],
    },
  });
  expect(
    (await run("plugin", "validate", alias, "--json")).json().diagnostics.map((d: { code: string }) => d.code),
  ).toEqual(["security_policy"]);
  // A path that stays inside the root is fine.
  expect(
    (await run("plugin", "validate", s.write("src/ok", gjcBundle(["mcp/s.ts", "lib/../p.md"])), "--json")).exitCode,
  ).toBe(0);
});

test("GJC uninstall removes only the files the registry records, keeps a file the user added, and says so", async () => {
  const binary = await compiledBinary();
  const s = box();
  const run = (...args: string[]) => s.gjc(args, { binary });
  expect((await run("plugin", "install", s.write("src/b", gjcBundle(["mcp/s.ts"])), "--user", "--json")).exitCode).toBe(
    0,
  );
  const registry = JSON.parse(readFileSync(join(s.user, "registry.json"), "utf8"));
  const root = join(s.user, registry.plugins[0].dir);
  writeFileSync(join(root, "my-notes.txt"), "mine\n");
  writeFileSync(join(root, "mcp", "cache.db"), "mine too\n");

  const dry = await run("plugin", "uninstall", "conf", "--user", "--dry-run", "--json");
  expect(dry.json()).toMatchObject({ status: "would-uninstall", gjc: { unowned: ["mcp/cache.db", "my-notes.txt"] } });
  expect(existsSync(join(root, "my-notes.txt"))).toBe(true);

  const r = await run("plugin", "uninstall", "conf", "--user", "--json");
  expect(r.exitCode).toBe(0);
  const keptIn = r.json().gjc.keptIn as string;
  expect(r.json()).toMatchObject({
    status: "uninstalled",
    files: ["gajae-plugin.json", "mcp/s.ts", "p.md"],
    gjc: { unowned: ["mcp/cache.db", "my-notes.txt"] },
  });
  expect(snapshotTree(keptIn)).toEqual({
    mcp: expect.any(String),
    "mcp/cache.db": expect.any(String),
    "my-notes.txt": expect.any(String),
  });
  expect(readFileSync(join(keptIn, "my-notes.txt"), "utf8")).toBe("mine\n");
  const human = await run("plugin", "uninstall", "conf", "--user");
  expect(human.exitCode).toBe(1);

  // Later commands (an install sweeps the scope first, doctor --fix too) leave the kept files alone.
  expect((await run("plugin", "install", s.write("src/b2", gjcBundle(["mcp/s.ts"])), "--user")).exitCode).toBe(0);
  expect((await run("plugin", "doctor", "--fix")).exitCode).toBe(0);
  expect(readFileSync(join(keptIn, "mcp", "cache.db"), "utf8")).toBe("mine too\n");

  // The human output names what was kept and where.
  const again = JSON.parse(readFileSync(join(s.user, "registry.json"), "utf8")).plugins[0];
  writeFileSync(join(s.user, again.dir, "extra.txt"), "x\n");
  const said = await run("plugin", "uninstall", "conf", "--user");
  expect(said.stdout).toContain("Kept 1 item the bundle did not install");
  expect(said.stdout).toContain("extra.txt");
});

test("a C2 archive must extract plugin.json at its root: pkg/plugin.json is refused as nested_manifest", async () => {
  const binary = await compiledBinary();
  const s = box();
  const files = skillsBundle("packed") as Record<string, unknown>;
  const entries = Object.entries(files).map(([name, v]) => ({
    name,
    data: typeof v === "string" ? v : JSON.stringify(v),
  }));
  const nested = join(s.root, "nested.tgz");
  writeFileSync(nested, gzip(tar(entries.map((e) => ({ ...e, name: `pkg/${e.name}` })))));
  const before = snapshotTree(s.home);
  const r = await s.gjc(["plugin", "install", nested, "--json"], { binary });
  expect(r.exitCode).toBe(1);
  expect(errorOf(r)).toMatchObject({ code: "nested_manifest", message: expect.stringContaining("pkg/plugin.json") });
  expect(snapshotTree(s.home)).toEqual(before);
  const atRoot = join(s.root, "root.tgz");
  writeFileSync(atRoot, gzip(tar(entries)));
  expect((await s.gjc(["plugin", "install", atRoot, "--json"], { binary })).json()).toMatchObject({
    family: "c2",
    name: "packed",
    status: "installed",
  });
});

test("C2 agents/*.md and commands/*.md are one level: deeper Markdown is an ordinary file", async () => {
  const binary = await compiledBinary();
  const s = box();
  const dir = s.write(
    "src/deep",
    skillsBundle("deep", "1.0.0", {
      "agents/a.md": "Agent.\n",
      "agents/team/b.md": "Not an agent.\n",
      "commands/go.md": "Go.\n",
      "commands/git/push.md": "Not a command.\n",
    }),
  );
  const doc = (await s.gjc(["plugin", "validate", dir, "--json"], { binary })).json();
  expect(doc.contributions).toMatchObject({ skills: 1, subagents: 1, commands: 1 });
  expect(doc.files.map((f: { path: string }) => f.path)).toEqual(
    expect.arrayContaining(["agents/team/b.md", "commands/git/push.md"]),
  );
  expect((await s.gjc(["plugin", "install", dir, "--json"], { binary })).exitCode).toBe(0);
  const session = (await s.gjc(["plugin", "session", "--family", "c2", "--json"], { binary })).json();
  expect(session.subagents.map((a: { file: { relativePath: string } }) => a.file.relativePath)).toEqual([
    "agents/a.md",
  ]);
  expect(session.promptCommands.map((c: { file: { relativePath: string } }) => c.file.relativePath)).toEqual([
    "commands/go.md",
  ]);
  expect(readdirSync(s.c2)).toContain("plugins");
});

test("GJC session: a disabled and quarantined bundle shows both; explain session_collision describes excluded", async () => {
  const binary = await compiledBinary();
  const s = box();
  const run = (...args: string[]) => s.gjc(args, { binary });
  expect((await run("plugin", "install", s.write("src/b", gjcBundle(["mcp/s.ts"])), "--user", "--json")).exitCode).toBe(
    0,
  );
  const dir = JSON.parse(readFileSync(join(s.user, "registry.json"), "utf8")).plugins[0].dir;
  writeFileSync(join(s.user, dir, "p.md"), "Changed.\n");
  expect((await run("plugin", "verify", "conf", "--json")).exitCode).toBe(3);
  expect((await run("plugin", "disable", "conf", "--user", "--json")).exitCode).toBe(0);
  const bundle = (await run("plugin", "session", "--json")).json().bundles[0];
  expect(bundle).toMatchObject({
    name: "conf",
    status: "disabled",
    quarantined: true,
    reasons: [expect.objectContaining({ code: "runtime_mismatch", persisted: true })],
  });

  const explain = await run("explain", "session_collision");
  expect(explain.exitCode).toBe(0);
  expect(explain.stdout).toContain("excluded");
});
