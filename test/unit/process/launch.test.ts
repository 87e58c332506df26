import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { launch } from "../../../src/process/launch.ts";
import { readProc } from "../../../src/process/proc-table.ts";
import { becomeSubreaper } from "../../../src/process/subreaper.ts";

const linux = process.platform === "linux";

/** Alive means: a /proc entry that is not a zombie (a zombie holds no resources and runs nothing). */
function alive(pid: number): boolean {
  const p = readProc(pid);
  return p !== undefined && p.state !== "Z" && p.state !== "X";
}

/** Reads the first `n` lines the child prints (its report of the pids it started). */
async function firstLines(stream: ReadableStream<Uint8Array>, n: number): Promise<string[]> {
  let text = "";
  const decoder = new TextDecoder();
  for await (const chunk of stream) {
    text += decoder.decode(chunk, { stream: true });
    if (text.split("\n").length > n) break;
  }
  return text.split("\n").slice(0, n);
}

const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", BUN_BE_BUN: "1" };

/**
 * A child that escapes its process group twice: one daemon in a new session whose parent stays
 * (a descendant), and one whose parent exits at once (a double fork: the daemon is re-parented
 * to the nearest subreaper). Both ignore SIGTERM.
 */
const ESCAPING_CHILD = `
const kept = Bun.spawn(["sh", "-c", "trap '' TERM; exec sleep 1000"], { detached: true, stdio: ["ignore", "ignore", "ignore"] });
const orphan = Bun.spawnSync(["setsid", "sh", "-c", "trap '' TERM; sleep 1000 >/dev/null 2>&1 & echo $!"]);
console.log(kept.pid);
console.log(orphan.stdout.toString().trim());
setInterval(() => {}, 1000);
`;

describe.if(linux)("the one launcher ends every descendant", () => {
  test("gjc is a child subreaper on Linux", () => {
    expect(becomeSubreaper()).toBe(true);
  });

  test("a setsid daemon and a double-forked orphan are killed and reaped before stop() returns", async () => {
    const child = launch({
      argv: [process.execPath, "-e", ESCAPING_CHILD],
      cwd: process.cwd(),
      env,
      stdin: "ignore",
      stderr: "ignore",
    });
    const [kept, orphan] = (await firstLines(child.proc.stdout, 2)).map(Number);
    expect(alive(kept)).toBe(true);
    expect(alive(orphan)).toBe(true);
    // The orphan's parent exited: it now hangs below us (the subreaper), outside the child's tree.
    expect(readProc(orphan)?.ppid).toBe(process.pid);
    expect(readProc(kept)?.sid).toBe(kept);
    await child.stop(50);
    expect(alive(child.pid)).toBe(false);
    expect(alive(kept)).toBe(false);
    expect(alive(orphan)).toBe(false);
    // Reaped, not left as zombies of ours.
    expect(existsSync(`/proc/${orphan}`)).toBe(false);
  });

  test("a timeout ends the whole tree and says so", async () => {
    const child = launch({
      argv: [process.execPath, "-e", ESCAPING_CHILD],
      cwd: process.cwd(),
      env,
      stdin: "ignore",
      stderr: "ignore",
      timeoutMs: 300,
    });
    const [kept, orphan] = (await firstLines(child.proc.stdout, 2)).map(Number);
    await child.exited;
    await child.stop();
    expect(child.timedOut).toBe(true);
    expect(alive(kept) || alive(orphan)).toBe(false);
  });

  test("the child sees exactly the environment it was given, plus the tree marker", async () => {
    const child = launch({
      argv: [process.execPath, "-e", "console.log(JSON.stringify(process.env))"],
      cwd: process.cwd(),
      env,
      stdin: "ignore",
      stderr: "ignore",
    });
    const seen = JSON.parse(await new Response(child.proc.stdout).text()) as Record<string, string>;
    await child.stop();
    expect(Object.keys(seen).sort()).toEqual(["BUN_BE_BUN", "GJC_PROCESS_TREE", "PATH"]);
  });

  test("a tree that holds more memory than its limit is ended, the memory held by a double-forked orphan included", async () => {
    // The leader stays small; the memory is taken by an orphan that left the leader's session and
    // tree (re-parented to us), 16 MiB at a time up to 512 MiB, touched so it is resident.
    const hog = `const a = []; for (let i = 0; i < 32; i++) { a.push(Buffer.alloc(16 << 20, 1)); } console.log("held"); setInterval(() => {}, 1000);`;
    const leader = `const r = Bun.spawnSync(["setsid", "sh", "-c", ${JSON.stringify(`"${process.execPath}" -e '${hog}' >/dev/null 2>&1 & echo $!`)}]); console.log(r.stdout.toString().trim()); setInterval(() => {}, 1000);`;
    const child = launch({
      argv: [process.execPath, "-e", leader],
      cwd: process.cwd(),
      env,
      stdin: "ignore",
      stderr: "ignore",
      memoryLimitMiB: 128,
    });
    const [orphan] = (await firstLines(child.proc.stdout, 1)).map(Number);
    await child.exited;
    await child.stop();
    expect(child.memoryExceeded).toBe(true);
    expect(child.timedOut).toBe(false);
    expect(alive(child.pid)).toBe(false);
    expect(orphan).toBeGreaterThan(0);
    expect(alive(orphan)).toBe(false);
  });

  test("a tree within its limit runs to its end", async () => {
    const child = launch({
      argv: [process.execPath, "-e", "const a = Buffer.alloc(8 << 20, 1); console.log(a.length)"],
      cwd: process.cwd(),
      env,
      stdin: "ignore",
      stderr: "ignore",
      memoryLimitMiB: 512,
    });
    expect((await new Response(child.proc.stdout).text()).trim()).toBe(String(8 << 20));
    expect(await child.exited).toBe(0);
    await child.stop();
    expect(child.memoryExceeded).toBe(false);
  });

  test("a child this process started some other way is not ended with a launch, even unmarked", async () => {
    // In gjc's own process group, so it cannot be a process of any launch (each has its session).
    const other = Bun.spawn(["sleep", "1000"], { stdio: ["ignore", "ignore", "ignore"] });
    try {
      const child = launch({
        argv: [process.execPath, "-e", ESCAPING_CHILD],
        cwd: process.cwd(),
        env,
        stdin: "ignore",
        stderr: "ignore",
      });
      const [, orphan] = (await firstLines(child.proc.stdout, 2)).map(Number);
      await child.stop();
      expect(alive(orphan)).toBe(false);
      expect(alive(other.pid)).toBe(true);
    } finally {
      other.kill("SIGKILL");
      await other.exited;
    }
  });
});
