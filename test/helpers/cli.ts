import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Value } from "typebox/value";

export const repoRoot = join(import.meta.dir, "..", "..");
export const cliEntry = join(repoRoot, "src", "cli.ts");
export const fixturesDir = join(repoRoot, "fixtures");

export interface CliResult {
  exitCode: number;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON (throws if it is not one document, or if it breaks the docs/json schema its `schema` field names). */
  json<T = any>(): T;
}

export interface CliOptions {
  cwd?: string;
  env?: Record<string, string | undefined>;
  /** Run this binary instead of `bun src/cli.ts` (the compiled smoke test). */
  binary?: string;
  stdin?: string;
  /** An argv prefix the CLI runs under (e.g. a read-only mount namespace, test/helpers/read-only.ts). */
  wrap?: string[];
}

/** Spawns the real CLI as a child process and waits for it to finish. */
export async function runCli(args: string[], options: CliOptions = {}): Promise<CliResult> {
  const cmd = [
    ...(options.wrap ?? []),
    ...(options.binary ? [options.binary, ...args] : [process.execPath, cliEntry, ...args]),
  ];
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...process.env, NO_COLOR: "1", ...options.env }))
    if (v !== undefined) env[k] = v;
  const proc = Bun.spawn(cmd, {
    cwd: options.cwd ?? repoRoot,
    env,
    stdin: options.stdin !== undefined ? new TextEncoder().encode(options.stdin) : "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, exitCode] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  // Every --json document gjc prints is held to its published schema, however the test reads it.
  if (stdout.startsWith("{")) {
    let doc: unknown;
    try {
      doc = JSON.parse(stdout);
    } catch {}
    if (doc !== undefined) assertMatchesSchema(doc);
  }
  return {
    exitCode,
    stdout,
    stderr,
    json() {
      let doc: any;
      try {
        doc = JSON.parse(stdout);
      } catch {
        throw new Error(`stdout is not JSON (exit ${exitCode}):\n${stdout}\n--- stderr ---\n${stderr}`);
      }
      assertMatchesSchema(doc);
      return doc;
    },
  };
}

let published: Map<string, unknown> | undefined;

/** The JSON Schemas under docs/json by their `$id` (`gjc/list@1`, …). */
function publishedSchemas(): Map<string, unknown> {
  if (published) return published;
  published = new Map();
  const dir = join(repoRoot, "docs", "json");
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".schema.json"))) {
    const schema = JSON.parse(readFileSync(join(dir, file), "utf8")) as { $id?: string };
    if (schema.$id) published.set(schema.$id, schema);
  }
  return published;
}

/**
 * Every document a test reads whose `schema` names a published JSON Schema is held to it, so
 * the schemas in docs/json and what the verbs print cannot drift apart.
 */
export function assertMatchesSchema(doc: unknown): void {
  const id = typeof doc === "object" && doc !== null ? (doc as { schema?: unknown }).schema : undefined;
  if (typeof id !== "string") return;
  const schema = publishedSchemas().get(id);
  if (schema === undefined || isErrorEnvelope(doc as Record<string, unknown>)) return;
  if (Value.Check(schema as never, doc)) return;
  const errors = [...Value.Errors(schema as never, doc)]
    .slice(0, 10)
    .map((e) => `  ${e.instancePath || "/"}: ${e.message}`);
  throw new Error(
    `The ${id} document does not match docs/json:\n${errors.join("\n")}\n${JSON.stringify(doc, null, 2).slice(0, 4000)}`,
  );
}

/** The one failure document every verb prints (README "Conventions"), whatever its verb's schema. */
function isErrorEnvelope(doc: Record<string, unknown>): boolean {
  const error = doc.error as Record<string, unknown> | undefined;
  if (doc.ok !== false || typeof error !== "object" || error === null) return false;
  if (Object.keys(doc).some((k) => k !== "schema" && k !== "ok" && k !== "error")) return false;
  if (Object.keys(error).some((k) => !["code", "message", "hint", "details"].includes(k))) return false;
  return typeof error.code === "string" && typeof error.message === "string";
}
