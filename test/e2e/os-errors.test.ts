/**
 * Every verb that writes, against a target the operating system refuses: a read-only mount
 * (EROFS → read_only), a file where a folder must be (ENOTDIR/EEXIST → not_a_directory) and a
 * full disk (ENOSPC → disk_full). Each must exit 1 with the stable code and the path, never the
 * internal-error exit 70, and leave the whole world byte-for-byte as it was. Also: a reader that
 * closes the pipe early ends gjc quietly, and a stdout that cannot be written is reported.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cliEntry, runCli, type CliResult } from "../helpers/cli.ts";
import { expectedCode, readOnly, readOnlyMode } from "../helpers/read-only.ts";
import { snapshotTree, tempDir, writeTree } from "../helpers/tmp.ts";
import { runtimeBundle, skillsBundle } from "../unit/c2store/_bundles.ts";
import { makeWorld, writeBundle, type World } from "./gjc-install-fixture.ts";
import { pinServerScript } from "./mcp-pins-setup.ts";

let w: World;
afterEach(() => w?.cleanup());

const c2Data = () => w.env.GJC_C2_DATA_DIR;
const out = () => join(w.root, "out");

// The one plugin process here (a pin server) keeps its state outside the world and its sandbox:
// unconfined; what a confined one may touch is tested in test/e2e/sandbox*.test.ts.
async function gjc(args: string[], wrap?: string[]): Promise<CliResult> {
  return runCli([...args, "--json"], {
    cwd: w.project,
    env: { ...w.env, GJC_LOCK_TIMEOUT_MS: "60000", GJC_SANDBOX: "off" },
    wrap,
  });
}

async function ok(...args: string[]): Promise<CliResult> {
  const r = await gjc(args);
  expect({ args, exit: r.exitCode, stderr: r.exitCode === 0 ? "" : r.stderr }).toEqual({ args, exit: 0, stderr: "" });
  return r;
}

/** A world with one GJC bundle in the user scope, one trusted C2 runtime and an output folder. */
async function populated(): Promise<{ gjcSource: string; c2Source: string }> {
  w = makeWorld();
  mkdirSync(out());
  const gjcSource = writeBundle(join(w.root, "src", "alpha"), "alpha");
  const c2Source = writeTree(join(w.root, "src", "demo"), runtimeBundle("demo"));
  await ok("plugin", "install", gjcSource, "--user");
  await ok("plugin", "install", c2Source);
  await ok("plugin", "trust", "demo");
  return { gjcSource, c2Source };
}

/** Runs `args` with `dirs` read-only and proves the refusal and that nothing changed anywhere. */
async function refusedReadOnly(args: string[], dirs: string[], code: string = expectedCode()) {
  const before = snapshotTree(w.root);
  const ro = readOnly(dirs);
  let r: CliResult;
  try {
    r = await gjc(args, ro.prefix);
  } finally {
    ro.restore();
  }
  const error = r.exitCode === 0 ? undefined : JSON.parse(r.stderr.trim().split("\n").pop()!).error;
  expect({ args, exit: r.exitCode, code: error?.code }).toEqual({ args, exit: 1, code });
  // the message names a path inside the refused folder, and says what to do
  expect(dirs.some((d) => error.message.includes(d))).toBe(true);
  expect(error.hint.length).toBeGreaterThan(10);
  expect(r.json()).toMatchObject({ ok: false, error: { code } });
  expect(snapshotTree(w.root)).toEqual(before);
  return error;
}

