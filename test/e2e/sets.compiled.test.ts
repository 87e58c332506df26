/** The plugin-set verbs from the compiled binary: lock, check, sync --frozen on a fresh machine, export/--from, outdated, history, rollback, cache. */
import { afterEach, beforeAll, describe, expect, test } from "bun:test";
import { cpSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { compiledBinary } from "../helpers/binary.ts";
import { writeBundle } from "./gjc-install-fixture.ts";
import { fileHashes, makeSetWorld, registry, type SetWorld } from "./sets-fixture.ts";

let binary: string;
let worlds: SetWorld[] = [];
beforeAll(async () => {
  binary = await compiledBinary();
});
afterEach(() => {
  for (const w of worlds) w.cleanup();
  worlds = [];
});
const world = () => {
  const w = makeSetWorld();
  worlds.push(w);
  return w;
};
const files = (scope: string) =>
  Object.fromEntries(registry(scope).plugins.map((p) => [p.name, fileHashes(p.pluginRoot)]));

describe("compiled gjc: plugin sets", () => {
  test("lock, check, sync --frozen on a fresh machine, export and sync --from, outdated, history, rollback, cache", async () => {
    const a = world();
    const run = (w: SetWorld, args: string[]) => w.gjc(args, { binary });
    const repo = a.repo("gitty");
    const src = writeBundle(join(a.root, "src", "loc"), "loc");
    expect((await run(a, ["plugin", "install", `${repo.url}#main`, "--project"])).exitCode).toBe(0);
    expect((await run(a, ["plugin", "install", src, "--project"])).exitCode).toBe(0);
    expect((await run(a, ["plugin", "lock", "--project"])).exitCode).toBe(0);
    expect((await run(a, ["plugin", "lock", "--project", "--check"])).exitCode).toBe(0);
    expect((await run(a, ["plugin", "cache", "verify", "--json"])).json()).toMatchObject({ ok: true, checked: 2 });

    const b = world();
    mkdirSync(join(b.project, ".gjc"), { recursive: true });
    cpSync(a.lock, b.lock);
    const synced = await run(b, ["plugin", "sync", "--project", "--frozen", "--json"]);
    expect({ exit: synced.exitCode, err: synced.stderr }).toMatchObject({ exit: 0 });
    expect(files(b.projectScope)).toEqual(files(a.projectScope));
    expect((await run(b, ["plugin", "verify"])).exitCode).toBe(0);

    const set = join(a.root, "set.tgz");
    expect((await run(a, ["plugin", "lock", "--project", "--export", set])).exitCode).toBe(0);
    const c = world();
    const fromSet = await run(c, ["plugin", "sync", "--project", "--from", set, "--json"]);
    expect({ exit: fromSet.exitCode, err: fromSet.stderr }).toMatchObject({ exit: 0 });
    expect(files(c.projectScope)).toEqual(files(a.projectScope));
    expect(readFileSync(c.lock, "utf8")).toBe(readFileSync(a.lock, "utf8"));

    repo.commit({ "tools/gitty_tool.ts": "export default () => 2;\n" });
    const out = await run(a, ["plugin", "outdated", "--project", "--json"]);
    expect(out.json().rows.map((r: { name: string; status: string }) => `${r.name}:${r.status}`)).toEqual([
      "gitty:outdated",
      "loc:not-checkable",
    ]);
    const up = await run(a, ["plugin", "upgrade", "--all", "--project", "--json"]);
    expect(up.json().outcomes.map((o: { name: string; outcome: string }) => `${o.name}:${o.outcome}`)).toEqual([
      "gitty:upgraded",
      "loc:unchanged",
    ]);
    const gens = (await run(a, ["plugin", "history", "gitty", "--project", "--json"])).json().generations;
    expect(gens[0].command).toBe("gjc plugin upgrade --all");
    const back = await run(a, ["plugin", "rollback", "gitty", "--project", "--json"]);
    expect({ exit: back.exitCode, err: back.stderr }).toMatchObject({ exit: 0 });
    expect(files(a.projectScope).gitty).toEqual(files(b.projectScope).gitty);
  });
});
