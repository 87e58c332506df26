/**
 * The command tree (src/cli/verbs.ts) as citty commands: groups carry `meta` and
 * `subCommands`, each verb is citty's lazy sub-command labelled with its one-line `meta`.
 * Dispatch in main loads only the verb it runs; group help loads none.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { main } from "../../../src/cli/main.ts";
import {
  gjc,
  isGroup,
  resolveEntry,
  type GjcCommand,
  type GroupCommand,
  type LazyVerb,
} from "../../../src/cli/verbs.ts";
import { createContext } from "../../../src/core/context.ts";

/** Wraps every lazy verb so a test sees which ones were loaded; the wrappers delegate, and are undone after each test. */
const loaded: string[] = [];
const undo: (() => void)[] = [];
function watchLoads(group: GroupCommand, path: string[]): void {
  for (const [name, entry] of Object.entries(group.subCommands)) {
    if (typeof entry !== "function") {
      watchLoads(entry, [...path, name]);
      continue;
    }
    const watched: LazyVerb = Object.assign(() => (loaded.push([...path, name].join(" ")), entry()), {
      meta: entry.meta,
    });
    group.subCommands[name] = watched;
    undo.push(() => (group.subCommands[name] = entry));
  }
}
afterEach(() => {
  for (const u of undo.splice(0)) u();
  loaded.length = 0;
});

async function run(argv: string[]): Promise<{ exit: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const ctx = createContext({ env: { NO_COLOR: "1" }, cwd: process.cwd(), quiet: true });
  const exit = await main(argv, { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), ctx });
  return { exit, stdout, stderr };
}

describe("the command tree", () => {
  test("group help lists every sub-command's meta description and loads no verb", async () => {
    watchLoads(gjc, []);
    const groups: [string[], GroupCommand][] = [[[], gjc]];
    for (let i = 0; i < groups.length; i++) {
      const [path, group] = groups[i];
      const r = await run([...path, "--help"]);
      expect(r.exit).toBe(0);
      for (const [name, entry] of Object.entries(group.subCommands)) {
        expect(r.stdout).toContain(`  ${name} `);
        expect(r.stdout).toContain(entry.meta.description);
        if (typeof entry !== "function" && isGroup(entry)) groups.push([[...path, name], entry]);
      }
    }
    expect(groups.length).toBeGreaterThan(5);
    expect(loaded).toEqual([]);
  });

  test("running or asking for the help of a verb loads that verb only", async () => {
    watchLoads(gjc, []);
    expect((await run(["plugin", "policy", "plan", "--help"])).exit).toBe(0);
    expect(loaded).toEqual(["plugin policy plan"]);
    expect((await run(["explain", "unknown_command"])).exit).toBe(0);
    expect(loaded).toEqual(["plugin policy plan", "explain"]);
  });

  test("each verb's citty meta names the path it sits at, and its schema names a gjc document", async () => {
    const seen: string[] = [];
    const walk = async (path: string[], command: GjcCommand) => {
      if (!isGroup(command)) {
        expect(command.meta.name).toBe(path.join(" "));
        expect(command.schema).toMatch(/^gjc\/[a-z-]+@1$/);
        return void seen.push(command.meta.name);
      }
      for (const [name, entry] of Object.entries(command.subCommands))
        await walk([...path, name], await resolveEntry(entry));
    };
    await walk([], gjc);
    expect(seen).toContain("plugin policy plan");
  });

  test("only a group's own names are commands (not constructor, toString, __proto__)", async () => {
    for (const argv of [
      ["constructor"],
      ["plugin", "toString"],
      ["plugin", "__proto__", "--help"],
      ["plugin", "policy", "hasOwnProperty"],
    ]) {
      const r = await run(argv);
      expect(r.exit).toBe(2);
      expect(r.stderr).toContain("[unknown_command]");
    }
  });
});
