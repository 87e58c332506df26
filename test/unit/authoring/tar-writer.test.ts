import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { writeTar } from "../../../src/authoring/tar-writer.ts";
import { tempDirsPerTest } from "../../helpers/tmp.ts";

const fresh = tempDirsPerTest();

/** Lets the system's GNU tar read what we wrote: names, modes and contents must round-trip. */
function extractWithSystemTar(archive: Uint8Array) {
  const d = fresh();
  writeFileSync(join(d, "a.tar"), archive);
  const list = Bun.spawnSync(["tar", "-tvf", join(d, "a.tar")]);
  expect(list.exitCode).toBe(0);
  const x = Bun.spawnSync(["tar", "-xf", "a.tar", "-C", d, "--no-same-owner"], { cwd: d });
  expect(x.exitCode).toBe(0);
  return { dir: d, listing: list.stdout.toString() };
}

describe("writeTar", () => {
  test("round-trips through GNU tar with modes, fixed owner and time", () => {
    const archive = writeTar([
      { path: "bin/run", bytes: new TextEncoder().encode("#!/bin/sh\n"), executable: true },
      { path: "plugin.json", bytes: new TextEncoder().encode("{}\n"), executable: false },
    ]);
    expect(archive.length % 512).toBe(0);
    const { dir, listing } = extractWithSystemTar(archive);
    expect(listing).toContain("-rwxr-xr-x 0/0");
    expect(listing).toContain("-rw-r--r-- 0/0");
    expect(listing).toContain("2000-01-01");
    expect(readFileSync(join(dir, "plugin.json"), "utf8")).toBe("{}\n");
  });

  test("long paths use the ustar prefix, and paths beyond it a PAX record", () => {
    const mid = `${"d".repeat(120)}/${"f".repeat(90)}`;
    const long = `${"x".repeat(200)}/${"y".repeat(150)}/${"z".repeat(120)}.txt`;
    const archive = writeTar([
      { path: mid, bytes: new TextEncoder().encode("mid"), executable: false },
      { path: long, bytes: new TextEncoder().encode("long"), executable: false },
    ]);
    const { dir } = extractWithSystemTar(archive);
    expect(readFileSync(join(dir, mid), "utf8")).toBe("mid");
    expect(readFileSync(join(dir, long), "utf8")).toBe("long");
  });

  test("is byte-for-byte deterministic", () => {
    const entries = [{ path: "a", bytes: new Uint8Array([1, 2, 3]), executable: false }];
    expect(writeTar(entries)).toEqual(writeTar(entries));
  });
});
