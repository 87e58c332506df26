import { expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { liveHolders, liveProcessesNotice, LiveRegistry } from "../../../src/store/live-registry.ts";
import { processStartTicks } from "../../../src/process/process-identity.ts";
import { spawnScoped } from "../../helpers/sandbox.ts";
import { tempDirsPerTest } from "../../helpers/tmp.ts";

const fresh = tempDirsPerTest();

test("a live other process holds a bundle; dead, reused and own pids do not", async () => {
  const root = fresh();
  mkdirSync(join(root, "live"));
  // A real other process, blocked on stdin until the test ends.
  await using cat = spawnScoped(["cat"], { stdin: "pipe" });
  const other = cat.proc;
  const write = (pid: number, startTicks: string | null, bundles: string[]) =>
    writeFileSync(join(root, "live", `${pid}.json`), JSON.stringify({ pid, startTicks, bundles }));
  write(other.pid, processStartTicks(other.pid) ?? null, ["demo-00000001"]);
  expect(liveHolders(root, "demo-00000001")).toEqual([other.pid]);
  expect(liveHolders(root, "other-00000002")).toEqual([]);
  expect(liveProcessesNotice(root, "demo-00000001", "demo", "uninstall")).toMatchObject({
    code: "bundle_in_use",
    severity: "warning",
    message: expect.stringContaining(`pid ${other.pid}`),
  });

  write(other.pid, "1", ["demo-00000001"]); // a pid reused by another process: stale
  expect(liveHolders(root, "demo-00000001")).toEqual([]);
  write(2 ** 22 + 12345, null, ["demo-00000001"]); // no such process
  expect(liveHolders(root, "demo-00000001")).toEqual([]);
  write(process.pid, null, ["demo-00000001"]); // ourselves: our own hooks stop what we run
  expect(liveHolders(root, "demo-00000001")).toEqual([]);
  expect(liveProcessesNotice(root, "demo-00000001", "demo", "replace")).toBeUndefined();

  // A file of another shape (src/store/live-file-schema.ts) was not written by a gjc host: passed over, like one that is not JSON.
  writeFileSync(
    join(root, "live", `${other.pid}.json`),
    JSON.stringify({ pid: other.pid, startTicks: null, bundles: "demo-00000001" }),
  );
  expect(liveHolders(root, "demo-00000001")).toEqual([]);
});

test("the registry file follows the live set and is removed when empty or cleared; stale files are swept", () => {
  const root = fresh();
  mkdirSync(join(root, "live"));
  const stale = join(root, "live", `${2 ** 22 + 777}.json`);
  writeFileSync(stale, JSON.stringify({ pid: 2 ** 22 + 777, startTicks: null, bundles: ["x-00000001"] }));
  const reg = new LiveRegistry(root);
  expect(existsSync(stale)).toBe(false);
  const path = join(root, "live", `${process.pid}.json`);
  reg.update(["b-00000002", "a-00000001"]);
  expect(JSON.parse(readFileSync(path, "utf8"))).toMatchObject({
    pid: process.pid,
    bundles: ["a-00000001", "b-00000002"],
  });
  reg.update([]);
  expect(existsSync(path)).toBe(false);
  reg.update(["a-00000001"]);
  reg.clear();
  expect(existsSync(path)).toBe(false);
});
