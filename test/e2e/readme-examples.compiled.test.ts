/**
 * The README cannot drift from the program: every example output in it is marked with
 *
 *     <!-- example: gjc <args…> -->            (the command must exit 0)
 *     <!-- example exit=1: gjc <args…> -->     (or the exit status given)
 *
 * on the line before its fenced block, and this test runs that command with the compiled binary
 * (cwd = the repository, a fresh HOME, no colour) and compares what a terminal would show
 * (stdout and stderr in the order written) with the block. The repository path is shown as
 * `/…` in the README. Arguments are split on spaces; an example needs no quoting.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { compiledBinary } from "../helpers/binary.ts";
import { repoRoot } from "../helpers/cli.ts";
import { sandbox } from "../helpers/sandbox.ts";

interface Example {
  line: number;
  args: string[];
  exit: number;
  expected: string;
}

const MARKER = /^<!-- example(?: exit=(\d+))?: gjc (.+?) -->$/;

function readmeExamples(text: string): Example[] {
  const lines = text.split("\n");
  const out: Example[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = MARKER.exec(lines[i]);
    if (!m) continue;
    if (!lines[i + 1]?.startsWith("```"))
      throw new Error(`README.md:${i + 1}: an example marker must be followed by a fenced block`);
    const end = lines.indexOf("```", i + 2);
    if (end === -1) throw new Error(`README.md:${i + 1}: the example's block is not closed`);
    out.push({
      line: i + 1,
      args: m[2].split(" ").filter(Boolean),
      exit: Number(m[1] ?? 0),
      expected: lines.slice(i + 2, end).join("\n"),
    });
    i = end;
  }
  return out;
}

const examples = readmeExamples(readFileSync(join(repoRoot, "README.md"), "utf8"));
const box = sandbox("gjc-readme-");
afterAll(() => box.cleanup());
/** The sandbox's environment and the machine's PATH, nothing else of the machine's. */
const env = {
  PATH: process.env.PATH ?? "",
  NO_COLOR: "1",
  ...Object.fromEntries(Object.entries(box.env).filter((e): e is [string, string] => e[1] !== undefined)),
};

describe("README examples are the binary's real output", () => {
  test("the README has examples to check", () => {
    expect(examples.length).toBeGreaterThanOrEqual(4);
  });

  for (const ex of examples) {
    test(`README.md:${ex.line}: gjc ${ex.args.join(" ")}`, async () => {
      const binary = await compiledBinary();
      // one pipe for both streams keeps the order a terminal shows
      const proc = Bun.spawn(["sh", "-c", 'exec "$@" 2>&1', "sh", binary, ...ex.args], {
        cwd: repoRoot,
        env,
        stdout: "pipe",
        stderr: "ignore",
        stdin: "ignore",
      });
      const [output, exit] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
      const shown = output.replaceAll(repoRoot, "/…").replace(/\n$/, "");
      expect({ exit, output: shown }).toEqual({ exit: ex.exit, output: ex.expected });
    });
  }
});
