import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createContext } from "../../../src/core/context.ts";
import { checkRuntimeSurfaces, type RuntimeTarget } from "../../../src/gjcsession/runtime-check.ts";
import { tempDir, writeTree } from "../../helpers/tmp.ts";
import { waitFor } from "../../helpers/wait.ts";

const tmp = tempDir("gjc-runtime-");
afterAll(() => tmp.cleanup());

let n = 0;
/** A bundle root holding one module; returns the target for it. */
function target(
  kind: "tool" | "hook",
  source: string,
  declared: { name: string; event?: string },
  extra: Record<string, string> = {},
): RuntimeTarget {
  const root = join(tmp.path, `b${++n}`);
  writeTree(root, { "mod.ts": source, ...extra });
  return {
    scope: "user",
    bundle: `b${n}`,
    pluginRoot: root,
    surfaceId: kind === "tool" ? `tool:${declared.name}` : `hook:${declared.event}:::${declared.name}`,
    kind,
    path: "mod.ts",
    module: join(root, "mod.ts"),
    ...declared,
  };
}

const ctx = createContext({
  env: { ...process.env, GJC_TEST_HOST_SECRET: "s3cr3t-value" },
  cwd: process.cwd(),
  quiet: true,
});
const check = (targets: RuntimeTarget[], timeoutMs = 5000) => checkRuntimeSurfaces(ctx, targets, { timeoutMs });
// For modules that report by writing outside their sandbox (a pid, what they saw): the sandbox
// of a runtime-checked module is tested in test/e2e/sandbox.test.ts.
const unconfinedCtx = createContext({
  env: { ...process.env, GJC_TEST_HOST_SECRET: "s3cr3t-value", GJC_SANDBOX: "off" },
  cwd: process.cwd(),
  quiet: true,
});
const checkUnconfined = (targets: RuntimeTarget[], timeoutMs = 5000) =>
  checkRuntimeSurfaces(unconfinedCtx, targets, { timeoutMs });

const goodTool = (name: string) =>
  `export default () => ({ name: ${JSON.stringify(name)}, description: "d", parameters: {}, execute: async () => ({}) });`;

describe("tool modules", () => {
  test("a factory returning exactly the declared tool passes", async () => {
    const [r] = await check([target("tool", goodTool("domain_note"), { name: "domain_note" })]);
    expect(r.ok).toBe(true);
  });

  test("a different name is a runtime_mismatch", async () => {
    const [r] = await check([target("tool", goodTool("other"), { name: "domain_note" })]);
    expect(r).toMatchObject({ ok: false, code: "runtime_mismatch" });
    expect(r.message).toContain('["other"]');
  });

  test("two tools, none, or a tool without execute are runtime_mismatch", async () => {
    const rs = await check([
      target("tool", `export default () => [{ name: "a", execute() {} }, { name: "a", execute() {} }];`, { name: "a" }),
      target("tool", `export default () => undefined;`, { name: "a" }),
      target("tool", `export default () => ({ name: "a" });`, { name: "a" }),
    ]);
    expect(rs.map((r) => r.code)).toEqual(["runtime_mismatch", "runtime_mismatch", "runtime_mismatch"]);
    expect(rs[2].message).toContain("no execute");
  });

  test("an async factory and a CommonJS-style module both work", async () => {
    const rs = await check([
      target("tool", `export default async () => ({ name: "t", execute() {} });`, { name: "t" }),
      target("tool", `module.exports = () => ({ name: "t", execute() {} });`, { name: "t" }),
    ]);
    expect(rs.map((r) => r.ok)).toEqual([true, true]);
  });

  test("factories that build schemas with the toolkit's typebox or zod pass", async () => {
    const rs = await check([
      target(
        "tool",
        `export default (pi) => ({ name: "t", parameters: pi.typebox.Type.Object({ text: pi.typebox.Type.String({ minLength: 1 }) }), execute() {} });`,
        { name: "t" },
      ),
      target(
        "tool",
        `export default ({ zod: z }) => ({ name: "t", parameters: z.object({ n: z.number().int().optional() }), execute() {} });`,
        { name: "t" },
      ),
    ]);
    expect(rs.map((r) => r.ok)).toEqual([true, true]);
  });

  test("a module that fails to import or exports no function is refused", async () => {
    const rs = await check([
      target("tool", `export default (;`, { name: "t" }),
      target("tool", `export const x = 1;`, { name: "t" }),
    ]);
    expect(rs[0]).toMatchObject({ ok: false, code: "runtime_mismatch" });
    expect(rs[0].message).toContain("Failed to import");
    expect(rs[1]).toMatchObject({ ok: false, code: "runtime_mismatch" });
    expect(rs[1].message).toContain("default factory function");
  });

  test("a factory that throws is a runtime_mismatch", async () => {
    const [r] = await check([target("tool", `export default () => { throw new Error("boom"); };`, { name: "t" })]);
    expect(r).toMatchObject({ ok: false, code: "runtime_mismatch" });
    expect(r.message).toContain("boom");
  });
});

