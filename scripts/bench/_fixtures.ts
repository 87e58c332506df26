/**
 * The bundles and stores the benches measure, made once here so that two benches timing the
 * same row (the row's own bench and security-cost.bench.ts) time exactly the same input.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const MiB = 1024 * 1024;

/** A GJC bundle whose manifest declares `files` tool modules, `bytes(i)` each, spread over `folders` folders. */
export function toolBundle(
  dir: string,
  name: string,
  files: number,
  bytes: (i: number) => number,
  folders = 50,
): string {
  const tools = [];
  for (let i = 0; i < files; i++) {
    const rel = `tools/d${i % folders}/${name}_t${i}.ts`;
    tools.push({ name: `${name}_t${i}`, path: rel });
    mkdirSync(join(dir, "tools", `d${i % folders}`), { recursive: true });
    const body = new Uint8Array(bytes(i)).fill(0x61);
    body.set(new TextEncoder().encode(`// ${name} ${i}\n`));
    writeFileSync(join(dir, rel), body);
  }
  writeFileSync(
    join(dir, "gajae-plugin.json"),
    JSON.stringify({ kind: "gajae-code-plugin", name, version: "1.0.0", tools }),
  );
  return dir;
}

/** The install row's bundle: 2,000 files (the manifest and 1,999 tools), 20 MiB. */
export const bigToolBundle = (dir: string) =>
  toolBundle(dir, "big", 1999, () => Math.floor((20 * MiB - 256 * 1024) / 1999));

/** The verify row's bundle `b` of 50: the manifest and 39 tools of 1-16 KiB. */
export const verifyBundle = (dir: string, b: number) =>
  toolBundle(dir, `b${b}`, 39, (i) => 1024 + ((i * 7919 + b * 104729) % (15 * 1024)));

/** A valid C2 bundle with exactly 5,000 files and just under 20 MiB, spread over 50 folders (the C2 limits). */
export function limitBundle(dir: string): string {
  mkdirSync(join(dir, "skills", "bench"), { recursive: true });
  writeFileSync(
    join(dir, "plugin.json"),
    JSON.stringify({
      $schema: "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json",
      name: "bench",
      version: "1.0.0",
      extensions: { "dev.codetwo": { standardVersion: "1.2.0" } },
    }),
  );
  writeFileSync(join(dir, "skills", "bench", "SKILL.md"), "---\nname: bench\ndescription: Bench skill.\n---\nBody.\n");
  const dataFiles = 5000 - 2;
  const size = Math.floor((20 * MiB - 4096) / dataFiles);
  const buf = new Uint8Array(size);
  for (let i = 0; i < dataFiles; i++) {
    new DataView(buf.buffer).setUint32(0, i); // distinct contents
    const sub = join(dir, "data", `d${i % 50}`);
    if (i < 50) mkdirSync(sub, { recursive: true });
    writeFileSync(join(sub, `f${i}.bin`), buf);
  }
  return dir;
}

// (parent, phase) slots a sub-skill may take; each may be bound once across everything installed.
const SLOTS: [string, string][] = [
  ...["intake", "research", "verdict", "complete", "failed", "cancelled", "handoff"].map((p): [string, string] => [
    "autoresearch",
    p,
  ]),
  ...["interviewing", "handoff", "complete"].map((p): [string, string] => ["deep-interview", p]),
  ...["planner", "architect", "critic", "disposition", "revision", "post-interview", "adr", "final", "handoff"].map(
    (p): [string, string] => ["ralplan", p],
  ),
  ...["missing", "goal-planning", "pending", "active", "blocked", "failed", "complete", "handoff"].map(
    (p): [string, string] => ["ultragoal", p],
  ),
];

/**
 * The session row's bundle `b` of 100: the manifest plus 19 declared files of 1-16 KiB: 17
 * always-on tools, one system appendix and one sub-skill (while there are (parent, phase) slots
 * left, else an 18th tool).
 */
export function sessionBundle(dir: string, b: number): string {
  const name = `s${b}`;
  const size = (i: number) => 1024 + ((i * 7919 + b * 104729) % (15 * 1024));
  const filler = (n: number, head: string) => {
    const bytes = new Uint8Array(n).fill(0x61);
    bytes.set(new TextEncoder().encode(head));
    return bytes;
  };
  const write = (rel: string, data: Uint8Array | string) => {
    mkdirSync(join(dir, rel, ".."), { recursive: true });
    writeFileSync(join(dir, rel), data);
  };
  const manifest: Record<string, unknown> = { kind: "gajae-code-plugin", name, version: "1.0.0" };
  const slot = SLOTS[b];
  const toolCount = slot ? 17 : 18;
  manifest.tools = Array.from({ length: toolCount }, (_, i) => {
    write(`tools/t${i}.ts`, filler(size(i), `export default () => ({ name: "${name}_t${i}", execute() {} }); //`));
    return { name: `${name}_t${i}`, path: `tools/t${i}.ts`, description: `tool ${i} of ${name}` };
  });
  write("prompts/system.md", filler((size(100) % 2048) + 256, `# ${name} policy\n`));
  manifest.system_appendix = [{ name: "policy", path: "prompts/system.md" }];
  if (slot) {
    const head = `---\nname: sk${b}\ndescription: Sub-skill ${b}\nbinds_to: ${slot[0]}\nphase: ${slot[1]}\nactivation_arg: sk${b}\n---\n`;
    write("subskills/sk/SKILL.md", filler(size(200), head));
    manifest.subskills = ["subskills/sk/SKILL.md"];
  }
  writeFileSync(join(dir, "gajae-plugin.json"), JSON.stringify(manifest));
  return dir;
}

/** Runs `gjc <args>` for set-up, failing the bench when it fails. */
export function setup(gjc: string, args: string[], o: { env: Record<string, string>; cwd: string }): void {
  const p = Bun.spawnSync([gjc, ...args], {
    env: { ...process.env, ...o.env },
    cwd: o.cwd,
    stdout: "ignore",
    stderr: "pipe",
  });
  if (p.exitCode !== 0) throw new Error(`set-up "gjc ${args.join(" ")}" failed: ${p.stderr.toString()}`);
}

/** The `sha256sum -c` list of every file a scope's registry records, and their byte total. */
export function installedSums(scopeRoot: string): { lines: string[]; bytes: number } {
  const registry = JSON.parse(readFileSync(join(scopeRoot, "registry.json"), "utf8"));
  const files: { path: string; sha256: string; bytes: number }[] = registry.plugins.flatMap(
    (p: { pluginRoot: string; copiedFiles: { relativePath: string; sha256: string; bytes: number }[] }) =>
      p.copiedFiles.map((f) => ({ path: join(p.pluginRoot, f.relativePath), sha256: f.sha256, bytes: f.bytes })),
  );
  return { lines: files.map((f) => `${f.sha256}  ${f.path}`), bytes: files.reduce((n, f) => n + f.bytes, 0) };
}
