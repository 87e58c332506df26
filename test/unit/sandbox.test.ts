import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { sandbox, spawnScoped } from "../helpers/sandbox.ts";
import { waitFor } from "../helpers/wait.ts";

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Alive and not a zombie (Linux: the state field of /proc/<pid>/stat). */
const running = (pid: number) => {
  if (!alive(pid)) return false;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return alive(pid);
  }
};

describe("test sandbox helper", () => {
  test("a sandbox points gjc at its own home, scopes and TMPDIR, and `using` removes it all", async () => {
    let root: string;
    {
      using s = sandbox();
      root = s.root;
      expect(s.user).toBe(join(s.home, ".gjc", "agent", "gjc-plugins"));
      expect(s.c2).toBe(join(s.home, ".codetwo"));
      expect(existsSync(s.tmp) && existsSync(s.project)).toBe(true);
      const bundle = s.write("src/notes", {
        "plugin.json": {
          $schema: "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json",
          name: "notes",
          version: "1.0.0",
          extensions: { "dev.codetwo": { standardVersion: "1.2.0" } },
        },
        "skills/n/SKILL.md": "---\nname: n\ndescription: Notes.\n---\nWrite notes.\n",
      });
      const r = await s.gjc(["plugin", "install", bundle, "--json"]);
      expect(r.exitCode).toBe(0);
      expect(readdirSync(join(s.c2, "plugins")).some((n) => n.startsWith("notes-"))).toBe(true);
      expect(
        (await s.gjc(["plugin", "list", "--json"]))
          .json()
          .bundles.map((b: { family: string; name: string }) => `${b.family}:${b.name}`),
      ).toEqual(["c2:notes"]);
    }
    expect(existsSync(root)).toBe(false);
  });

  test("`await using` a scoped process kills its whole group, a grandchild included, and reaps it", async () => {
    let grandchild = 0;
    let child: ReturnType<typeof spawnScoped>["proc"] | undefined;
    {
      await using proc = spawnScoped(["sh", "-c", "sleep 300 & echo $!; wait"]);
      child = proc.proc;
      const reader = proc.proc.stdout.getReader();
      const { value } = await reader.read();
      reader.releaseLock();
      grandchild = Number(new TextDecoder().decode(value).trim());
      expect(alive(grandchild)).toBe(true);
    }
    expect(child!.exitCode !== null || child!.signalCode !== null).toBe(true);
    // The grandchild was SIGKILLed with the group. Its zombie goes to init, or to this test process
    // when an earlier in-process launch made it a subreaper (nothing here waits for it), so
    // killed means gone or a zombie.
    await waitFor(() => !running(grandchild), "the grandchild to be killed", 5000);
  });
});
