import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { GjcError } from "../../../src/core/errors.ts";
import { connectStdioServer, probeStdioServer } from "../../../src/mcp/stdio.ts";
import { snapshotTree, tempDir } from "../../helpers/tmp.ts";
import { bundleWith, pidAlive, sdkServerBuild, waitGroupGone } from "./fixture-servers.ts";

const tmp = tempDir("gjc-mcp-stdio-");
let sdkServer: string;

beforeAll(async () => {
  sdkServer = await sdkServerBuild();
});
afterAll(() => tmp.cleanup());

let n = 0;
const freshRoot = () => join(tmp.path, `bundle-${++n}`);
/** Our private scratch parent for these servers (a bun server's empty bunfig goes there). */
const scratchParent = join(tmp.path, "scratch");
/**
 * The sandbox of a server of a bundle at `root`, with the write grant to its own folder that
 * these fixtures need (the misbehaving ones record their daemons' pids next to themselves).
 */
const confinedTo = (root: string) => ({
  subject: { bundle: "fixture", process: { kind: "server" as const, id: "s" } },
  profile: { read: [root], write: [root], net: [] },
});

/** Runs a probe expected to fail; returns the error and proves the process group is gone. */
async function failingProbe(
  root: string,
  launch: { command: string; args?: string[]; cwd?: string },
  timeoutMs = 10_000,
) {
  let pid: number | undefined;
  let error: unknown;
  try {
    await probeStdioServer({
      root,
      scratchParent,
      sandbox: confinedTo(root),
      hostEnv: process.env,
      launch,
      timeoutMs,
      label: 'MCP server "bad"',
      onSpawn: (p) => (pid = p),
    });
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(GjcError);
  if (pid !== undefined) expect(await waitGroupGone(pid)).toBe(true);
  return { error: error as GjcError, pid };
}

describe("probeStdioServer against the SDK server", () => {
  test("bun: initialize, initialized, tools/list, and nothing left running", async () => {
    const root = bundleWith(freshRoot(), { "mcp/server.mjs": sdkServer });
    let pid = 0;
    const result = await probeStdioServer({
      root,
      scratchParent,
      sandbox: confinedTo(root),
      hostEnv: process.env,
      launch: { command: "bun", args: ["mcp/server.mjs"] },
      onSpawn: (p) => (pid = p),
    });
    expect(result.serverInfo).toEqual({ name: "fixture-sdk-server", version: "1.2.3" });
    expect(result.protocolVersion).toBe("2025-06-18");
    expect(result.tools.map((t) => t.name)).toEqual(["echo", "env_names", "cwd"]);
    expect(result.tools[0].inputSchema).toMatchObject({ type: "object", required: ["text"] });
    expect(result.stderr).toContain("fixture-sdk-server: listening on stdio");
    expect(await waitGroupGone(pid)).toBe(true);
  });

  test("node launcher with a cwd: the script is found through cwd and runs there", async () => {
    const root = bundleWith(freshRoot(), { "mcp/server.mjs": sdkServer });
    let pid: number;
    {
      await using conn = await connectStdioServer({
        root,
        scratchParent,
        sandbox: confinedTo(root),
        hostEnv: process.env,
        launch: { command: "node", args: ["server.mjs"], cwd: "mcp" },
      });
      pid = conn.pid;
      const cwd = await conn.callTool("cwd", {}, 5000);
      expect(cwd.content).toEqual([{ type: "text", text: join(root, "mcp") }]);
    }
    expect(await waitGroupGone(pid)).toBe(true);
  });

  test("a bundled ./executable is launched from the bundle", async () => {
    const root = bundleWith(freshRoot(), { "mcp/server.mjs": sdkServer });
    writeFileSync(join(root, "run-server"), "#!/bin/sh\nexec bun ./mcp/server.mjs\n");
    chmodSync(join(root, "run-server"), 0o755);
    const result = await probeStdioServer({
      root,
      scratchParent,
      sandbox: confinedTo(root),
      hostEnv: process.env,
      launch: { command: "./run-server" },
    });
    expect(result.tools).toHaveLength(3);
  });

  test("a host secret is not in the child's environment; allow-listed variables are", async () => {
    const root = bundleWith(freshRoot(), { "server.mjs": sdkServer });
    const hostEnv = {
      ...process.env,
      GJC_TEST_SECRET_TOKEN: "s3cr3t-value",
      AWS_SECRET_ACCESS_KEY: "x",
      LANG: "C.UTF-8",
    };
    await using conn = await connectStdioServer({
      root,
      scratchParent,
      sandbox: confinedTo(root),
      launch: { command: "bun", args: ["server.mjs"] },
      hostEnv,
    });
    const reply = await conn.callTool("env_names", {}, 5000);
    const names = JSON.parse((reply.content as { text: string }[])[0].text) as string[];
    expect(names).not.toContain("GJC_TEST_SECRET_TOKEN");
    expect(names).not.toContain("AWS_SECRET_ACCESS_KEY");
    expect(names).toContain("PATH");
    expect(names).toContain("LANG");
    expect(
      names.filter(
        (k) =>
          ![
            "PATH",
            "HOME",
            "USER",
            "LOGNAME",
            "SHELL",
            "LANG",
            "LANGUAGE",
            "LC_ALL",
            "LC_CTYPE",
            "LC_MESSAGES",
            "TERM",
            "TZ",
            "TMPDIR",
            "TEMP",
            "TMP",
            "BUN_BE_BUN",
            "GJC_PROCESS_TREE",
          ].includes(k),
      ),
    ).toEqual([]);
  });

  test("bun ignores a shipped bunfig.toml preload and .env", async () => {
    const root = bundleWith(freshRoot(), { "server.mjs": sdkServer });
    const sentinel = join(tmp.path, `preload-ran-${n}`);
    writeFileSync(join(root, "preload.ts"), `require("node:fs").writeFileSync(${JSON.stringify(sentinel)}, "ran");\n`);
    writeFileSync(join(root, "bunfig.toml"), 'preload = ["./preload.ts"]\n');
    writeFileSync(join(root, ".env"), "INJECTED_FROM_DOTENV=1\n");
    {
      await using conn = await connectStdioServer({
        root,
        scratchParent,
        sandbox: confinedTo(root),
        hostEnv: process.env,
        launch: { command: "bun", args: ["server.mjs"] },
      });
      const reply = await conn.callTool("env_names", {}, 5000);
      expect((reply.content as { text: string }[])[0].text).not.toContain("INJECTED_FROM_DOTENV");
    }
    expect(existsSync(sentinel)).toBe(false);
  });
});

describe("the launcher policy is re-checked against the installed root", () => {
  test("a script that is a symlink is refused before anything runs", async () => {
    const root = bundleWith(freshRoot(), { "real.mjs": sdkServer });
    const { symlinkSync } = await import("node:fs");
    symlinkSync(join(root, "real.mjs"), join(root, "server.mjs"));
    const before = snapshotTree(root);
    const { error, pid } = await failingProbe(root, { command: "bun", args: ["server.mjs"] });
    expect(error.code).toBe("security_policy");
    expect(error.exit).toBe(3);
    expect(error.message).toContain("symbolic link");
    expect(pid).toBeUndefined();
    expect(snapshotTree(root)).toEqual(before);
  });

  test("a shell command is refused with exit 3", async () => {
    const root = freshRoot();
    const { error, pid } = await failingProbe(root, { command: "sh", args: ["-c", "echo hi"] });
    expect(error.code).toBe("security_policy");
    expect(pid).toBeUndefined();
  });

  test("bun servers run on our own runtime, so bun need not be on PATH", async () => {
    const root = bundleWith(freshRoot(), { "server.mjs": sdkServer });
    const result = await probeStdioServer({
      root,
      scratchParent,
      sandbox: confinedTo(root),
      launch: { command: "bun", args: ["server.mjs"] },
      hostEnv: { PATH: join(tmp.path, "empty-path") },
    });
    expect(result.serverInfo.name).toBe("fixture-sdk-server");
  });

  test("a missing launcher on PATH is a clear error", async () => {
    const root = bundleWith(freshRoot(), { "server.mjs": sdkServer });
    let error: unknown;
    try {
      await probeStdioServer({
        root,
        scratchParent,
        sandbox: confinedTo(root),
        launch: { command: "node", args: ["server.mjs"] },
        hostEnv: { PATH: join(tmp.path, "empty-path") },
      });
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ code: "mcp_launcher_missing" });
  });
});

