import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { checkStdioLauncher, type LauncherVerdict, type StdioLaunch } from "../../../src/policy/launcher.ts";
import { snapshotTree, tempDir, writeTree } from "../../helpers/tmp.ts";

type Row = [launch: StdioLaunch, expected: Partial<Extract<LauncherVerdict, { ok: true }>> | string, why: string];

/** Lexical rows: `expected` is the accepted verdict, or a piece of the refusal reason. */
const ROWS: Row[] = [
  // Accepted.
  [{ command: "bun", args: ["mcp/server.ts"] }, { kind: "bun", script: "mcp/server.ts" }, "bun with a bundled script"],
  [
    { command: "node", args: ["./server.mjs"] },
    { kind: "node", script: "server.mjs" },
    "leading ./ is normalized away",
  ],
  [
    { command: "node", args: ["server.js", "--port", "0", "-v"] },
    { kind: "node", script: "server.js" },
    "options after the script belong to the script",
  ],
  [
    { command: "bun", args: ["mcp/domain-docs.ts"], cwd: "." },
    { kind: "bun", script: "mcp/domain-docs.ts", cwd: "." },
    "the seed's example",
  ],
  [
    { command: "bun", args: ["server.ts"], cwd: "mcp" },
    { kind: "bun", script: "mcp/server.ts", cwd: "mcp" },
    "the script is resolved against cwd",
  ],
  [
    { command: "bun", args: ["s.ts"], cwd: "./a/b/" },
    { kind: "bun", script: "a/b/s.ts", cwd: "a/b" },
    "cwd with ./ and a trailing slash",
  ],
  [
    { command: "./bin/server" },
    { kind: "bundled", executable: "bin/server" },
    "a bundled executable without arguments",
  ],
  [
    { command: "./bin/server", args: ["--stdio", "-x"] },
    { kind: "bundled", executable: "bin/server" },
    "a bundled executable owns its options",
  ],
  [
    { command: "./server", cwd: "bin" },
    { kind: "bundled", executable: "bin/server", cwd: "bin" },
    "an executable is resolved against cwd",
  ],
  [
    { command: "./bin/node", args: ["--eval", "1"] },
    { kind: "bundled", executable: "bin/node" },
    "a bundled file named node is just a bundled executable",
  ],
  [{ command: "bun", args: ["run.ts"] }, { kind: "bun", script: "run.ts" }, "run.ts is a file, not the run subcommand"],
  [
    { command: "node", args: ["s.js", "100%", "a%20b"] },
    { kind: "node", script: "s.js" },
    "percent signs that are not %VAR% are fine",
  ],
  [
    { command: "node", args: ["s.js", "a=b", "x~y"] },
    { kind: "node", script: "s.js" },
    "a ~ that is not leading is fine",
  ],

  // Confined to the plugin root: arguments that name a path outside it.
  [{ command: "bun", args: ["s.ts", "../../etc/passwd"] }, "leaves the plugin root", "a relative path out of the root"],
  [{ command: "node", args: ["s.js", "/etc/passwd"] }, "is an absolute path", "an absolute path"],
  [
    { command: "./bin/server", args: ["--config=/home/u/.ssh/id_ed25519"] },
    "is an absolute path",
    "the value of --opt=<path>",
  ],
  [{ command: "node", args: ["s.js", "C:\\Users\\x"] }, "is an absolute path", "a drive path"],
  [{ command: "node", args: ["s.js", "file:///etc/passwd"] }, "is an absolute path", "a file: URL"],
  [
    { command: "bun", args: ["s.ts", ".."], cwd: "mcp" },
    { kind: "bun", script: "mcp/s.ts", cwd: "mcp" },
    "up from cwd, still inside the root",
  ],
  [{ command: "bun", args: ["s.ts", "../.."], cwd: "mcp" }, "leaves the plugin root", "up from cwd past the root"],
  [
    { command: "node", args: ["s.js", "lib/../data.json", "https://example.com/../x"] },
    { kind: "node", script: "s.js" },
    "a .. that stays inside, and a URL",
  ],

  // Commands that are not node, bun or ./bundled.
  [{ command: "sh", args: ["-c", "x"] }, "is not allowed", "shells"],
  [{ command: "python3", args: ["s.py"] }, "is not allowed", "other interpreters"],
  [{ command: "/usr/bin/node", args: ["s.js"] }, "is not allowed", "an absolute interpreter path"],
  [{ command: "NODE", args: ["s.js"] }, "is not allowed", "exact spelling only"],
  [{ command: "node.exe", args: ["s.js"] }, "is not allowed", "Windows spelling"],
  [{ command: "npx", args: ["pkg"] }, "is not allowed", "npx downloads code"],
  [{ command: "bunx", args: ["pkg"] }, "is not allowed", "bunx downloads code"],
  [{ command: "bin/server" }, "is not allowed", "a relative path must be written ./path"],
  [{ command: "../server" }, "is not allowed", "parent directory"],
  [{ command: "./../server" }, '".." segment', "escapes the root"],
  [{ command: "./bin/../../x" }, '".." segment', "escapes through a later segment"],
  [{ command: "./" }, "is empty", "no file named"],
  [{ command: "" }, "empty", "empty command"],
  [{ command: " node", args: ["s.js"] }, "is not allowed", "whitespace is not trimmed"],

  // node/bun argument rules.
  [{ command: "node" }, "REPL", "no script"],
  [{ command: "bun", args: [] }, "REPL", "empty args"],
  [{ command: "node", args: ["--eval", "1"] }, "options before the bundled script", "eval"],
  [{ command: "node", args: ["-e", "x", "s.js"] }, "options before the bundled script", "short eval"],
  [{ command: "node", args: ["-pe", "1", "s.js"] }, "options before the bundled script", "combined short flags"],
  [{ command: "node", args: ["--require=x", "s.js"] }, "options before the bundled script", "preload"],
  [{ command: "node", args: ["--import", "x", "s.js"] }, "options before the bundled script", "ESM preload"],
  [{ command: "node", args: ["--experimental-loader=x", "s.js"] }, "options before the bundled script", "loader"],
  [{ command: "node", args: ["--inspect=0.0.0.0:9229", "s.js"] }, "options before the bundled script", "inspector"],
  [{ command: "node", args: ["--env-file=.env", "s.js"] }, "options before the bundled script", "env file"],
  [{ command: "node", args: ["-C", "dev", "s.js"] }, "options before the bundled script", "conditions"],
  [{ command: "node", args: ["--", "s.js"] }, "options before the bundled script", "the -- separator"],
  [{ command: "node", args: ["-"] }, "options before the bundled script", "script from stdin"],
  [{ command: "bun", args: ["--preload", "x.ts", "s.ts"] }, "options before the bundled script", "bun preload"],
  [{ command: "bun", args: ["run", "s.ts"] }, "bun subcommand", "bun run"],
  [{ command: "bun", args: ["x", "cowsay"] }, "bun subcommand", "bun x downloads code"],
  [{ command: "bun", args: ["install"] }, "bun subcommand", "bun install"],
  [{ command: "bun", args: ["./run"] }, { kind: "bun", script: "run" }, "./run names a file, bun runs it as one"],
  [
    { command: "bun", args: ["server"] },
    "package.json script",
    "bun runs a package.json script named server before a file",
  ],
  [
    { command: "bun", args: ["mcp/server"] },
    "package.json script",
    "an extensionless path without ./ is ambiguous to bun",
  ],
  [{ command: "node", args: ["/etc/passwd"] }, "is absolute", "absolute script"],
  [{ command: "node", args: ["../outside.js"] }, '".." segment', "script escapes"],
  [{ command: "bun", args: ["mcp/../../x.ts"] }, '".." segment', "script escapes later"],
  [{ command: "node", args: ["mcp\\s.js"] }, "backslash", "Windows separators"],
  [{ command: "node", args: ["C:/s.js"] }, "colon", "drive letter"],
  [{ command: "node", args: ["mcp//s.js"] }, "empty segment", "double slash"],

  // Expansion in the command and every argument.
  [{ command: "node", args: ["s.js", "$HOME"] }, '"$"', "variable"],
  [{ command: "node", args: ["s.js", "${HOME}"] }, '"${"', "braced variable"],
  [{ command: "node", args: ["s.js", "$(id)"] }, '"$("', "command substitution"],
  [{ command: "node", args: ["s.js", "`id`"] }, "backtick", "backtick substitution"],
  [{ command: "node", args: ["s.js", "%APPDATA%"] }, "%VAR%", "cmd.exe expansion"],
  [{ command: "node", args: ["s.js", "%ProgramFiles(x86)%\\x"] }, "%VAR%", "cmd.exe expansion with parentheses"],
  [{ command: "node", args: ["~/s.js"] }, '"~"', "home expansion in the script"],
  [{ command: "node", args: ["s.js", "~"] }, '"~"', "home expansion in a later argument"],
  [{ command: "$NODE", args: ["s.js"] }, '"$"', "expansion in the command"],
  [{ command: "./bin/server", args: ["price$"] }, '"$"', "a bundled executable's arguments are checked too"],
  [{ command: "node", args: ["s.js", "a\nb"] }, "control character", "newline in an argument"],
  [{ command: "node", args: ["s.js\u0000x"] }, "control character", "NUL in the script"],

  // cwd.
  [{ command: "node", args: ["s.js"], cwd: "/tmp" }, "is absolute", "absolute cwd"],
  [{ command: "node", args: ["s.js"], cwd: ".." }, '".." segment', "parent cwd"],
  [{ command: "node", args: ["s.js"], cwd: "a/../.." }, '".." segment', "cwd escapes later"],
  [{ command: "node", args: ["s.js"], cwd: "C:\\x" }, "backslash", "Windows cwd"],
  [{ command: "node", args: ["s.js"], cwd: "~/x" }, '"~"', "home cwd"],
  [{ command: "node", args: ["s.js"], cwd: "" }, "cwd is empty", "empty cwd"],
  [{ command: "node", args: ["s.js"], cwd: "$PWD" }, '"$"', "expanded cwd"],
];

