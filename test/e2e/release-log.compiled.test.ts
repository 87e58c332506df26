/** Release logs from the compiled binary: a publisher's git repository with its log, installed, upgraded, then force-pushed with a rewritten history. */
import { afterEach, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { signCheckpoint } from "../../src/tlog/checkpoint.ts";
import { treeRoot } from "../../src/tlog/merkle.ts";
import { parseSigner } from "../../src/tlog/note.ts";
import { parseReleases, releaseLeaf, releasesText } from "../../src/tlog/releases.ts";
import { compiledBinary } from "../helpers/binary.ts";
import { snapshotTree } from "../helpers/tmp.ts";
import { writeBundle } from "./gjc-install-fixture.ts";
import { makeSetWorld, type SetWorld } from "./sets-fixture.ts";

let binary: string;
let worlds: SetWorld[] = [];
beforeAll(async () => {
  binary = await compiledBinary();
});
afterEach(() => {
  for (const w of worlds) w.cleanup();
  worlds = [];
});

describe("compiled gjc: release log", () => {
  test("a git repository's log: install records it, a new release upgrades, a rewritten history is refused", async () => {
    const w = makeSetWorld();
    worlds.push(w);
    const run = (args: string[]) => w.gjc(args, { binary });
    const repo = w.repo("hello");
    const log = join(repo.dir, "gjc-log");
    expect((await run(["plugin", "log", "init", log, "--origin", "example.com/acme/hello"])).exitCode).toBe(0);
    expect((await run(["plugin", "log", "append", log, repo.dir])).exitCode).toBe(0);
    repo.commit({}, "release 1.0.0");

    const installed = await run(["plugin", "install", `${repo.url}#main`, "--user", "--json"]);
    expect(installed.exitCode).toBe(0);
    expect(installed.json().releaseLog).toEqual({
      origin: "example.com/acme/hello",
      size: 1,
      index: 0,
      firstSeen: true,
    });

    writeBundle(repo.dir, "hello", { version: "1.1.0", body: "export default function tool() { return 11; }" });
    expect((await run(["plugin", "log", "append", log, repo.dir])).exitCode).toBe(0);
    repo.commit({}, "release 1.1.0");
    const up = await run(["plugin", "upgrade", "hello", "--user", "--json"]);
    expect(up.exitCode).toBe(0);
    expect(up.json()).toMatchObject({ version: "1.1.0", releaseLog: { size: 2, index: 1, firstSeen: false } });

    // Whoever took the repository and the key rewrites history: 1.0.0 now names other bytes.
    const keys = join(w.home, ".gjc", "log-keys");
    const signer = parseSigner(readFileSync(join(keys, readdirSync(keys)[0]), "utf8").trim());
    writeBundle(repo.dir, "hello", { version: "1.2.0", body: "export default function tool() { return 'evil'; }" });
    const d = (await run(["plugin", "lock", "--user", "--json"])).json().bundles[0].integrity as string;
    const rs = parseReleases(readFileSync(join(log, "releases"), "utf8"), "releases");
    const forged = [{ ...rs[0], digest: d }, rs[1], { name: "hello", version: "1.2.0", digest: d }];
    writeFileSync(join(log, "releases"), releasesText(forged));
    writeFileSync(
      join(log, "checkpoint"),
      signCheckpoint({ origin: signer.name, size: 3, root: treeRoot(forged.map(releaseLeaf)), extensions: [] }, signer),
    );
    repo.commit({}, "rewritten");
    const before = snapshotTree(w.root);
    const refused = await run(["plugin", "upgrade", "hello", "--user", "--json"]);
    expect(refused.exitCode).toBe(3);
    expect(JSON.parse(refused.stdout).error).toMatchObject({
      code: "log_inconsistent",
      details: { believed: { size: 2 }, presented: { size: 3 } },
    });
    expect(snapshotTree(w.root)).toEqual(before);
  });
});
