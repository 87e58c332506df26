/** A GJC bundle with two pin-fixture MCP servers (fixtures/mcp/sdk-server/pin-server.ts), installed in a sandbox (test/helpers/sandbox.ts). */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { removeAtEndOfRun } from "../helpers/end-of-run.ts";
import type { CliResult } from "../helpers/cli.ts";
import type { Sandbox } from "../helpers/sandbox.ts";

let built: Promise<string> | undefined;
/** The fixture bundled into one self-contained file (no node_modules beside it), once per test process, in a temp folder removed when the run ends. */
function pinServerBuild(): Promise<string> {
  built ??= (async () => {
    const outdir = mkdtempSync(join(tmpdir(), "gjc-pin-server-"));
    removeAtEndOfRun(outdir);
    const result = await Bun.build({
      entrypoints: [join(import.meta.dir, "../../fixtures/mcp/sdk-server/pin-server.ts")],
      target: "node",
      outdir,
      naming: "pin-server.mjs",
    });
    if (!result.success) throw new Error(result.logs.map(String).join("\n"));
    return result.outputs[0].path;
  })();
  return built;
}

/** A self-contained pin-fixture server script for one mode, reading its state from `state`. */
export async function pinServerScript(state: string, mode: "description" | "grow" | "served"): Promise<string> {
  const server = await Bun.file(await pinServerBuild()).text();
  return `process.env.PIN_STATE_DIR = ${JSON.stringify(state)};\nprocess.env.PIN_MODE = ${JSON.stringify(mode)};\n${server}`;
}

export async function pinHome(box: Sandbox, binary?: string) {
  const base = box.root;
  const state = join(base, "state");
  const src = join(base, "bundle");
  for (const d of [box.user, state, join(src, "mcp")]) mkdirSync(d, { recursive: true });
  writeFileSync(join(state, "description.txt"), "Looks a word up in the dictionary\n");
  // One self-contained script per server (a GJC bundle copies only the declared script): the
  // settings first, then the built server. The state directory is outside the bundle, so the
  // installed files never change and verify stays clean.
  const server = await Bun.file(await pinServerBuild()).text();
  const script = (mode: string) =>
    `process.env.PIN_STATE_DIR = ${JSON.stringify(state)};\nprocess.env.PIN_MODE = ${JSON.stringify(mode)};\n${server}`;
  writeFileSync(join(src, "mcp/described.mjs"), script("description"));
  writeFileSync(join(src, "mcp/growing.mjs"), script("grow"));
  const manifest = (extra: object[] = []) =>
    JSON.stringify({
      kind: "gajae-code-plugin",
      name: "pin-bundle",
      version: "1.0.0",
      tools: [{ name: "t", path: "tools/t.ts" }],
      mcps: [
        { name: "described", transport: "stdio", command: "bun", args: ["mcp/described.mjs"] },
        { name: "growing", transport: "stdio", command: "bun", args: ["mcp/growing.mjs"] },
        ...extra,
      ],
    });
  mkdirSync(join(src, "tools"), { recursive: true });
  writeFileSync(
    join(src, "tools/t.ts"),
    'export default function t() {\n  return { name: "t", label: "T", description: "A tool", parameters: { type: "object", properties: {} }, async execute() { return { content: [] }; } };\n}\n',
  );
  writeFileSync(join(src, "gajae-plugin.json"), manifest());
  // The pin servers keep their state outside their bundle (and outside their sandbox): they run
  // unconfined here; what a confined server may touch is tested in test/e2e/sandbox*.test.ts.
  const cli = (args: string[], extraEnv: Record<string, string> = {}): Promise<CliResult> =>
    box.gjc(args, { binary, env: { GJC_SANDBOX: "off", ...extraEnv } });
  const install = await cli(["plugin", "install", src, "--user", "--json"]);
  if (install.exitCode !== 0) throw new Error(`install failed: ${install.stdout}\n${install.stderr}`);
  // The same described server in a C2 bundle's mcp.json (trusted, so its stdio server may start).
  const c2 = join(base, "c2-bundle");
  mkdirSync(join(c2, "mcp"), { recursive: true });
  writeFileSync(join(c2, "mcp/described.mjs"), script("description"));
  writeFileSync(
    join(c2, "plugin.json"),
    JSON.stringify({
      $schema: "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json",
      name: "pin-c2",
      version: "1.0.0",
      extensions: { "dev.codetwo": { standardVersion: "1.2.0" } },
    }),
  );
  writeFileSync(
    join(c2, "mcp.json"),
    JSON.stringify({
      $schema: "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json",
      mcpServers: { described: { type: "stdio", command: "bun", args: ["${PLUGIN_ROOT}/mcp/described.mjs"] } },
    }),
  );
  for (const args of [
    ["plugin", "install", c2, "--user"],
    ["plugin", "trust", "pin-c2"],
  ]) {
    const r = await cli(args);
    if (r.exitCode !== 0) throw new Error(`${args.join(" ")} failed: ${r.stdout}\n${r.stderr}`);
  }
  return {
    cli,
    state,
    src,
    c2Dir: box.c2,
    userDir: box.user,
    rewriteManifest: (extra: object[]) => writeFileSync(join(src, "gajae-plugin.json"), manifest(extra)),
  };
}
