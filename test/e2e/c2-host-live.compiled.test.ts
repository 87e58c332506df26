/**
 * Issue #13 from the compiled binary: a live `gjc host --stdio` reacts to a policy change made
 * by another gjc process, scenes are judged by the embedded Agent Scenes schemas, a scaffold
 * applies, and `session --family c2` lists the verified content.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { compiledBinary } from "../helpers/binary.ts";
import { fixturesDir, runCli } from "../helpers/cli.ts";
import { writeTree } from "../helpers/tmp.ts";
import { processAlive, writeRuntimeBundle } from "../unit/c2host/_bundle.ts";
import { spawnHost } from "./c2-host-client.ts";
import { c2HomesPerTest, installBundle } from "./c2-runtime-setup.ts";

const home = c2HomesPerTest();

describe("issue #13 from the compiled binary", () => {
  test("live policy, scenes, scaffold and C2 session content", async () => {
    const binary = await compiledBinary();
    const h = home();
    const run = (...args: string[]) => runCli(args, { binary, env: h.env, cwd: h.root });
    await installBundle(
      h,
      writeRuntimeBundle(join(h.root, "rt"), { name: "realmy", commands: [{ id: "realmy.info" }] }).dir,
    );
    await using c = spawnHost(h, [], {}, binary);
    const pid = (await c.result("plugins.invoke", { command: "realmy.info" })).result.pid;
    const seen = c.notifications.length;
    const plan = await run("plugin", "policy", "plan", "realmy", "--state", "disabled", "--json");
    expect((await run("plugin", "policy", "apply", plan.json().token)).exitCode).toBe(0);
    await c.waitFor((m) => m.method === "plugins.changed" && c.notifications.indexOf(m) >= seen);
    expect(processAlive(pid)).toBe(false);

    const scenes = await run("plugin", "validate", join(fixturesDir, "c2", "valid-scenes-skip-broken"), "--json");
    expect(scenes.exitCode).toBe(0);
    expect(scenes.json().components.map((x: any) => [x.kind, x.status])).toEqual([
      ["scene", "unsupported"],
      ["pipeline", "unsupported"],
    ]);

    const src = join(h.root, "office");
    writeTree(src, {
      "plugin.json": {
        $schema: "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json",
        name: "office",
        version: "1.0.0",
        extensions: { "dev.codetwo": { standardVersion: "1.2.0" } },
      },
      "skills/notes/SKILL.md": "---\nname: notes\ndescription: Notes.\n---\nTake notes.\n",
      "scaffolds/report/README.md": "# Report\n",
    });
    expect((await run("plugin", "install", src, "--json")).exitCode).toBe(0);
    expect((await run("plugin", "scaffold", "apply", "office/report", "out")).exitCode).toBe(0);
    expect(readFileSync(join(h.root, "out", "README.md"), "utf8")).toBe("# Report\n");
    const session = await run("plugin", "session", "--family", "c2", "--json");
    expect(session.exitCode).toBe(0);
    expect(session.json().skills.map((s: any) => s.name)).toEqual(["notes"]);
  });
});
