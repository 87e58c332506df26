/**
 * Issue #12, class 5: while a directory source is read, a second process swaps a parent
 * directory (and a file) for a symlink to a directory outside the source, in a bounded loop.
 * No read may ever return the outside bytes: each run either reads the real files or refuses.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { collectBundle } from "../../../src/bundle/collect.ts";
import { C2_LIMITS, GJC_LIMITS } from "../../../src/bundle/limits.ts";
import { DiagnosticSink } from "../../../src/core/diagnostics.ts";
import { DeclaredFileReader } from "../../../src/families/gjc/declared-files.ts";
import { spawnScoped, type ScopedProcess } from "../../helpers/sandbox.ts";
import { tempDirsPerTest } from "../../helpers/tmp.ts";
import { waitFor } from "../../helpers/wait.ts";

const fresh = tempDirsPerTest("gjc-race-");
const sha = (s: string) => new Bun.CryptoHasher("sha256").update(s).digest("hex");
const REAL = "real skill\n";
const SECRET = "SECRET outside the bundle\n";

/** A bundle with skills/x/SKILL.md and notes.md, and an outside tree with the same names. */
function world() {
  const root = fresh();
  const bundle = join(root, "bundle");
  mkdirSync(join(bundle, "skills", "x"), { recursive: true });
  writeFileSync(join(bundle, "skills", "x", "SKILL.md"), REAL);
  writeFileSync(join(bundle, "notes.md"), REAL);
  const outside = join(root, "outside");
  mkdirSync(join(outside, "x"), { recursive: true });
  writeFileSync(join(outside, "x", "SKILL.md"), SECRET);
  writeFileSync(join(outside, "notes.md"), SECRET);
  return { root, bundle, outside, stop: join(root, "stop"), count: join(root, "swaps") };
}

/** Swaps bundle/skills for a link to outside/ and bundle/notes.md for a link to the outside file, back and forth. */
function swapper(w: ReturnType<typeof world>): ScopedProcess {
  const script = `
    const fs = require("node:fs");
    const [bundle, outside, stop, count] = process.argv.slice(1);
    const skills = bundle + "/skills", notes = bundle + "/notes.md";
    let n = 0;
    fs.writeFileSync(count, "started");
    for (; n < 200000 && !fs.existsSync(stop); n++) {
      try {
        fs.renameSync(skills, skills + ".real");
        fs.symlinkSync(outside, skills);
        fs.renameSync(notes, notes + ".real");
        fs.symlinkSync(outside + "/notes.md", notes);
        fs.unlinkSync(skills);
        fs.renameSync(skills + ".real", skills);
        fs.unlinkSync(notes);
        fs.renameSync(notes + ".real", notes);
      } catch {}
    }
    fs.writeFileSync(count, String(n));
  `;
  return spawnScoped([process.execPath, "-e", script, w.bundle, w.outside, w.stop, w.count]);
}

async function race(w: ReturnType<typeof world>, read: () => string[]): Promise<{ clean: number; refused: number }> {
  // Killed with its group if the block ends early (a failed expectation); stopped by its file otherwise.
  await using swapping = swapper(w);
  const { existsSync, readFileSync } = await import("node:fs");
  await waitFor(() => existsSync(w.count), "the swapper to start");
  let clean = 0;
  let refused = 0;
  for (let i = 0; i < 400; i++) {
    const hashes = read();
    expect(hashes).not.toContain(sha(SECRET));
    if (hashes.length === 2 && hashes.every((h) => h === sha(REAL))) clean++;
    else refused++;
  }
  writeFileSync(w.stop, "");
  await swapping.proc.exited;
  expect(Number(readFileSync(w.count, "utf8"))).toBeGreaterThan(0);
  return { clean, refused };
}

describe("race-proof directory reads", () => {
  test("C2 tree walk: a parent directory or a file swapped for a link never redirects a read outside", async () => {
    const w = world();
    const r = await race(w, () => {
      const c = collectBundle(w.bundle, C2_LIMITS);
      // Whatever was read, it is never the outside content; a swap seen mid-read is a refusal.
      for (const d of c.diagnostics)
        expect(["file_changed", "unsafe_path", "missing_file", "unreadable_directory"]).toContain(d.code);
      return c.files.map((f) => f.sha256);
    });
    expect(r.clean + r.refused).toBe(400);
  });

  test("GJC declared files: a parent directory or the file swapped for a link never redirects a read outside", async () => {
    const w = world();
    const r = await race(w, () => {
      const sink = new DiagnosticSink();
      using reader = new DeclaredFileReader(w.bundle, sink, GJC_LIMITS);
      const out: string[] = [];
      for (const rel of ["skills/x/SKILL.md", "notes.md"]) {
        const f = reader.read(rel, "/x", rel);
        if (f) out.push(f.sha256);
      }
      for (const d of sink.items) expect(d.severity).toBe("error");
      return out;
    });
    expect(r.clean + r.refused).toBe(400);
  });
});
