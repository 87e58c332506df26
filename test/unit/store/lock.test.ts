import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { isGjcError } from "../../../src/core/errors.ts";
import { acquireLock, inspectLock, withLock } from "../../../src/store/lock.ts";
import { spawnScoped, type ScopedProcess } from "../../helpers/sandbox.ts";
import { snapshotTree, tempDirsPerTest } from "../../helpers/tmp.ts";

const child = join(import.meta.dir, "lock-child.ts");
const fresh = tempDirsPerTest("gjc-lock-");

/** A holder that is alive while the test runs (`await using`): a child that took the lock and waits on stdin. */
async function holdInChild(dir: string): Promise<ScopedProcess> {
  const held = spawnScoped([process.execPath, child, "hold", dir], { stdin: "pipe" });
  try {
    const reader = held.proc.stdout.getReader();
    const { value } = await reader.read();
    reader.releaseLock();
    expect(new TextDecoder().decode(value)).toBe("held\n");
    return held;
  } catch (error) {
    await held[Symbol.asyncDispose]();
    throw error;
  }
}

/** `count` children, all stopped when the test's block ends. */
function counters(stack: AsyncDisposableStack, dir: string, n: number, increments: number): Bun.Subprocess[] {
  return Array.from(
    { length: n },
    () => stack.use(spawnScoped([process.execPath, child, "count", dir, String(increments)])).proc,
  );
}

/** The pid of a process that has exited and been reaped. */
async function deadPid(): Promise<number> {
  const p = Bun.spawn(["true"]);
  await p.exited;
  return p.pid;
}

async function expectBusy(dir: string, timeoutMs = 150) {
  try {
    await acquireLock(dir, { command: "test", timeoutMs });
  } catch (error) {
    expect(isGjcError(error)).toBe(true);
    if (isGjcError(error)) {
      expect(error.code).toBe("lock_busy");
      expect(error.exit).toBe(5);
      return error;
    }
  }
  throw new Error("expected lock_busy");
}

describe("scope lock", () => {
  test("records the holder, releases its own lock, and removes the directory it had to create", async () => {
    const base = fresh();
    const dir = join(base, "a", "b");
    await withLock(dir, { command: "gjc plugin install" }, (lock) => {
      const holder = JSON.parse(readFileSync(join(dir, "registry.lock"), "utf8"));
      expect(holder).toMatchObject({
        pid: process.pid,
        host: hostname(),
        command: "gjc plugin install",
        token: lock.holder.token,
      });
      expect(typeof holder.startedAt).toBe("string");
      expect(readdirSync(dir)).toEqual(["registry.lock"]);
    });
    expect(existsSync(join(base, "a"))).toBe(false);
  });

  test("a live holder makes others wait and time out with lock_busy naming it", async () => {
    const dir = fresh();
    await using held = await holdInChild(dir);
    const p = held.proc;
    const before = snapshotTree(dir);
    const error = await expectBusy(dir);
    expect(error.message).toContain(`process ${p.pid}`);
    expect(error.message).toContain("test hold");
    expect(snapshotTree(dir)).toEqual(before);
  });

  test("a lock whose process died is taken over", async () => {
    const dir = fresh();
    await using held = await holdInChild(dir);
    const p = held.proc;
    p.kill("SIGKILL");
    await p.exited;
    expect(inspectLock(dir).state).toBe("stale");
    await withLock(dir, { command: "next", timeoutMs: 1000 }, (lock) => {
      expect(JSON.parse(readFileSync(lock.path, "utf8")).pid).toBe(process.pid);
    });
    expect(readdirSync(dir)).toEqual([]);
  });

  test("a lock held by a reused pid (same pid, other start time) is stale", async () => {
    const dir = fresh();
    await using waiting = spawnScoped([process.execPath, "-e", "await Bun.stdin.text()"], { stdin: "pipe" });
    const p = waiting.proc;
    writeFileSync(
      join(dir, "registry.lock"),
      JSON.stringify({
        pid: p.pid,
        host: hostname(),
        startedAt: "x",
        processStart: "1",
        command: "old",
        token: "1-aa",
      }),
    );
    if (existsSync(`/proc/${p.pid}/stat`)) {
      expect(inspectLock(dir).state).toBe("stale");
      await withLock(dir, { command: "next", timeoutMs: 1000 }, () => {});
    }
  });

  test("never evicted on age alone, nor when the holder is on another host, nor when unreadable", async () => {
    const dir = fresh();
    writeFileSync(
      join(dir, "registry.lock"),
      JSON.stringify({
        pid: await deadPid(),
        host: `not-${hostname()}`,
        startedAt: "2000-01-01T00:00:00.000Z",
        command: "remote",
        token: "9-bb",
      }),
    );
    const before = snapshotTree(dir);
    const e1 = await expectBusy(dir);
    expect(e1.message).toContain("remote");
    expect(snapshotTree(dir)).toEqual(before);

    writeFileSync(join(dir, "registry.lock"), "garbage");
    const e2 = await expectBusy(dir);
    expect(e2.message).toContain("unreadable");
    expect(readFileSync(join(dir, "registry.lock"), "utf8")).toBe("garbage");
  });

  test("a holder record of another gjc version is judged by pid, host and token alone (lock-schema.ts); without them it is unreadable", async () => {
    const dir = fresh();
    const dead = await deadPid();
    writeFileSync(
      join(dir, "registry.lock"),
      JSON.stringify({ pid: dead, host: hostname(), token: "5-dd", addedLater: { x: 1 } }),
    );
    expect(inspectLock(dir)).toMatchObject({ state: "stale", holder: { pid: dead, token: "5-dd" } });
    for (const holder of [
      { pid: dead, host: hostname() },
      { pid: 0, host: hostname(), token: "0-ee" },
      { pid: "1", host: hostname(), token: "1-ff" },
    ]) {
      writeFileSync(join(dir, "registry.lock"), JSON.stringify(holder));
      expect([holder, inspectLock(dir).state]).toEqual([holder, "unreadable"]);
    }
  });

  test("a dead holder on this host with an old start time is taken over even if several wait", async () => {
    const dir = fresh();
    writeFileSync(
      join(dir, "registry.lock"),
      JSON.stringify({ pid: await deadPid(), host: hostname(), startedAt: "x", command: "dead", token: "7-cc" }),
    );
    mkdirSync(join(dir, "sub"));
    await using stack = new AsyncDisposableStack();
    const runs = counters(stack, dir, 4, 5);
    const codes = await Promise.all(runs.map((r) => r.exited));
    expect(codes).toEqual([0, 0, 0, 0]);
    expect(readFileSync(join(dir, "counter"), "utf8")).toBe("20");
  });

  test("mutual exclusion: 6 processes x 10 increments lose no update", async () => {
    const dir = fresh();
    await using stack = new AsyncDisposableStack();
    const runs = counters(stack, dir, 6, 10);
    const codes = await Promise.all(runs.map((r) => r.exited));
    expect(codes).toEqual([0, 0, 0, 0, 0, 0]);
    expect(readFileSync(join(dir, "counter"), "utf8")).toBe("60");
    expect(readdirSync(dir).sort()).toEqual(["counter"]);
  });
});
