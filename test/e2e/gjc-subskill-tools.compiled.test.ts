/**
 * Sub-skill-scoped tools (the manifest's string `tools` entries and a SKILL.md `tools:` list)
 * are handed to the host with their sub-skill, for its phase, by `session --json` and
 * `activate --json`, and the runtime check loads them like any tool: one that registers the
 * wrong name quarantines the sub-skill that brings it. Run against the compiled binary.
 */
import { expect, test } from "bun:test";
import { join } from "node:path";
import { compiledBinary } from "../helpers/binary.ts";
import { sandboxPerTest } from "../helpers/sandbox.ts";

const box = sandboxPerTest("gjc-subtools-");
const sha = (text: string) => new Bun.CryptoHasher("sha256").update(text).digest("hex");
const tool = (name: string) =>
  `export default () => ({ name: ${JSON.stringify(name)}, description: "t", parameters: {}, execute: async () => ({ ok: true }) });\n`;

function bundle(helperRegisters: string) {
  const files = {
    "tools/helper.ts": tool(helperRegisters),
    "tools/fm-tool.ts": tool("fm-tool"),
    "subskills/design/SKILL.md":
      "---\nname: design\ndescription: Design guidance\nbinds_to: ralplan\nphase: planner\nactivation_arg: design\ntools: tools/fm-tool.ts\n---\nDesign it.\n",
  };
  return {
    files,
    tree: {
      ...files,
      "gajae-plugin.json": {
        kind: "gajae-code-plugin",
        name: "subtools",
        version: "1.0.0",
        subskills: ["subskills/design/SKILL.md"],
        tools: ["tools/helper.ts"],
      },
    },
  };
}

test("sub-skill tools reach the host at their phase and are runtime-checked — compiled binary", async () => {
  const binary = await compiledBinary();
  const s = box();
  const run = (...args: string[]) => s.gjc(args, { binary });
  const { files, tree } = bundle("helper");
  expect((await run("plugin", "install", s.write("src/ok", tree), "--user", "--json")).exitCode).toBe(0);
  const root = JSON.parse(await Bun.file(join(s.user, "registry.json")).text()).plugins[0].dir as string;
  const module = (rel: string) => join(s.user, root, rel);
  const expected = [
    { path: "tools/helper.ts", module: module("tools/helper.ts"), sha256: sha(files["tools/helper.ts"]) },
    { path: "tools/fm-tool.ts", module: module("tools/fm-tool.ts"), sha256: sha(files["tools/fm-tool.ts"]) },
  ];

  const session = await run("plugin", "session", "--json");
  expect(session.exitCode).toBe(0);
  const doc = session.json();
  expect(doc.subskills).toEqual([
    expect.objectContaining({ extensionId: "subskill:ralplan:planner:design", phase: "planner", tools: expected }),
  ]);
  // Checked like any tool: both modules were loaded in isolated children.
  expect(
    doc.runtimeCheck.results.filter((r: { surfaceId: string }) => r.surfaceId === "subskill:ralplan:planner:design"),
  ).toEqual([expect.objectContaining({ ok: true }), expect.objectContaining({ ok: true })]);
  // Not always-on tools.
  expect(doc.tools).toEqual([]);

  const activate = await run("plugin", "activate", "ralplan", "--design", "--json");
  expect(activate.exitCode).toBe(0);
  expect(activate.json().activation).toMatchObject({ surfaceId: "subskill:ralplan:planner:design", tools: expected });
  expect(activate.json().inject).toContain("Design it.");

  const unknown = await run("plugin", "activate", "no-such-skill", "--design", "--json");
  expect(unknown.exitCode).toBe(2);
  expect(JSON.parse(unknown.stderr.split("\n").find((l) => l.startsWith('{"error"'))!).error.code).toBe(
    "invalid_parent",
  );
});

test("a sub-skill tool that registers another name quarantines its sub-skill", async () => {
  const s = box();
  const { tree } = bundle("not_helper");
  expect((await s.gjc(["plugin", "install", s.write("src/bad", tree), "--user", "--json"])).exitCode).toBe(0);
  const doc = (await s.gjc(["plugin", "session", "--json"])).json();
  expect(doc.subskills).toEqual([]);
  expect(doc.diagnostics).toContainEqual(
    expect.objectContaining({ code: "runtime_mismatch", surfaceId: "subskill:ralplan:planner:design" }),
  );
  const activate = await s.gjc(["plugin", "activate", "ralplan", "--design", "--json"]);
  expect(activate.exitCode).toBe(3);
});
