import { describe, expect, test } from "bun:test";
import { chmodSync, cpSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCli } from "../helpers/cli.ts";
import { sandboxPerTest } from "../helpers/sandbox.ts";
import { snapshotTree, tempDirsPerTest } from "../helpers/tmp.ts";

const fresh = tempDirsPerTest();
const box = sandboxPerTest();

async function scaffold(root: string, name: string, family: "c2" | "gjc", runtime?: string) {
  const r = await runCli(["plugin", "init", name, "--family", family, ...(runtime ? ["--runtime", runtime] : [])], {
    cwd: root,
  });
  expect(r.exitCode).toBe(0);
  return join(root, name);
}

function tarListing(file: string): string[] {
  const p = Bun.spawnSync(["tar", "-tzvf", file]);
  expect(p.exitCode).toBe(0);
  return p.stdout.toString().trim().split("\n");
}

describe("gjc plugin pack", () => {
  test("packing the same folder twice, or a copy with other times and umask, gives identical bytes", async () => {
    const root = fresh();
    const dir = await scaffold(root, "demo", "c2", "node");
    const a = await runCli(["plugin", "pack", dir, "-o", join(root, "a.tgz"), "--json"]);
    const b = await runCli(["plugin", "pack", dir, "-o", join(root, "b.tgz"), "--json"]);
    expect(a.exitCode).toBe(0);
    expect(readFileSync(join(root, "a.tgz"))).toEqual(readFileSync(join(root, "b.tgz")));
    expect(a.json().sha256).toBe(b.json().sha256);
    const copy = join(fresh(), "demo");
    cpSync(dir, copy, { recursive: true });
    utimesSync(join(copy, "plugin.json"), new Date(2030, 1, 1), new Date(2030, 1, 1));
    chmodSync(join(copy, "README.md"), 0o600);
    const c = await runCli(["plugin", "pack", copy, "-o", join(root, "c.tgz"), "--json"]);
    expect(c.json().sha256).toBe(a.json().sha256);
    expect(new Bun.CryptoHasher("sha256").update(readFileSync(join(root, "a.tgz"))).digest("hex")).toBe(
      a.json().sha256,
    );
  });

  test("C2: the archive holds exactly the collected files, sorted, root-owned, fixed time", async () => {
    const root = fresh();
    const dir = await scaffold(root, "demo", "c2", "bun");
    writeFileSync(join(dir, "bin-tool"), "#!/bin/sh\n");
    chmodSync(join(dir, "bin-tool"), 0o755);
    const r = await runCli(["plugin", "pack", dir, "--json"]);
    expect(r.exitCode).toBe(0);
    expect(r.json().file).toBe(join(root, "demo-0.1.0.tgz"));
    const listing = tarListing(r.json().file);
    const names = listing.map((l) => l.split(/\s+/).pop());
    expect(names).toEqual([...names].sort());
    expect(names).toContain("bin-tool");
    expect(listing.every((l) => l.includes(" 0/0 ") && l.includes("2000-01-01"))).toBe(true);
    expect(listing.find((l) => l.endsWith("bin-tool"))).toStartWith("-rwxr-xr-x");
  });

  test("GJC: only declared files are packed (an undeclared README stays out)", async () => {
    const root = fresh();
    const dir = await scaffold(root, "gb", "gjc");
    const r = await runCli(["plugin", "pack", dir, "--json"]);
    expect(r.exitCode).toBe(0);
    const names = tarListing(r.json().file).map((l) => l.split(/\s+/).pop());
    expect(names).toEqual([
      "gajae-plugin.json",
      "prompts/system-appendix.md",
      "subskills/gb/SKILL.md",
      "tools/hello.ts",
    ]);
  });

  test("an invalid bundle is refused with validate's first error code, and nothing is written", async () => {
    const root = fresh();
    const dir = await scaffold(root, "bad", "c2");
    writeFileSync(join(dir, "plugin.json"), JSON.stringify({ name: "bad" }));
    const before = snapshotTree(root);
    const r = await runCli(["plugin", "pack", dir, "--json"]);
    expect(r.exitCode).toBe(1);
    // The same mistake gets the same answer as validate and install give for it.
    const firstError = (await runCli(["plugin", "validate", dir, "--json"]))
      .json()
      .diagnostics.find((d: { severity: string }) => d.severity === "error");
    expect(r.json().error.code).toBe(firstError.code);
    expect(snapshotTree(root)).toEqual(before);
  });

  test("an output inside the bundle is refused (exit 2) and nothing is written", async () => {
    const root = fresh();
    const dir = await scaffold(root, "inside", "gjc");
    const before = snapshotTree(root);
    const r = await runCli(["plugin", "pack", dir, "-o", join(dir, "out.tgz")]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("pack_output_inside_bundle");
    expect(snapshotTree(root)).toEqual(before);
  });
});

describe("gjc plugin install <packed.tgz> --sha256", () => {
  test("a GJC and a C2 archive install when the digest matches, and verify clean", async () => {
    const s = box();
    const root = s.root;
    for (const [name, family] of [
      ["gb", "gjc"],
      ["cb", "c2"],
    ] as const) {
      const dir = await scaffold(root, name, family);
      const pack = (await runCli(["plugin", "pack", dir, "--json"])).json();
      const args = [
        "plugin",
        "install",
        pack.file,
        "--sha256",
        pack.sha256.toUpperCase(),
        "--json",
        ...(family === "gjc" ? ["--user"] : []),
      ];
      const r = await s.gjc(args, { cwd: root });
      expect(r.exitCode).toBe(0);
      expect(r.json().family).toBe(family);
    }
    const verify = await s.gjc(["plugin", "verify", "--json"], { cwd: root });
    expect(verify.exitCode).toBe(0);
  });

  test("a wrong digest is refused before anything is written (exit 3, hash_mismatch)", async () => {
    const s = box();
    const root = s.root;
    const dir = await scaffold(root, "gb", "gjc");
    const pack = (await runCli(["plugin", "pack", dir, "--json"])).json();
    const scopes = () => ({ user: snapshotTree(s.user), c2: snapshotTree(s.c2), bundle: snapshotTree(dir) });
    const before = scopes();
    const wrong = "0".repeat(64);
    const r = await s.gjc(["plugin", "install", pack.file, "--sha256", wrong, "--user", "--json"], { cwd: root });
    expect(r.exitCode).toBe(3);
    expect(r.json().error.code).toBe("hash_mismatch");
    expect(scopes()).toEqual(before);
    // The fetch scratch root may exist, but holds no file.
    expect(Object.values(snapshotTree(s.tmp)).filter((v) => v.startsWith("file"))).toEqual([]);
  });

  test("--sha256 on a directory, a malformed digest, or with a catalog entry is a usage error", async () => {
    const s = box();
    const root = s.root;
    const dir = await scaffold(root, "gb", "gjc");
    const scopes = () => ({ user: snapshotTree(s.user), c2: snapshotTree(s.c2), tmp: snapshotTree(s.tmp) });
    const before = scopes();
    const onDir = await s.gjc(["plugin", "install", dir, "--sha256", "a".repeat(64), "--user"], { cwd: root });
    expect(onDir.exitCode).toBe(2);
    const malformed = await s.gjc(["plugin", "install", join(root, "x.tgz"), "--sha256", "xyz", "--user"], {
      cwd: root,
    });
    expect(malformed.exitCode).toBe(2);
    const catalog = await s.gjc(["plugin", "install", "gb@./nowhere", "--sha256", "a".repeat(64)], { cwd: root });
    expect(catalog.exitCode).toBe(2);
    expect(scopes()).toEqual(before);
  });
});

describe("catalog archive entries that ship beside the catalog", () => {
  async function catalogWithArchive(
    root: string,
    sha256: (real: string) => string | undefined,
    url = "./dist/cb-0.1.0.tgz",
  ) {
    const dir = await scaffold(root, "cb", "c2");
    const cat = join(root, "catalog");
    const pack = (await runCli(["plugin", "pack", dir, "-o", join(cat, "dist", "cb-0.1.0.tgz"), "--json"])).json();
    const digest = sha256(pack.sha256);
    writeFileSync(
      join(cat, "marketplace.json"),
      JSON.stringify({
        standardVersion: "1.0.0",
        name: "offline",
        plugins: [
          { name: "cb", version: "0.1.0", source: { kind: "archive", url, ...(digest ? { sha256: digest } : {}) } },
        ],
      }),
    );
    return cat;
  }
  test("validate accepts it, and install with the catalog's sha256 works offline", async () => {
    const s = box();
    const root = s.root;
    const cat = await catalogWithArchive(root, (real) => real);
    expect((await runCli(["marketplace", "validate", cat])).exitCode).toBe(0);
    const r = await s.gjc(["plugin", "install", `cb@${cat}`, "--json"], { cwd: root });
    expect(r.exitCode).toBe(0);
    expect(r.json().family).toBe("c2");
  });

  test("a wrong catalog sha256 is refused and the C2 data directory stays as it was", async () => {
    const s = box();
    const root = s.root;
    const cat = await catalogWithArchive(root, () => "f".repeat(64));
    const before = snapshotTree(s.c2);
    const r = await s.gjc(["plugin", "install", `cb@${cat}`, "--json"], { cwd: root });
    expect(r.exitCode).toBe(3);
    expect(r.json().error.code).toBe("hash_mismatch");
    expect(snapshotTree(s.c2)).toEqual(before);
  });

  test("an archive path that leaves the catalog's folder is invalid", async () => {
    const root = fresh();
    const cat = await catalogWithArchive(root, (real) => real, "./../outside.tgz");
    const v = await runCli(["marketplace", "validate", cat, "--json"]);
    expect(v.exitCode).toBe(1);
    expect(v.json().diagnostics.map((d: { code: string }) => d.code)).toContain("invalid_plugin_entry");
  });
});
