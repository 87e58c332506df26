/**
 * A bundle with thousands of bad names gives thousands of findings of one code. The human
 * report shows the first few of each code and counts the rest; --json keeps every one.
 */
import { afterEach, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { sandbox, type Sandbox } from "../helpers/sandbox.ts";

let s: Sandbox | undefined;
afterEach(() => s?.cleanup());

test("validate shows ten findings per code and counts the rest; --json lists them all", async () => {
  s = sandbox();
  const dir = s.write("noisy", {
    "plugin.json": {
      $schema: "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json",
      name: "noisy",
      version: "1.0.0",
      extensions: { "dev.codetwo": { standardVersion: "1.2.0" } },
    },
    "skills/a/SKILL.md": "---\nname: a\ndescription: A skill.\n---\nBody\n",
  });
  for (let i = 0; i < 25; i++) writeFileSync(join(dir, `bad\u0007${i}`), "x");
  for (let i = 0; i < 3; i++) writeFileSync(join(dir, `R${i}.md`), "x"), writeFileSync(join(dir, `r${i}.md`), "y");

  const human = await s.gjc(["plugin", "validate", dir]);
  expect(human.exitCode).toBe(1);
  expect(human.stdout).toContain("28 error(s), 0 warning(s):");
  expect(human.stdout.match(/error \[unsafe_file_name\]/g)?.length).toBe(10);
  expect(human.stdout).toContain("… and 15 more [unsafe_file_name] (--json lists every one)");
  // A code with fewer findings than the cap shows them all, and no count line.
  expect(human.stdout.match(/error \[name_collision\]/g)?.length).toBe(3);
  expect(human.stdout).not.toContain("more [name_collision]");

  const json = await s.gjc(["plugin", "validate", dir, "--json"]);
  const codes = json.json().diagnostics.map((d: { code: string }) => d.code);
  expect(codes.filter((c: string) => c === "unsafe_file_name").length).toBe(25);
  expect(codes.filter((c: string) => c === "name_collision").length).toBe(3);
});
