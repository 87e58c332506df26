// The npm packages of a release (the esbuild/biome pattern): `gjc`, holding only a Node
// launcher (packages/gjc/bin/gjc.js) and one optional dependency per release platform, and one
// `@gjc/<platform>` package per platform holding that compiled binary, limited by `os` and
// `cpu` so npm installs only the one that fits. The publishable package.json files are made here
// from the repository's own package.json, which stays the development manifest (`bun src/cli.ts`).
import { chmodSync, copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface ReleaseTarget {
  /** `linux-x64`: the release name, also the platform package's suffix. */
  name: string;
  exe: "" | ".exe";
}

interface RootManifest {
  version: string;
  description: string;
  license?: string;
  repository?: unknown;
  homepage?: string;
}

const NODE_OS: Record<string, string> = { linux: "linux", darwin: "darwin", windows: "win32" };

export function platformPackageName(target: ReleaseTarget): string {
  return `@gjc/${target.name}`;
}

function common(root: RootManifest): Record<string, unknown> {
  return {
    version: root.version,
    ...(root.license ? { license: root.license } : {}),
    ...(root.repository ? { repository: root.repository } : {}),
    ...(root.homepage ? { homepage: root.homepage } : {}),
  };
}

function writeJson(path: string, value: unknown): void {
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);
}

/**
 * Writes `<outDir>/npm/gjc/` and `<outDir>/npm/@gjc/<platform>/` for the targets whose binaries
 * are in `outDir` (`gjc-<name><exe>`). The `gjc` package always lists every release platform, so
 * a partial local build (one platform, as the test makes) still yields the package to publish.
 */
export function writeNpmPackages(
  repoRoot: string,
  outDir: string,
  built: readonly ReleaseTarget[],
  all: readonly ReleaseTarget[],
): string[] {
  const root = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as RootManifest;
  const npmDir = join(outDir, "npm");
  const written: string[] = [];

  const main = join(npmDir, "gjc");
  mkdirSync(join(main, "bin"), { recursive: true });
  copyFileSync(join(repoRoot, "packages", "gjc", "bin", "gjc.js"), join(main, "bin", "gjc.js"));
  chmodSync(join(main, "bin", "gjc.js"), 0o755);
  copyFileSync(join(repoRoot, "packages", "gjc", "README.md"), join(main, "README.md"));
  writeJson(join(main, "package.json"), {
    name: "gjc",
    description: root.description,
    ...common(root),
    bin: { gjc: "bin/gjc.js" },
    files: ["bin/gjc.js"],
    engines: { node: ">=18" },
    optionalDependencies: Object.fromEntries(all.map((t) => [platformPackageName(t), root.version])),
  });
  written.push(main);

  for (const t of built) {
    const [os, cpu] = t.name.split("-");
    const dir = join(npmDir, "@gjc", t.name);
    mkdirSync(join(dir, "bin"), { recursive: true });
    copyFileSync(join(outDir, `gjc-${t.name}${t.exe}`), join(dir, "bin", `gjc${t.exe}`));
    chmodSync(join(dir, "bin", `gjc${t.exe}`), 0o755);
    writeJson(join(dir, "package.json"), {
      name: platformPackageName(t),
      description: `The gjc binary for ${t.name} (installed by the gjc package; not meant to be used on its own)`,
      ...common(root),
      os: [NODE_OS[os]],
      cpu: [cpu],
      files: [`bin/gjc${t.exe}`],
      preferUnplugged: true,
    });
    written.push(dir);
  }
  return written;
}