describe("a read-only target", () => {
  test(`the machine can make one (mode ${readOnlyMode()}): never a silent skip`, () => {
    // "none" (root without mount namespaces) would make every sweep below meaningless
    expect(readOnlyMode()).not.toBe("none");
  });

  test("GJC verbs: install (both scopes), reinstall --force, upgrade, uninstall, enable/disable, doctor --fix", async () => {
    const { gjcSource } = await populated();
    const beta = writeBundle(join(w.root, "src", "beta"), "beta");
    await refusedReadOnly(["plugin", "install", beta, "--user"], [w.user]);
    mkdirSync(join(w.project, ".gjc"));
    await refusedReadOnly(["plugin", "install", beta, "--project"], [w.project]);
    writeBundle(gjcSource, "alpha", { body: "export default function tool() { return 2; }" });
    await refusedReadOnly(["plugin", "install", gjcSource, "--user", "--force"], [w.user]);
    await refusedReadOnly(["plugin", "upgrade", "alpha", "--user"], [w.user]);
    await refusedReadOnly(["plugin", "uninstall", "alpha", "--user"], [w.user]);
    await refusedReadOnly(["plugin", "disable", "alpha", "--user"], [w.user]);
    await refusedReadOnly(["plugin", "disable", "alpha", "--user", "--surface", "tool:alpha_tool"], [w.user]);
    // doctor --fix has something to repair: a damaged registry with its last good copy beside it
    writeFileSync(join(w.user, "registry.json"), "{ damaged");
    await refusedReadOnly(["plugin", "doctor", "--fix"], [w.user]);
  });

  test("cache prune and mcp accept: each has something to write, and cannot", async () => {
    await populated();
    // Content only another scope named: installed with another user dir (same cache), so nothing on this side keeps it.
    const stray = writeBundle(join(w.root, "src", "stray"), "stray");
    const other = await runCli(["plugin", "install", stray, "--user", "--json"], {
      cwd: w.project,
      env: { ...w.env, GJC_USER_DIR: join(w.root, "other-user") },
    });
    expect(other.exitCode).toBe(0);
    expect((await ok("plugin", "cache", "prune", "--dry-run")).json().removed).toHaveLength(1);
    const cache = join(w.home, ".cache", "gjc");
    await refusedReadOnly(["plugin", "cache", "prune"], [cache]);

    // An MCP server whose pinned tool description changed: accept would re-pin it. Its state lives outside the world.
    const state = tempDir("gjc-pin-state-");
    try {
      writeFileSync(join(state.path, "description.txt"), "Looks a word up\n");
      const src = writeBundle(join(w.root, "src", "pins"), "pins", { mcps: ["described"] });
      writeFileSync(join(src, "mcp", "described.ts"), await pinServerScript(state.path, "description"));
      await ok("plugin", "install", src, "--user");
      expect((await ok("plugin", "mcp", "probe", "pins/described")).json().pin.status).toBe("pinned");
      writeFileSync(join(state.path, "description.txt"), "Looks a word up, then uploads it\n");
      await refusedReadOnly(["plugin", "mcp", "accept", "pins/described"], [w.user]);
    } finally {
      state.cleanup();
    }
  });

  test("a fresh home: the first install cannot create the scope", async () => {
    w = makeWorld();
    const beta = writeBundle(join(w.root, "src", "beta"), "beta");
    const c2 = writeTree(join(w.root, "src", "notes"), skillsBundle("notes"));
    await refusedReadOnly(["plugin", "install", beta, "--user"], [w.home]);
    await refusedReadOnly(["plugin", "install", c2], [w.home]);
  });

  test("C2 verbs: install, trust/untrust, policy apply/reset, enable, uninstall", async () => {
    await populated();
    const notes = writeTree(join(w.root, "src", "notes"), skillsBundle("notes"));
    await refusedReadOnly(["plugin", "install", notes], [c2Data()]);
    await refusedReadOnly(["plugin", "untrust", "demo"], [c2Data()]);
    const plan = (await ok("plugin", "policy", "plan", "demo", "--state", "disabled")).json();
    await refusedReadOnly(["plugin", "policy", "apply", plan.token], [c2Data()]);
    await refusedReadOnly(["plugin", "uninstall", "demo"], [c2Data()]);
    await ok("plugin", "untrust", "demo");
    await refusedReadOnly(["plugin", "trust", "demo"], [c2Data()]);
    await ok("plugin", "disable", "demo");
    await refusedReadOnly(["plugin", "enable", "demo"], [c2Data()]);
    await ok(
      "plugin",
      "policy",
      "apply",
      (await ok("plugin", "policy", "plan", "demo", "--state", "disabled")).json().token,
    );
    await refusedReadOnly(["plugin", "policy", "reset", "demo"], [c2Data()]);
  });

  test("scaffold apply into a read-only folder", async () => {
    await populated();
    const office = writeTree(
      join(w.root, "src", "office"),
      skillsBundle("office", "1.0.0", {
        "scaffolds/report/README.md": "# Report\n",
        "scaffolds/report/docs/guide.md": "Weekly.\n",
      }),
    );
    await ok("plugin", "install", office);
    await refusedReadOnly(["plugin", "scaffold", "apply", "office/report", join(out(), "report")], [out()]);
  });

  test("plugin set verbs: lock (both scopes, --export), rollback, sync", async () => {
    const { gjcSource } = await populated();
    const agentDir = join(w.user, ".."); // the user lock and history live beside the user scope
    await refusedReadOnly(["plugin", "lock", "--user"], [agentDir]);
    mkdirSync(join(w.project, ".gjc"));
    await refusedReadOnly(["plugin", "lock", "--project"], [w.project]);
    await ok("plugin", "lock", "--user");
    await refusedReadOnly(["plugin", "lock", "--user", "--export", join(out(), "set.tgz")], [out()]);
    // a second generation to roll back from, then a lock that the scope no longer matches
    writeBundle(gjcSource, "alpha", { body: "export default function tool() { return 2; }" });
    await ok("plugin", "install", gjcSource, "--user", "--force");
    await refusedReadOnly(["plugin", "rollback", "alpha", "--user"], [agentDir]);
    await ok("plugin", "uninstall", "alpha", "--user");
    await refusedReadOnly(["plugin", "sync", "--user"], [agentDir]);
  });

  test("authoring verbs: init (both families) and pack", async () => {
    const { gjcSource } = await populated();
    await refusedReadOnly(["plugin", "init", join(out(), "new-gjc"), "--family", "gjc"], [out()]);
    await refusedReadOnly(["plugin", "init", join(out(), "new-c2"), "--family", "c2"], [out()]);
    await refusedReadOnly(["plugin", "pack", gjcSource, "-o", join(out(), "alpha.tgz")], [out()]);
  });
});

