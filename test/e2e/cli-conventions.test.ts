/** DESIGN §5 conventions, checked on the real CLI process. */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import pkg from "../../package.json" with { type: "json" };
import { fixturesDir, runCli } from "../helpers/cli.ts";
import { runInTerminal } from "../helpers/pty.ts";

const ESC = "\x1b[";
const example = join(fixturesDir, "examples", "notes-skills");
const invalid = join(fixturesDir, "c2", "invalid-name-uppercase");
const colour = { NO_COLOR: undefined, FORCE_COLOR: "1" };

describe("gjc CLI conventions", () => {
  test("--version prints the package version and nothing else", async () => {
    for (const flag of ["--version", "-V"]) {
      const r = await runCli([flag]);
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toBe(`gjc ${pkg.version}\n`);
      expect(r.stderr).toBe("");
    }
  });

  test("--help, no arguments and plugin --help list the commands on stdout", async () => {
    for (const args of [["--help"], ["-h"], []]) {
      const r = await runCli(args);
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toContain("Usage: gjc <command>");
      expect(r.stdout).toContain("plugin");
      expect(r.stdout).toContain("marketplace");
      expect(r.stdout).toContain("Exit codes:");
    }
    const plugin = await runCli(["plugin", "--help"]);
    expect(plugin.exitCode).toBe(0);
    expect(plugin.stdout).toContain("Usage: gjc plugin <command>");
    expect(plugin.stdout).toMatch(/\n {2}validate +Check a bundle/);
    const verb = await runCli(["plugin", "validate", "--help"]);
    expect(verb.exitCode).toBe(0);
    expect(verb.stdout).toContain("Usage: gjc plugin validate <path> [options]");
    expect(verb.stdout).toContain("--strict");
    expect(verb.stdout).toContain("--json");
  });

  test("a group without a verb prints its help on stderr and exits 2", async () => {
    const r = await runCli(["plugin"]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("Usage: gjc plugin <command>");
  });

  test("an unknown verb is refused with a suggestion and exit 2", async () => {
    const top = await runCli(["plugn", "validate", example]);
    expect(top.exitCode).toBe(2);
    expect(top.stderr).toContain('"plugn" is not a gjc command. Did you mean "plugin"?');
    expect(top.stderr).toContain("[unknown_command]");
    const sub = await runCli(["plugin", "valdiate", example]);
    expect(sub.exitCode).toBe(2);
    expect(sub.stderr).toContain('Did you mean "validate"?');
    expect(sub.stdout).toBe("");
  });

  test("a top-level or group option typo gets a suggestion too (--versoin, --hlep, -v)", async () => {
    for (const [args, suggestion] of [
      [["--versoin"], '"--version"'],
      [["--hlep"], '"--help"'],
      [["-v"], '"-V"'],
      [["plugin", "--hepl"], '"--help"'],
    ] as const) {
      const r = await runCli([...args]);
      expect({ args, exit: r.exitCode, stdout: r.stdout }).toEqual({ args, exit: 2, stdout: "" });
      expect(r.stderr).toContain(`error[unknown_option]: Unknown option ${args.at(-1)} for`);
      expect(r.stderr).toContain(`Did you mean ${suggestion}?`);
    }
    expect((await runCli(["--frobnicate"])).stderr).not.toContain("Did you mean");
  });

  test("an unknown flag is refused with a suggestion and exit 2", async () => {
    const r = await runCli(["plugin", "validate", example, "--jsn"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('Unknown option --jsn for "gjc plugin validate". Did you mean "--json"?');
    expect(r.stdout).toBe("");
    const strict = await runCli(["plugin", "validate", example, "--strikt"]);
    expect(strict.exitCode).toBe(2);
    expect(strict.stderr).toContain('Did you mean "--strict"?');
  });

  test("a missing argument is a usage error (exit 2)", async () => {
    const r = await runCli(["plugin", "validate"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("[missing_argument]");
  });

  test("--json: exactly one document on stdout; a refusal adds one envelope line on stderr", async () => {
    const ok = await runCli(["plugin", "validate", example, "--json"]);
    expect(ok.exitCode).toBe(0);
    const doc = ok.json();
    expect(doc).toMatchObject({
      schema: "gjc/validate@1",
      ok: true,
      family: "c2",
      name: "notes-skills",
      version: "0.3.1",
    });
    expect(doc.contributions).toMatchObject({ skills: 2, subagents: 1, commands: 1 });
    expect(ok.stderr).toBe("");

    const usage = await runCli(["plugin", "validate", join(fixturesDir, "does-not-exist"), "--json"]);
    expect(usage.exitCode).toBe(2);
    expect(usage.json()).toMatchObject({ schema: "gjc/validate@1", ok: false, error: { code: "not_found" } });
    const lines = usage.stderr.trim().split("\n");
    expect(lines.length).toBe(1);
    const envelope = JSON.parse(lines[0]);
    expect(Object.keys(envelope)).toEqual(["error"]);
    expect(envelope.error.code).toBe("not_found");
    expect(typeof envelope.error.message).toBe("string");
    expect(typeof envelope.error.hint).toBe("string");

    const unknownFlag = await runCli(["plugin", "validate", example, "--json", "--nope"]);
    expect(unknownFlag.exitCode).toBe(2);
    expect(unknownFlag.json().error.code).toBe("unknown_option");
    expect(JSON.parse(unknownFlag.stderr.trim()).error.code).toBe("unknown_option");
  });

  test("an invalid bundle exits 1 with its report on stdout", async () => {
    const r = await runCli(["plugin", "validate", invalid, "--json"]);
    expect(r.exitCode).toBe(1);
    expect(r.json().ok).toBe(false);
    expect(r.json().diagnostics[0]).toMatchObject({
      code: "invalid_name",
      severity: "error",
      path: "plugin.json#/name",
    });
  });

  test("NO_COLOR removes escapes even when FORCE_COLOR asks for them; FORCE_COLOR adds them to a pipe", async () => {
    const plain = await runCli(["plugin", "validate", invalid], { env: { NO_COLOR: "1", FORCE_COLOR: "1" } });
    expect(plain.stdout).not.toContain(ESC);
    const coloured = await runCli(["plugin", "validate", invalid], { env: colour });
    expect(coloured.stdout).toContain(`${ESC}31m`);
    expect(coloured.exitCode).toBe(1);
    // stdout is a pipe here: without FORCE_COLOR there is no colour
    const piped = await runCli(["plugin", "validate", invalid], {
      env: { NO_COLOR: undefined, FORCE_COLOR: undefined },
    });
    expect(piped.stdout).not.toContain(ESC);
    // FORCE_COLOR=0 is off
    const off = await runCli(["plugin", "validate", invalid], { env: { NO_COLOR: undefined, FORCE_COLOR: "0" } });
    expect(off.stdout).not.toContain(ESC);
  });

  test("on a terminal (a real pseudo-terminal from Bun.spawn) colour is on by default, and NO_COLOR turns it off", async () => {
    const run = async (env: Record<string, string>) => {
      const r = await runInTerminal(
        [process.execPath, join(import.meta.dir, "..", "..", "src", "cli.ts"), "plugin", "validate", invalid],
        { env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env } },
      );
      return { out: r.output, code: r.exitCode };
    };
    const tty = await run({});
    expect(tty.code).toBe(1);
    expect(tty.out).toContain(`${ESC}31m`);
    expect(tty.out).toContain("invalid_name");
    const noColor = await run({ NO_COLOR: "1" });
    expect(noColor.code).toBe(1);
    expect(noColor.out).toContain("[invalid_name]");
    expect(noColor.out).not.toContain(ESC);
  });

  test("errors on stderr follow the same colour rules", async () => {
    const coloured = await runCli(["plugn"], { env: colour });
    expect(coloured.stderr).toContain(`${ESC}31m`);
    const plain = await runCli(["plugn"], { env: { NO_COLOR: "1" } });
    expect(plain.stderr).not.toContain(ESC);
  });

  test("--json output never carries colour escapes", async () => {
    const r = await runCli(["plugin", "validate", invalid, "--json"], { env: colour });
    expect(r.stdout).not.toContain(ESC);
    expect(r.json().ok).toBe(false);
  });
});
