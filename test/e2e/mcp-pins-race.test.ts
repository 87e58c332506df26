/** MCP pin writes take the scope's store lock: concurrent probes keep every pin (issue #15). */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { sandbox, spawnScoped } from "../helpers/sandbox.ts";
import { pinHome } from "./mcp-pins-setup.ts";

const t = sandbox("gjc-pins-race-");
let h: Awaited<ReturnType<typeof pinHome>>;
beforeAll(async () => {
  h = await pinHome(t);
});
afterAll(() => t.cleanup());

const pinFile = () => join(h.userDir, "mcp-pins.json");

describe("MCP pin writes under the store lock", () => {
  test("two probes of two servers run as two processes at once: both pins are kept, every time", async () => {
    for (let round = 0; round < 3; round++) {
      rmSync(pinFile(), { force: true });
      const [a, b] = await Promise.all([
        h.cli(["plugin", "mcp", "probe", "pin-bundle/described", "--json"]),
        h.cli(["plugin", "mcp", "probe", "pin-bundle/growing", "--json"]),
      ]);
      expect([a.exitCode, b.exitCode]).toEqual([0, 0]);
      expect([a.json().pin.status, b.json().pin.status]).toEqual(["pinned", "pinned"]);
      const pins = JSON.parse(readFileSync(pinFile(), "utf8"));
      expect(Object.keys(pins.servers).sort()).toEqual([
        "gjc:user:pin-bundle/described",
        "gjc:user:pin-bundle/growing",
      ]);
      expect(existsSync(join(h.userDir, "registry.lock"))).toBe(false);
    }
  });

  test("a busy scope lock refuses the pin write with lock_busy (exit 5) and writes no pin", async () => {
    {
      // The holder keeps the lock until this block ends.
      await using held = spawnScoped(
        [process.execPath, join(import.meta.dir, "../unit/store/lock-child.ts"), "hold", h.userDir],
        { stdin: "pipe" },
      );
      const holder = held.proc;
      const reader = holder.stdout.getReader();
      expect(new TextDecoder().decode((await reader.read()).value)).toBe("held\n");
      rmSync(pinFile());
      const r = await h.cli(["plugin", "mcp", "probe", "pin-bundle/described", "--json"], { GJC_LOCK_TIMEOUT_MS: "0" });
      expect(r.exitCode).toBe(5);
      expect(JSON.parse(r.stderr.trim().split("\n").pop()!).error.code).toBe("lock_busy");
      expect(existsSync(pinFile())).toBe(false);
      // Released as a holder does (the lock removed), not left behind by a kill.
      holder.stdin!.end();
      await holder.exited;
    }
    expect((await h.cli(["plugin", "mcp", "probe", "pin-bundle/described", "--json"])).json().pin.status).toBe(
      "pinned",
    );
  });
});