describe("misbehaving servers end with a clear error and no process left", () => {
  test("never answers: timeout", async () => {
    const root = bundleWith(freshRoot(), { "s.ts": "misbehaving/silent.ts" });
    const { error } = await failingProbe(root, { command: "bun", args: ["s.ts"] }, 1500);
    expect(error.code).toBe("mcp_timeout");
    expect(error.message).toContain("did not answer initialize");
    expect((error.details as { stderr: string }).stderr).toContain("silent: reading stdin");
  });

  test("prints non-JSON on stdout", async () => {
    const root = bundleWith(freshRoot(), { "s.ts": "misbehaving/non-json.ts" });
    const { error } = await failingProbe(root, { command: "bun", args: ["s.ts"] });
    expect(error.code).toBe("mcp_protocol");
    expect(error.message).toContain('not JSON on stdout: "Server starting... ready!"');
  });

  test("exits in the middle of a request", async () => {
    const root = bundleWith(freshRoot(), { "s.ts": "misbehaving/exits-mid-request.ts" });
    const { error } = await failingProbe(root, { command: "bun", args: ["s.ts"] });
    expect(error.code).toBe("mcp_server_exited");
    expect(error.message).toContain("exited with code 3");
    expect(error.message).toContain("exits-mid-request: giving up");
  });

  test("takes more memory than a checked server may hold: stopped, and the error says why", async () => {
    const root = bundleWith(freshRoot(), { "s.ts": "misbehaving/memory-hog.ts" });
    const { error } = await failingProbe(root, { command: "bun", args: ["s.ts"] }, 60_000);
    expect(error.code).toBe("mcp_server_exited");
    expect(error.message).toContain("held more than 1024 MiB of memory and was stopped");
  });

  test("floods stdout with notifications", async () => {
    const root = bundleWith(freshRoot(), { "s.ts": "misbehaving/flood.ts" });
    const { error } = await failingProbe(root, { command: "bun", args: ["s.ts"] });
    expect(error.code).toBe("mcp_protocol");
    expect(error.message).toContain("without answering ours");
  });

  test("writes a line over 1 MiB", async () => {
    const root = bundleWith(freshRoot(), { "s.ts": "misbehaving/huge-line.ts" });
    const { error } = await failingProbe(root, { command: "bun", args: ["s.ts"] });
    expect(error.code).toBe("mcp_frame_too_large");
  });

  test("leaves a grandchild that ignores SIGTERM: the whole group is killed", async () => {
    const root = bundleWith(freshRoot(), { "s.ts": "misbehaving/grandchild.ts" });
    let grandchild = 0;
    let stderrSeen = "";
    const { error } = await failingProbe(root, { command: "bun", args: ["s.ts"] }, 2000);
    expect(error.code).toBe("mcp_timeout");
    stderrSeen = (error.details as { stderr: string }).stderr;
    expect(stderrSeen).toContain("grandchild: spawned");
    grandchild = Number(readFileSync(join(root, "grandchild.pid"), "utf8"));
    expect(grandchild).toBeGreaterThan(0);
    // waitGroupGone already proved the group empty; the recorded grandchild is gone too.
    expect(pidAlive(grandchild)).toBe(false);
  });

  test.if(process.platform === "linux")(
    "starts a setsid daemon and a double-forked orphan: both are gone when the probe returns",
    async () => {
      const root = bundleWith(freshRoot(), { "s.ts": "misbehaving/daemonizer.ts" });
      const { error } = await failingProbe(root, { command: "bun", args: ["s.ts"] }, 2000);
      expect(error.code).toBe("mcp_timeout");
      const [kept, orphan] = readFileSync(join(root, "daemons.pid"), "utf8").split(" ").map(Number);
      expect(kept).toBeGreaterThan(1);
      expect(orphan).toBeGreaterThan(1);
      expect([pidAlive(kept), pidAlive(orphan)]).toEqual([false, false]);
    },
  );

  test("answers with an unsupported protocol version", async () => {
    const root = bundleWith(freshRoot(), { "s.ts": "misbehaving/wrong-version.ts" });
    const { error } = await failingProbe(root, { command: "bun", args: ["s.ts"] });
    expect(error.code).toBe("mcp_protocol");
    expect(error.message).toContain("1999-01-01");
  });

  test("answers initialize with a JSON-RPC error", async () => {
    const root = bundleWith(freshRoot(), { "s.ts": "misbehaving/error-reply.ts" });
    const { error } = await failingProbe(root, { command: "bun", args: ["s.ts"] });
    expect(error.code).toBe("mcp_error");
    expect(error.message).toContain("not today");
  });
});