describe("a file where a folder must be", () => {
  test("scope roots, the C2 data folder, init and pack outputs under a file: not_a_directory, naming the file", async () => {
    w = makeWorld();
    const beta = writeBundle(join(w.root, "src", "beta"), "beta");
    const notes = writeTree(join(w.root, "src", "notes"), skillsBundle("notes"));
    const blocker = join(w.root, "a-file");
    writeFileSync(blocker, "not a folder\n");
    const refuse = async (args: string[], env: Record<string, string> = {}) => {
      const before = snapshotTree(w.root);
      const r = await runCli([...args, "--json"], { cwd: w.project, env: { ...w.env, ...env } });
      const error = JSON.parse(r.stderr.trim().split("\n").pop()!).error;
      expect({ args, exit: r.exitCode, code: error.code }).toEqual({ args, exit: 1, code: "not_a_directory" });
      expect(error.message).toContain(blocker);
      expect(snapshotTree(w.root)).toEqual(before);
    };
    await refuse(["plugin", "install", beta, "--user"], { GJC_USER_DIR: join(blocker, "gjc-plugins") });
    await refuse(["plugin", "install", beta, "--user"], { GJC_USER_DIR: blocker });
    await refuse(["plugin", "install", notes], { GJC_C2_DATA_DIR: join(blocker, "c2") });
    await refuse(["plugin", "init", join(blocker, "new"), "--family", "gjc"]);
    await refuse(["plugin", "pack", beta, "-o", join(blocker, "beta.tgz")]);
  });
});

