import { afterEach, expect, test } from "bun:test";
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { normalizeProjectPath, projectHash } from "../../../src/c2store/project-key.ts";
import { tempDir } from "../../helpers/tmp.ts";

const dirs: { cleanup(): void }[] = [];
afterEach(() => dirs.splice(0).forEach((d) => d.cleanup()));

test("`.`, `..` and symlinked spellings of one project normalize to one key", () => {
  const t = tempDir("gjc-pkey-");
  dirs.push(t);
  const real = join(t.path, "work", "proj");
  mkdirSync(join(real, "sub"), { recursive: true });
  symlinkSync(real, join(t.path, "alias"));
  const canonical = normalizeProjectPath({ cwd: "/" }, real);
  const spellings = [`${real}/.`, `${real}/sub/..`, join(t.path, "alias"), `${join(t.path, "alias")}/./sub/..`];
  for (const s of spellings) expect(normalizeProjectPath({ cwd: "/" }, s)).toBe(canonical);
  expect(normalizeProjectPath({ cwd: join(t.path, "work") }, "proj")).toBe(canonical);
  expect(normalizeProjectPath({ cwd: "/" }, join(t.path, "alias", "not-yet"))).toBe(join(canonical, "not-yet"));
});

test("the project hash is BLAKE3-256 of the normalized path (reference vector)", async () => {
  expect(await projectHash("/home/me/work/my-project")).toBe(
    "028dfe7c7deb64eea23523d0d6e651d9e6912c0c7bb9eafba162de336dad1696",
  );
});