describe("checkStdioLauncher: lexical rules (DESIGN item 10)", () => {
  test("the table has at least 40 cases", () => expect(ROWS.length).toBeGreaterThanOrEqual(40));
  for (const [launch, expected, why] of ROWS) {
    const title = `${typeof expected === "string" ? "refuses" : "allows"}: ${JSON.stringify(launch)} (${why})`;
    test(title, () => {
      const v = checkStdioLauncher(launch);
      if (typeof expected === "string") {
        expect(v.ok).toBe(false);
        if (!v.ok) expect(v.reason).toContain(expected);
      } else expect(v).toEqual({ ok: true, ...expected } as LauncherVerdict);
    });
  }
  test("non-string arguments are refused", () => {
    expect(checkStdioLauncher({ command: "node", args: ["s.js", 1 as unknown as string] }).ok).toBe(false);
    expect(checkStdioLauncher({ command: "node", args: "s.js" as unknown as string[] }).ok).toBe(false);
  });
});

describe("checkStdioLauncher: on-disk rules with a bundle root", () => {
  const tmp = tempDir();
  const root = join(tmp.path, "bundle");
  let before: Record<string, string>;
  beforeAll(() => {
    writeTree(root, {
      "mcp/server.ts": "// server\n",
      "bin/server": { content: "#!/bin/sh\n", mode: 0o755 },
      "bin/not-exec": { content: "#!/bin/sh\n", mode: 0o644 },
      "real/s.ts": "// real\n",
      "data/.keep": "",
    });
    writeTree(tmp.path, { "outside.ts": "// outside\n" });
    symlinkSync(join(root, "real"), join(root, "linked"));
    symlinkSync(join(root, "real/s.ts"), join(root, "mcp/link.ts"));
    symlinkSync(join(tmp.path, "outside.ts"), join(root, "escape.ts"));
    mkdirSync(join(root, "mcp/dir.ts"));
    before = snapshotTree(root);
  });
  afterAll(() => tmp.cleanup());

  const cases: [StdioLaunch, string | null, string][] = [
    [{ command: "bun", args: ["mcp/server.ts"] }, null, "a regular file"],
    [{ command: "bun", args: ["server.ts"], cwd: "mcp" }, null, "a regular file through cwd"],
    [{ command: "./bin/server" }, null, "an executable file"],
    [{ command: "./server", cwd: "bin" }, null, "an executable through cwd"],
    [{ command: "bun", args: ["mcp/missing.ts"] }, "missing", "missing script"],
    [{ command: "bun", args: ["mcp/link.ts"] }, "symbolic link", "script is a symlink inside the root"],
    [{ command: "bun", args: ["escape.ts"] }, "symbolic link", "script is a symlink out of the root"],
    [{ command: "bun", args: ["linked/s.ts"] }, "symbolic link", "script reached through a symlinked directory"],
    [{ command: "bun", args: ["mcp/dir.ts"] }, "a directory", "script is a directory"],
    [{ command: "./bin/not-exec" }, "no execute permission", "executable without an x bit"],
    [{ command: "./bin/missing" }, "missing", "missing executable"],
    [{ command: "bun", args: ["s.ts"], cwd: "linked" }, "symbolic link", "cwd through a symlink"],
    [{ command: "bun", args: ["s.ts"], cwd: "nope" }, "missing", "cwd missing"],
    [{ command: "bun", args: ["server.ts"], cwd: "mcp/server.ts" }, "not a directory", "cwd is a file"],
  ];
  for (const [launch, reason, why] of cases) {
    test(`${reason === null ? "accepts" : "refuses"}: ${JSON.stringify(launch)} (${why})`, () => {
      const v = checkStdioLauncher(launch, root);
      if (reason === null) expect(v.ok).toBe(true);
      else {
        expect(v.ok).toBe(false);
        if (!v.ok) expect(v.reason).toContain(reason);
      }
      expect(snapshotTree(root)).toEqual(before);
    });
  }
});