describe("a full disk", () => {
  for (const family of ["gjc", "c2"] as const) {
    test(`a ${family} install that runs out of space mid-copy: disk_full, and the scope keeps only what it had`, async () => {
      expect(readOnlyMode()).toMatch(/mount/); // a size-limited tmpfs needs a mount namespace
      w = makeWorld();
      const blob = "x".repeat(600_000);
      const big =
        family === "gjc"
          ? writeBundle(join(w.root, "src", "big"), "big", {
              tools: ["big_tool"],
              body: `export const blob = "${blob}";`,
            })
          : writeTree(join(w.root, "src", "big"), skillsBundle("big", "1.0.0", { "data/blob.txt": blob }));
      const target = family === "gjc" ? w.user : c2Data();
      mkdirSync(target, { recursive: true });
      const listing = join(w.root, "after.txt");
      // a 256 KiB tmpfs over the scope, only for this child; the listing is taken inside it
      const script =
        'mount -t tmpfs -o size=256k tmpfs "$1" || exit 97; d="$1"; l="$2"; shift 2; "$@"; rc=$?; ls -A "$d" > "$l"; exit $rc';
      const prefix = [
        "unshare",
        ...(readOnlyMode() === "user-mount" ? ["--user", "--map-root-user"] : []),
        "--mount",
        "--propagation",
        "private",
        "--",
        "sh",
        "-c",
        script,
        "sh",
        target,
        listing,
      ];
      const r = await runCli(["plugin", "install", big, ...(family === "gjc" ? ["--user"] : []), "--json"], {
        cwd: w.project,
        env: w.env,
        wrap: prefix,
      });
      const error = JSON.parse(r.stderr.trim().split("\n").pop()!).error;
      expect({ exit: r.exitCode, code: error.code }).toEqual({ exit: 1, code: "disk_full" });
      expect(error.message).toContain(target);
      // nothing half-written is left: no content directory, no staging, no registry, no lock
      expect(readFileSync(listing, "utf8")).toBe("");
    });
  }
});

describe("standard output", () => {
  test("a reader that closes the pipe early ends gjc quietly: no EPIPE, no stack, the command's own exit", async () => {
    w = makeWorld();
    // enough output to outgrow the pipe buffer: a bundle listing 1,500 files in --json (~200 KB)
    const files = Object.fromEntries(Array.from({ length: 1500 }, (_, i) => [`data/f${i}.txt`, `${i}\n`]));
    const bundle = writeTree(join(w.root, "big"), skillsBundle("big", "1.0.0", files));
    const err = join(w.root, "stderr.txt");
    const rc = join(w.root, "rc.txt");
    const q = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;
    const cmd = `{ ${q(process.execPath)} ${q(cliEntry)} plugin validate ${q(bundle)} --json 2>${q(err)}; echo $? >${q(rc)}; } | head -c 16`;
    const proc = Bun.spawn(["sh", "-c", cmd], {
      env: { ...process.env, ...w.env, NO_COLOR: "1" },
      stdout: "pipe",
      stderr: "pipe",
    });
    const [head] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
    expect(head).toBe('{\n  "schema": "g');
    expect(readFileSync(err, "utf8")).toBe("");
    expect(readFileSync(rc, "utf8").trim()).toBe("0");
  });

  test("a stdout that cannot be written (a full device) is reported as disk_full, exit 1", async () => {
    w = makeWorld();
    const bundle = writeTree(join(w.root, "b"), skillsBundle("b"));
    const proc = Bun.spawn(
      ["sh", "-c", `exec "$@" > /dev/full`, "sh", process.execPath, cliEntry, "plugin", "validate", bundle],
      { env: { ...process.env, ...w.env, NO_COLOR: "1" }, stdout: "pipe", stderr: "pipe" },
    );
    const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
    expect(code).toBe(1);
    expect(stderr).toContain("error[disk_full]");
    expect(stderr).not.toContain("Internal error");
    rmSync(join(w.root, "b"), { recursive: true });
  });
});
