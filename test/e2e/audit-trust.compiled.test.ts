/** Trust bound to capabilities (C2), from the compiled binary: an upgrade that adds a runtime argument needs re-trust; one that changes only text keeps trust. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { compiledBinary } from "../helpers/binary.ts";
import { fixturesDir, runCli } from "../helpers/cli.ts";
import { writeRuntimeBundle } from "../unit/c2host/_bundle.ts";
import { c2Home, type C2Home } from "./c2-runtime-setup.ts";

let h: C2Home;
let binary: string;
beforeAll(async () => {
  binary = await compiledBinary();
  h = c2Home();
});
afterAll(() => h?.cleanup());
const run = (args: string[]) => runCli(args, { binary, env: h.env, cwd: h.root });
const errorOf = (r: { stdout: string; stderr: string }) => {
  for (const text of [r.stdout, r.stderr.trim().split("\n").pop() ?? ""]) {
    try {
      const doc = JSON.parse(text);
      if (doc.error) return doc.error;
    } catch {}
  }
  throw new Error(`no error document in ${r.stdout} / ${r.stderr}`);
};

describe("compiled gjc: capability-bound trust", () => {
  test("re-trust after a widened runtime, not after a text-only upgrade", async () => {
    const src = join(h.root, "hello");
    cpSync(join(fixturesDir, "examples", "hello-runtime"), src, { recursive: true });
    expect((await run(["plugin", "install", src, "--user"])).exitCode).toBe(0);
    const trust = await run(["plugin", "trust", "hello-runtime", "--json"]);
    expect(trust.exitCode).toBe(0);
    const greet = () => run(["plugin", "run", "hello.greet", "--args", JSON.stringify({ name: "x" }), "--json"]);
    expect((await greet()).exitCode).toBe(0);

    // Text and data only: a README edit and a new skill keep trust.
    writeFileSync(join(src, "README.md"), `${readFileSync(join(src, "README.md"), "utf8")}\nMore words.\n`);
    cpSync(join(fixturesDir, "examples", "notes-skills", "skills", "take-notes"), join(src, "skills", "take-notes"), {
      recursive: true,
    });
    const textUpgrade = await run(["plugin", "upgrade", "hello-runtime", "--json"]);
    expect(textUpgrade.exitCode).toBe(0);
    expect((await run(["plugin", "list", "--json"])).json().bundles[0]).toMatchObject({
      family: "c2",
      c2: { trusted: true, trustState: "trusted" },
    });
    expect((await greet()).exitCode).toBe(0);

    // A runtime argument added: installed and enabled, but it needs re-trust before it runs.
    const manifest = JSON.parse(readFileSync(join(src, "plugin.json"), "utf8"));
    manifest.version = "1.1.0";
    manifest.extensions["dev.codetwo"].runtime.args = ["plugin.js", "--verbose"];
    writeFileSync(join(src, "plugin.json"), JSON.stringify(manifest, null, 2));
    const preview = await run(["plugin", "upgrade", "hello-runtime", "--dry-run", "--json"]);
    expect(preview.json().capabilityDiff.processes.changed).toMatchObject([
      { id: "c2-runtime:runtime", fields: ["args"] },
    ]);
    expect((await run(["plugin", "upgrade", "hello-runtime", "--json"])).exitCode).toBe(0);

    const list = (await run(["plugin", "list", "--json"])).json().bundles[0];
    expect(list).toMatchObject({ version: "1.1.0", enabled: true, c2: { trusted: true, trustState: "needs-retrust" } });
    expect((await run(["plugin", "list"])).stdout).toContain("needs re-trust");
    expect((await run(["plugin", "inspect", "hello-runtime", "--json"])).json().bundle.c2.trustState).toBe(
      "needs-retrust",
    );
    expect((await run(["plugin", "inspect", "hello-runtime"])).stdout).toContain("needs re-trust");
    const catalog = (await run(["plugin", "policy", "catalog", "--json"])).json();
    const entry = (catalog.plugins ?? catalog.entries).find((p: any) => p.name === "hello-runtime");
    expect(entry).toMatchObject({
      trustState: "needs-retrust",
      effectiveState: { status: "untrusted", reason: "needs-retrust" },
    });

    const refused = await greet();
    expect(refused.exitCode).toBe(3);
    const error = errorOf(refused);
    expect(error.code).toBe("trust_outdated");
    expect(error.message).toContain("~ process c2-runtime:runtime (args)");

    const again = await run(["plugin", "trust", "hello-runtime", "--json"]);
    expect(again.exitCode).toBe(0);
    expect(again.json()).toMatchObject({
      changed: true,
      trusted: true,
      capabilityDiff: { empty: false, processes: { changed: [{ id: "c2-runtime:runtime", fields: ["args"] }] } },
    });
    manifest.version = "1.2.0";
    manifest.extensions["dev.codetwo"].runtime.args = ["plugin.js", "--verbose", "--quiet"];
    writeFileSync(join(src, "plugin.json"), JSON.stringify(manifest, null, 2));
    expect((await run(["plugin", "upgrade", "hello-runtime"])).exitCode).toBe(0);
    const shown = await run(["plugin", "trust", "hello-runtime"]);
    expect(shown.exitCode).toBe(0);
    expect(shown.stdout).toContain("changed since it was last trusted:");
    expect(shown.stdout).toContain(
      "~ process c2-runtime:runtime: node plugin.js --verbose --quiet (changed: args; was process c2-runtime:runtime: node plugin.js --verbose)",
    );
    const human = await run(["plugin", "untrust", "hello-runtime"]);
    expect(human.exitCode).toBe(0);
    const retrust = await run(["plugin", "trust", "hello-runtime"]);
    expect(retrust.stdout).not.toContain("changed since it was last trusted");
    expect((await run(["plugin", "list", "--json"])).json().bundles[0].c2.trustState).toBe("trusted");
    expect((await greet()).exitCode).toBe(0);
  });

  test("needs re-trust also keeps its language servers and stdio MCP servers from starting", async () => {
    const src = join(h.root, "lsp-src");
    const write = (lspArgs: string[], version: string) => {
      writeRuntimeBundle(src, {
        name: "lsp-kit",
        version,
        commands: [{ id: "lspkit.echo" }],
        languageServers: [{ id: "ls", languages: ["zig"], command: "./lsp-server.mjs", args: lspArgs }],
        extraFiles: {
          "lsp-server.mjs": readFileSync(join(fixturesDir, "runtimes", "lsp-server.mjs"), "utf8"),
          "srv.mjs": "// an MCP server (never started here)\n",
        },
      });
      writeFileSync(
        join(src, "mcp.json"),
        JSON.stringify({
          $schema: "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json",
          mcpServers: { srv: { type: "stdio", command: "bun", args: ["${PLUGIN_ROOT}/srv.mjs"] } },
        }),
      );
    };
    write(["--verbose"], "1.0.0");
    expect((await run(["plugin", "install", src, "--user"])).exitCode).toBe(0);
    expect((await run(["plugin", "trust", "lsp-kit"])).exitCode).toBe(0);
    const project = join(h.root, "proj");
    writeFileSync(join(h.root, "x"), "");
    cpSync(join(h.root, "x"), join(project, "x.zig"), { recursive: true });
    const probe = () => run(["plugin", "lsp", "probe", "lsp-kit/ls", "--project", project, "--json"]);
    expect((await probe()).exitCode).toBe(0);

    write(["--verbose", "--stdio"], "1.1.0");
    expect((await run(["plugin", "upgrade", "lsp-kit"])).exitCode).toBe(0);
    const lsp = await probe();
    expect(lsp.exitCode).toBe(3);
    expect(errorOf(lsp).code).toBe("trust_outdated");
    expect(errorOf(lsp).message).toContain("~ process language-server:ls (args)");
    const mcp = await run(["plugin", "mcp", "probe", "lsp-kit/srv", "--json"]);
    expect(mcp.exitCode).toBe(3);
    expect(errorOf(mcp).code).toBe("trust_outdated");
    // Every trust_outdated refusal says what changed.
    expect(errorOf(mcp).message).toContain("~ process language-server:ls (args)");
    const plan = await run(["plugin", "policy", "plan", "lsp-kit", "--state", "enabled", "--json"]);
    expect(plan.json().warnings).toContainEqual(
      expect.objectContaining({
        code: "trust_outdated",
        message: expect.stringContaining("~ process language-server:ls (args)"),
      }),
    );
    expect((await run(["plugin", "trust", "lsp-kit"])).exitCode).toBe(0);
    expect((await probe()).exitCode).toBe(0);
  });
});