describe("hook modules", () => {
  test("registering exactly the declared event passes", async () => {
    const [r] = await check([
      target("hook", `export default (api) => { api.on("tool_call", async () => {}); };`, {
        name: "audit",
        event: "tool_call",
      }),
    ]);
    expect(r.ok).toBe(true);
  });

  test("a different event, two events or none are runtime_mismatch", async () => {
    const rs = await check([
      target("hook", `export default (api) => { api.on("session_start", () => {}); };`, {
        name: "h",
        event: "tool_call",
      }),
      target("hook", `export default (api) => { api.on("tool_call", () => {}); api.on("tool_result", () => {}); };`, {
        name: "h",
        event: "tool_call",
      }),
      target("hook", `export default () => {};`, { name: "h", event: "tool_call" }),
      target("hook", `export default (api) => { api.on("tool_call", "not a function"); };`, {
        name: "h",
        event: "tool_call",
      }),
    ]);
    expect(rs.map((r) => r.code)).toEqual([
      "runtime_mismatch",
      "runtime_mismatch",
      "runtime_mismatch",
      "runtime_mismatch",
    ]);
    expect(rs[0].message).toBe('Plugin hook registered ["session_start"], expected exactly ["tool_call"]');
  });

  test("import failure and a non-function export are invalid_hook", async () => {
    const rs = await check([
      target("hook", `import "./missing-module.ts"; export default () => {};`, { name: "h", event: "tool_call" }),
      target("hook", `export default 42;`, { name: "h", event: "tool_call" }),
    ]);
    expect(rs.map((r) => r.code)).toEqual(["invalid_hook", "invalid_hook"]);
  });

  for (const method of ["registerCommand", "sendMessage", "appendEntry", "registerMessageRenderer", "exec"]) {
    test(`calling the denied API ${method} is security_policy, even when the error is caught`, async () => {
      const src = `export default (api) => { try { api.${method}("x", () => {}); } catch {} api.on("tool_call", () => {}); };`;
      const [r] = await check([target("hook", src, { name: "h", event: "tool_call" })]);
      expect(r).toMatchObject({ ok: false, code: "security_policy" });
      expect(r.message).toContain(method);
    });
  }

  test("a tool calling a denied API is refused as well", async () => {
    const [r] = await check([
      target("tool", `export default (api) => { api.sendMessage("hi"); return { name: "t", execute() {} }; };`, {
        name: "t",
      }),
    ]);
    expect(r).toMatchObject({ ok: false, code: "security_policy" });
  });
});

describe("isolation", () => {
  test("a module that takes more memory than a check may hold is stopped and refused, not left to exhaust the machine", async () => {
    // Up to 1.5 GiB, 64 MiB at a time and touched (resident), then it never finishes: only the
    // memory cap can end it before the (long) timeout.
    const src = `
      const held = [];
      for (let i = 0; i < 24; i++) held.push(Buffer.alloc(64 << 20, 1));
      export default () => new Promise(() => {});`;
    const [r] = await check([target("tool", src, { name: "hog" })], 60_000);
    expect(r).toMatchObject({ ok: false, code: "runtime_mismatch" });
    expect(r.message).toContain("held more than 1024 MiB of memory while loading");
  });

  test("a module that never finishes is stopped at the timeout, with a grandchild that ignores SIGTERM", async () => {
    const pidFile = join(tmp.path, "grandchild.pid");
    const src = `
      import { writeFileSync } from "node:fs";
      const child = Bun.spawn(["sh", "-c", "trap '' TERM; while :; do sleep 1; done"], { stdio: ["ignore", "inherit", "inherit"] });
      writeFileSync(${JSON.stringify(pidFile)}, String(child.pid));
      export default () => new Promise(() => {});`;
    const [r] = await checkUnconfined([target("tool", src, { name: "t" })], 1500);
    expect(r).toMatchObject({ ok: false, code: "runtime_mismatch" });
    expect(r.message).toContain("did not finish loading within 1500 ms");
    const pid = Number(readFileSync(pidFile, "utf8"));
    const alive = () => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    // The group was SIGKILLed; wait for the kernel to finish reaping it.
    await waitFor(() => !alive(), "the group to be reaped", 2000);
  });

  test("the child sees neither host secrets nor the bundle's .env and bunfig.toml", async () => {
    const out = join(tmp.path, "env-seen.json");
    const sentinel = join(tmp.path, "preload-ran");
    const src = `
      import { writeFileSync } from "node:fs";
      writeFileSync(${JSON.stringify(out)}, JSON.stringify({ secret: process.env.GJC_TEST_HOST_SECRET ?? null, dotenv: process.env.FROM_DOTENV ?? null, cwd: process.cwd() }));
      export default () => ({ name: "t", execute() {} });`;
    const t = target(
      "tool",
      src,
      { name: "t" },
      {
        ".env": "FROM_DOTENV=loaded\n",
        "bunfig.toml": `preload = ["./preload.ts"]\n`,
        "preload.ts": `require("node:fs").writeFileSync(${JSON.stringify(sentinel)}, "ran");`,
      },
    );
    const [r] = await checkUnconfined([t]);
    expect(r.ok).toBe(true);
    const seen = JSON.parse(readFileSync(out, "utf8"));
    expect(seen).toEqual({ secret: null, dotenv: null, cwd: t.pluginRoot });
    expect(existsSync(sentinel)).toBe(false);
  });

  test("output that imitates a report cannot pass a bad module", async () => {
    const fake = JSON.stringify({
      imported: true,
      isFunction: true,
      denied: [],
      registrations: [],
      tools: [{ name: "t", execute: "function" }],
    });
    const src = `console.log("x " + ${JSON.stringify(fake)}); process.stdout.write("y".repeat(100000)); export default () => ({ name: "wrong", execute() {} });`;
    const [r] = await check([target("tool", src, { name: "t" })]);
    expect(r).toMatchObject({ ok: false, code: "runtime_mismatch" });
  });

  test("a module that exits before registering is reported, not hung on", async () => {
    const [r] = await check([
      target("hook", `process.exit(0); export default () => {};`, { name: "h", event: "tool_call" }),
    ]);
    expect(r).toMatchObject({ ok: false, code: "runtime_mismatch" });
    expect(r.message).toContain("before it could be checked");
  });
});
