/** `gjc explain` from the compiled binary: the pages are inside it, no docs folder needed. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { compiledBinary } from "../helpers/binary.ts";
import { repoRoot } from "../helpers/cli.ts";
import { sandbox } from "../helpers/sandbox.ts";

const docsDir = join(repoRoot, "docs", "errors");
const pageCount = readdirSync(docsDir).filter((f) => f.endsWith(".md")).length;
/** The binary sits alone in the sandbox's (empty) project, which is also the cwd. */
const box = sandbox("gjc-explain-bin-");
let binary = "";

beforeAll(async () => {
  // A copy in an empty temp folder, run from there: nothing beside it to read pages from.
  binary = join(box.project, "gjc");
  copyFileSync(await compiledBinary(), binary);
}, 120_000);
afterAll(() => box.cleanup());

const run = (args: string[]) => box.gjc(args, { binary });

describe("compiled gjc explain", () => {
  test("the binary sits alone, without a docs folder", () => {
    expect(readdirSync(box.project)).toEqual(["gjc"]);
    expect(existsSync(join(box.project, "docs"))).toBe(false);
  });

  test("prints a page byte for byte", async () => {
    const r = await run(["explain", "security_policy"]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(readFileSync(join(docsDir, "security_policy.md"), "utf8"));
  });

  test("--list --json holds every page", async () => {
    const r = await run(["explain", "--list", "--json"]);
    expect(r.exitCode).toBe(0);
    expect(r.json().codes).toHaveLength(pageCount);
  });

  test("an unknown code exits 2 with did-you-mean; an error names its code", async () => {
    const r = await run(["explain", "hash_mismatc"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('Did you mean "hash_mismatch"?');
    const v = await run(["plugin", "validate", join(box.project, "missing")]);
    expect(v.exitCode).toBe(2);
    expect(v.stderr).toContain("see: gjc explain not_found");
  });
});
