import { afterAll, expect, test } from "bun:test";
import { mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { repoRoot } from "../helpers/cli.ts";
import { tempDir } from "../helpers/tmp.ts";

const out = tempDir("gjc-release-");
afterAll(() => out.cleanup());

const host = `${process.platform === "win32" ? "windows" : process.platform}-${process.arch}`;

test("bun run release builds the host binary, writes SHA256SUMS that sha256sum -c accepts, and smoke-tests it", async () => {
  const proc = Bun.spawn([process.execPath, join(repoRoot, "scripts", "release.ts"), host], {
    cwd: repoRoot,
    env: { ...process.env, GJC_RELEASE_DIR: out.path },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [code, err] = await Promise.all([proc.exited, new Response(proc.stderr).text()]);
  expect(code).toBe(0);
  expect(err).toContain("smoke-tested");
  const sums = readFileSync(join(out.path, "SHA256SUMS"), "utf8").trim().split("\n");
  expect(sums).toHaveLength(1);
  expect(sums[0]).toMatch(new RegExp(`^[0-9a-f]{64}  gjc-${host}$`));
  const check = Bun.spawnSync(["sha256sum", "-c", "SHA256SUMS"], { cwd: out.path });
  expect(check.exitCode).toBe(0);
  const version = Bun.spawnSync([join(out.path, `gjc-${host}`), "--version"]);
  expect(version.stdout.toString().trim()).toBe(
    `gjc ${JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")).version}`,
  );
});

/** A PATH with only node, npm and the shell npm runs scripts with: no bun anywhere. */
function pathWithoutBun(dir: string): string {
  mkdirSync(dir);
  for (const tool of ["node", "npm", "sh"]) {
    const found = Bun.which(tool);
    if (!found) throw new Error(`${tool} is needed for the npm package test`);
    symlinkSync(realpathSync(found), join(dir, tool));
  }
  return dir;
}

test("the npm packages: npm pack gives gjc (a Node launcher) and @gjc/<host>; installed offline into a fresh project they run with no Bun", async () => {
  const work = tempDir("gjc-npm-");
  try {
    const env = {
      HOME: join(work.path, "home"),
      npm_config_cache: join(work.path, "npm-cache"),
      npm_config_update_notifier: "false",
      PATH: pathWithoutBun(join(work.path, "bin")),
      NO_COLOR: "1",
    };
    expect(Bun.which("bun", { PATH: env.PATH })).toBeNull();
    mkdirSync(env.HOME);
    const run = (cmd: string[], cwd: string) => {
      const r = Bun.spawnSync(cmd, { cwd, env, stdout: "pipe", stderr: "pipe" });
      return { code: r.exitCode, out: r.stdout.toString(), err: r.stderr.toString() };
    };
    const tarballs = join(work.path, "tgz");
    mkdirSync(tarballs);
    const packed: string[] = [];
    for (const dir of [join(out.path, "npm", "gjc"), join(out.path, "npm", "@gjc", host)]) {
      const p = run(["npm", "pack", "--json", "--pack-destination", tarballs], dir);
      expect({ code: p.code, err: p.code === 0 ? "" : p.err }).toEqual({ code: 0, err: "" });
      const [info] = JSON.parse(p.out) as { name: string; filename: string; files: { path: string }[] }[];
      packed.push(join(tarballs, info.filename));
      if (info.name === "gjc")
        expect(info.files.map((f) => f.path).sort()).toEqual(["README.md", "bin/gjc.js", "package.json"]);
      else
        expect(info.files.map((f) => f.path).sort()).toEqual([
          `bin/gjc${host.startsWith("windows") ? ".exe" : ""}`,
          "package.json",
        ]);
    }
    const manifest = JSON.parse(readFileSync(join(out.path, "npm", "gjc", "package.json"), "utf8"));
    expect(manifest).toMatchObject({ name: "gjc", bin: { gjc: "bin/gjc.js" } });
    expect(Object.keys(manifest.optionalDependencies).sort()).toEqual([
      "@gjc/darwin-arm64",
      "@gjc/darwin-x64",
      "@gjc/linux-arm64",
      "@gjc/linux-x64",
      "@gjc/windows-x64",
    ]);
    expect(JSON.parse(readFileSync(join(out.path, "npm", "@gjc", host, "package.json"), "utf8"))).toMatchObject({
      os: [process.platform],
      cpu: [process.arch],
    });

    // an author's fresh project: npm installs both tarballs offline (the other platforms' optional packages are skipped)
    const project = join(work.path, "my-bundle");
    mkdirSync(project);
    writeFileSync(
      join(project, "package.json"),
      `${JSON.stringify({ name: "my-bundle", version: "1.0.0", private: true }, null, 2)}\n`,
    );
    const install = run(
      ["npm", "install", "--offline", "--no-audit", "--no-fund", "--loglevel=error", ...packed],
      project,
    );
    expect({ code: install.code, err: install.code === 0 ? "" : install.err }).toEqual({ code: 0, err: "" });
    const gjc = join(project, "node_modules", ".bin", "gjc");
    expect(run([gjc, "--version"], project)).toEqual({
      code: 0,
      out: `gjc ${JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")).version}\n`,
      err: "",
    });
    // init adds the plugin:validate script to the existing package.json, and npm runs it
    expect(run([gjc, "plugin", "init", ".", "--family", "c2", "--name", "my-bundle"], project).code).toBe(0);
    expect(JSON.parse(readFileSync(join(project, "package.json"), "utf8")).scripts).toEqual({
      "plugin:validate": "gjc plugin validate .",
    });
    const validate = run(["npm", "run", "--silent", "plugin:validate"], project);
    expect(validate.code).toBe(0);
    expect(validate.out).toContain("✓ valid c2 bundle my-bundle 0.1.0");
    // the exit status of the native binary comes through the launcher
    expect(run([gjc, "plugin", "validate", join(project, "missing")], project).code).toBe(2);
  } finally {
    work.cleanup();
  }
  // npm packs and unpacks a ~110 MB binary twice: tens of seconds on a loaded 2-core machine
}, 240_000);
