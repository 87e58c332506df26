import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCli } from "../helpers/cli.ts";
import { tempDir } from "../helpers/tmp.ts";

/** Runs the generated bash completion in a real bash for the words typed so far. */
async function bashComplete(script: string, words: string[]): Promise<string[]> {
  const dir = tempDir();
  try {
    const file = join(dir.path, "gjc.bash");
    writeFileSync(file, script);
    const quoted = words.map((w) => `'${w}'`).join(" ");
    const program = `source ${file}\nCOMP_WORDS=(${quoted})\nCOMP_CWORD=${words.length - 1}\n_gjc_complete\nprintf '%s\\n' "\${COMPREPLY[@]}"`;
    const proc = Bun.spawnSync(["bash", "--norc", "--noprofile", "-c", program]);
    expect(proc.exitCode).toBe(0);
    return proc.stdout.toString().split("\n").filter(Boolean).sort();
  } finally {
    dir.cleanup();
  }
}

describe("gjc completion", () => {
  test("bash completes verbs and the flags of the verb typed so far", async () => {
    const r = await runCli(["completion", "bash"]);
    expect(r.exitCode).toBe(0);
    expect(await bashComplete(r.stdout, ["gjc", ""])).toContain("plugin");
    expect(await bashComplete(r.stdout, ["gjc", "plugin", "val"])).toEqual(["validate"]);
    expect(await bashComplete(r.stdout, ["gjc", "plugin", "validate", "./x", "--st"])).toEqual(["--strict"]);
  });

  test("zsh and fish scripts cover every command path and flag of the model", async () => {
    const model = (await runCli(["completion", "bash", "--json"])).json().commands as {
      path: string[];
      options: { name: string }[];
    }[];
    expect(model.length).toBeGreaterThan(3);
    for (const shell of ["zsh", "fish"]) {
      const r = await runCli(["completion", shell]);
      expect(r.exitCode).toBe(0);
      for (const entry of model) {
        if (entry.path.length > 0) expect(r.stdout).toContain(`'${entry.path.join(" ")}'`);
        for (const o of entry.options) expect(r.stdout).toContain(shell === "zsh" ? `--${o.name}:` : `-l ${o.name}`);
      }
    }
  });

  test("an unknown shell is a usage error", async () => {
    const r = await runCli(["completion", "tcsh"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("unknown_shell");
  });
});
