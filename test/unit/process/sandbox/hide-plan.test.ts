import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { coveredFolders, HIDDEN_DIRS, hidePlan } from "../../../../src/process/sandbox/hide-plan.ts";
import { cString, openLibc, realPath } from "../../../../src/process/sandbox/libc.ts";
import { tempDir } from "../../../helpers/tmp.ts";

const tmp = tempDir("gjc-hide-plan-");
afterAll(() => tmp.cleanup());

const none = { read: [], readNoExec: [], devices: [], write: [] };

describe("what the stage covers and binds back", () => {
  test("the home, the invoking TMPDIR and the shared folders are covered; a relative TMPDIR is not a folder", () => {
    expect(coveredFolders({ HOME: "/home/u", TMPDIR: "tmp" })).toEqual(["/home/u", ...HIDDEN_DIRS]);
    expect(coveredFolders({ HOME: "/home/u", TMPDIR: "/scratch" })).toEqual(["/home/u", "/scratch", ...HIDDEN_DIRS]);
  });

  test("paths beneath a covered folder are bound back, each once and only the topmost; one reached through a link counts where it leads", () => {
    // A made-up tree: every path is itself, but the link in the home leads into /tmp.
    const links: Record<string, string> = { "/opt/data-link": "/tmp/real-data" };
    const real = (p: string) => (p === "/gone" ? undefined : (links[p] ?? p));
    const plan = hidePlan(
      {
        read: ["/usr", "/home/u/bundle", "/home/u/bundle/sub", "/gone"],
        readNoExec: ["/proc"],
        devices: ["/dev/null"],
        write: ["/opt/data-link", "/tmp/gjc-sandbox-1"],
      },
      ["/home/u", "/tmp", "/run", "/gone"],
      real,
    );
    expect(plan).toEqual({
      hide: ["/tmp", "/run", "/home/u"],
      keep: ["/home/u/bundle", "/tmp/real-data", "/tmp/gjc-sandbox-1"],
    });
  });

  test("a covered folder inside another (a home in /tmp) is covered once, by the outer one; a path named twice is bound back once", () => {
    const real = (p: string) => p;
    expect(
      hidePlan(
        { ...none, read: ["/tmp/box/home/b", "/tmp/box/home/b"], write: ["/tmp/t"] },
        ["/tmp/box/home", "/tmp", "/tmp"],
        real,
      ),
    ).toEqual({ hide: ["/tmp"], keep: ["/tmp/t", "/tmp/box/home/b"] });
  });

  test("a grant of a covered folder itself, or of one holding it, leaves that folder uncovered; / is never covered", () => {
    const real = (p: string) => p;
    expect(hidePlan({ ...none, write: ["/home/u"] }, ["/home/u", "/tmp"], real)).toEqual({ hide: ["/tmp"], keep: [] });
    expect(hidePlan({ ...none, read: ["/home"] }, ["/home/u", "/tmp"], real)).toEqual({ hide: ["/tmp"], keep: [] });
    expect(hidePlan(none, ["/", "/tmp"], real)).toEqual({ hide: ["/tmp"], keep: [] });
  });

  test("libc's realpath resolves links as the file system has them, and has no answer for what is not there", () => {
    const c = openLibc();
    expect(c).not.toBeNull();
    const target = join(tmp.path, "target");
    mkdirSync(target);
    writeFileSync(join(target, "f"), "x");
    symlinkSync(target, join(tmp.path, "link"));
    expect(realPath(c!, join(tmp.path, "link", "f"))).toBe(realpathSync(join(target, "f")));
    expect(realPath(c!, join(tmp.path, "missing"))).toBeUndefined();
  });
});

describe("C strings", () => {
  test("a string holding a NUL is refused, not cut short (a rule for /a\\0/b would grant all of /a)", () => {
    expect(() => cString("/tmp/a\0/b")).toThrow("NUL");
    expect([...cString("/tmp/a")]).toEqual([...new TextEncoder().encode("/tmp/a"), 0]);
  });
});
