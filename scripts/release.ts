// Cross-compiles gjc for every desktop target into dist/release/, writes SHA256SUMS
// (`sha256sum -c` format), makes the npm packages in dist/release/npm/ (scripts/npm-packages.ts:
// `gjc` with a Node launcher + one `@gjc/<platform>` package per binary), and smoke-tests the
// binary built for this machine. `bun scripts/release.ts linux-x64` builds only matching targets.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { COMPILE_FLAGS } from "./compile-flags.ts";
import { writeNpmPackages, type ReleaseTarget } from "./npm-packages.ts";

const root = join(import.meta.dir, "..");
// GJC_RELEASE_DIR lets the release test build into a temporary folder.
const outDir = process.env.GJC_RELEASE_DIR ?? join(root, "dist", "release");
const targets = [
  { name: "linux-x64", bunTarget: "bun-linux-x64", exe: "" },
  { name: "linux-arm64", bunTarget: "bun-linux-arm64", exe: "" },
  { name: "darwin-x64", bunTarget: "bun-darwin-x64", exe: "" },
  { name: "darwin-arm64", bunTarget: "bun-darwin-arm64", exe: "" },
  { name: "windows-x64", bunTarget: "bun-windows-x64", exe: ".exe" },
] as const;

const only = process.argv[2];
rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });

const sums: string[] = [];
const built: ReleaseTarget[] = [];
for (const t of targets) {
  if (only && !t.name.includes(only)) continue;
  built.push(t);
  const file = `gjc-${t.name}${t.exe}`;
  const started = performance.now();
  const proc = Bun.spawnSync(
    [
      process.execPath,
      "build",
      ...COMPILE_FLAGS,
      `--target=${t.bunTarget}`,
      join(root, "src", "cli.ts"),
      "--outfile",
      join(outDir, file),
    ],
    { cwd: root, stdout: "pipe", stderr: "pipe" },
  );
  if (proc.exitCode !== 0) {
    console.error(`release: building ${file} failed:\n${proc.stderr.toString()}`);
    process.exit(1);
  }
  const digest = new Bun.CryptoHasher("sha256").update(readFileSync(join(outDir, file))).digest("hex");
  sums.push(`${digest}  ${file}`);
  console.error(`release: ${file} ${digest.slice(0, 16)}… (${Math.round(performance.now() - started)} ms)`);
}
writeFileSync(join(outDir, "SHA256SUMS"), `${sums.join("\n")}\n`);
for (const dir of writeNpmPackages(root, outDir, built, targets)) console.error(`release: npm package ${dir}`);

// The binary for this machine must run: version and a real validation of a shipped example.
const host = `${process.platform === "win32" ? "windows" : process.platform}-${process.arch}`;
const hostFile = targets.find((t) => t.name === host);
if (hostFile && (!only || hostFile.name.includes(only))) {
  const bin = join(outDir, `gjc-${hostFile.name}${hostFile.exe}`);
  const version = Bun.spawnSync([bin, "--version"]);
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string };
  if (version.exitCode !== 0 || version.stdout.toString().trim() !== `gjc ${pkg.version}`) {
    console.error(`release: smoke test of ${bin} failed: ${version.stdout}${version.stderr}`);
    process.exit(1);
  }
  const help = Bun.spawnSync([bin, "plugin", "--help"]);
  if (help.exitCode !== 0 || !help.stdout.toString().includes("validate")) {
    console.error(`release: ${bin} plugin --help failed`);
    process.exit(1);
  }
  console.error(`release: smoke-tested ${bin}`);
}
console.error(`release: ${sums.length} binaries and SHA256SUMS in ${outDir}`);
