/**
 * Issue #12, class 9: text from bundles, catalogs, runtimes and errors reaches the terminal
 * with every control made visible, through the one choke point in src/cli/main.ts; --json
 * keeps the exact values.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { runCli } from "../helpers/cli.ts";
import { tempDirsPerTest, writeTree } from "../helpers/tmp.ts";
import { writeRuntimeBundle } from "../unit/c2host/_bundle.ts";
import { c2HomesPerTest, installBundle } from "./c2-runtime-setup.ts";

const fresh = tempDirsPerTest("gjc-termsafe-");
const home = c2HomesPerTest();

// An OSC title, a BEL, an 8-bit CSI "clear screen", DEL and a right-to-left override.
const HOSTILE = "\x1b]0;PWNED\x07\x9b2J\x7f\u202e";
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

function expectSafe(text: string): void {
  expect(RAW_CONTROL.test(text)).toBe(false);
}

describe("untrusted text cannot drive the terminal", () => {
  test("validate: a GJC bundle name and a C2 description with escape sequences", async () => {
    const gjc = writeTree(fresh(), {
      "gajae-plugin.json": { kind: "gajae-code-plugin", name: `x${HOSTILE}`, version: "1.0.0" },
    });
    const human = await runCli(["plugin", "validate", gjc]);
    expect(human.exitCode).toBe(1);
    expectSafe(human.stdout);
    expectSafe(human.stderr);
    expect(human.stdout).toContain("\\x9b2J");
    const json = await runCli(["plugin", "validate", gjc, "--json"]);
    expect(json.exitCode).toBe(1);
    expectSafe(json.stdout);
    // The JSON keeps the exact text (the 8-bit CSI is in the parsed message, escaped only on the wire).
    expect(json.json().diagnostics[0].message).toContain("\u009b2J");
    expect(json.stdout).toContain("\\u009b2J");
    const c2 = writeRuntimeBundle(join(fresh(), "c2"), { name: "demo-runtime" });
    const manifest = { ...c2.pluginJson, name: `Bad${HOSTILE}`, description: `desc${HOSTILE}` };
    writeTree(c2.dir, { "plugin.json": manifest });
    const c2Human = await runCli(["plugin", "validate", c2.dir]);
    expect(c2Human.exitCode).toBe(1);
    expectSafe(c2Human.stdout);
  });

  test("marketplace list: entry names and descriptions from the catalog", async () => {
    const h = home();
    const dir = writeTree(fresh(), {
      "marketplace.json": {
        standardVersion: "1.0.0",
        name: "evil-catalog",
        displayName: `Evil${HOSTILE}`,
        plugins: [
          {
            name: "notes",
            version: "1.0.0",
            source: { kind: "local", path: "./plugins/notes" },
            description: `Looks fine${HOSTILE}\x1b[8mhidden`,
          },
        ],
      },
    });
    const r = await runCli(["marketplace", "list", dir], { env: h.env, cwd: h.root });
    expect(r.exitCode).toBe(0);
    expectSafe(r.stdout);
    expect(r.stdout).toContain("Looks fine\\x1b]0;PWNED\\x07\\x9b2J\\x7f\\u202e\\x1b[8mhidden");
    const json = await runCli(["marketplace", "list", dir, "--json"], { env: h.env, cwd: h.root });
    expectSafe(json.stdout);
    expect(json.json().entries[0].description).toBe(`Looks fine${HOSTILE}\x1b[8mhidden`);
  });

  test("plugin run: a runtime's result with escape sequences, human and --json", async () => {
    const h = home();
    const b = writeRuntimeBundle(join(h.root, "src"), {
      name: "echoer",
      commands: [{ id: "demo.echo", argsSchema: { type: "object" } }],
    });
    await installBundle(h, b.dir);
    const args = JSON.stringify({ say: `hi${HOSTILE}` });
    const human = await runCli(["plugin", "run", "demo.echo", "--args", args], { env: h.env, cwd: h.root });
    expect(human.exitCode).toBe(0);
    expectSafe(human.stdout);
    expectSafe(human.stderr);
    expect(human.stdout).toContain("\\x9b2J");
    const json = await runCli(["plugin", "run", "demo.echo", "--args", args, "--json"], { env: h.env, cwd: h.root });
    expect(json.exitCode).toBe(0);
    expectSafe(json.stdout);
    expect(json.json().result.args.say).toBe(`hi${HOSTILE}`);
  });

  test("an error message that quotes the input (a source path) is made visible on stderr", async () => {
    const h = home();
    const r = await runCli(["plugin", "install", join(h.root, `missing${HOSTILE}`), "--user"], {
      env: h.env,
      cwd: h.root,
    });
    expect(r.exitCode).not.toBe(0);
    expect(r.stderr).toContain("error");
    expectSafe(r.stderr);
    expectSafe(r.stdout);
    const json = await runCli(["plugin", "install", join(h.root, `missing${HOSTILE}`), "--user", "--json"], {
      env: h.env,
      cwd: h.root,
    });
    expectSafe(json.stdout);
    expectSafe(json.stderr);
    expect(JSON.parse(json.stderr.trim().split("\n").at(-1)!).error.code).toBe(json.json().error.code);
  });

  test("with colour on, our colours pass and a runtime's sequences do not", async () => {
    const h = home();
    const b = writeRuntimeBundle(join(h.root, "src"), {
      name: "echoer",
      commands: [{ id: "demo.echo", argsSchema: { type: "object" } }],
    });
    await installBundle(h, b.dir);
    const r = await runCli(["plugin", "run", "demo.echo", "--args", JSON.stringify({ say: "\x9b31m" })], {
      env: { ...h.env, NO_COLOR: undefined, FORCE_COLOR: "1" },
      cwd: h.root,
    });
    expect(r.exitCode).toBe(0);
    expectSafe(r.stdout);
    expect(r.stderr).toContain("\x1b[2m"); // our dim progress line
  });
});
