import { afterEach } from "bun:test";
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/** A fresh temporary directory, removed by `cleanup()` (call it in afterEach/afterAll). */
export function tempDir(prefix = "gjc-test-"): { path: string; cleanup(): void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, cleanup: () => rmSync(path, { recursive: true, force: true }) };
}

export type TreeSpec = Record<string, string | Uint8Array | { content: string | Uint8Array; mode: number } | object>;

/**
 * Writes a tree of files. Values: string/bytes are file contents; `{content, mode}` sets the
 * mode; any other object is written as pretty JSON (manifests).
 */
export function writeTree(root: string, spec: TreeSpec): string {
  for (const [rel, value] of Object.entries(spec)) {
    const abs = join(root, rel);
    mkdirSync(dirname(abs), { recursive: true });
    if (typeof value === "string" || value instanceof Uint8Array) writeFileSync(abs, value);
    else if (value && typeof value === "object" && "content" in value && "mode" in value) {
      writeFileSync(abs, (value as { content: string | Uint8Array }).content);
      chmodSync(abs, (value as { mode: number }).mode);
    } else writeFileSync(abs, `${JSON.stringify(value, null, 2)}\n`);
  }
  return root;
}

/**
 * A byte-exact picture of a directory tree (type, mode, content hash, link target), used to
 * prove a refused operation changed nothing.
 */
export function snapshotTree(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string, rel: string) => {
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch {
      return;
    }
    for (const name of names) {
      const abs = join(dir, name);
      const r = rel ? `${rel}/${name}` : name;
      const st = lstatSync(abs);
      if (st.isSymbolicLink()) out[r] = `link:${readlinkSync(abs)}`;
      else if (st.isDirectory()) {
        out[r] = `dir:${(st.mode & 0o777).toString(8)}`;
        walk(abs, r);
      } else if (st.isFile())
        out[r] =
          `file:${(st.mode & 0o777).toString(8)}:${new Bun.CryptoHasher("sha256").update(readFileSync(abs)).digest("hex")}`;
      else out[r] = "special";
    }
  };
  walk(root, "");
  return out;
}

/**
 * Per-test temporary directories for one test file: `const fresh = tempDirsPerTest();` then
 * `fresh()` in a test gives a new directory, and every one is removed after that test.
 */
export function tempDirsPerTest(prefix?: string): () => string {
  let dirs: { cleanup(): void }[] = [];
  afterEach(() => {
    for (const d of dirs) d.cleanup();
    dirs = [];
  });
  return () => {
    const d = tempDir(prefix);
    dirs.push(d);
    return d.path;
  };
}
