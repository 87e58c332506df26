import { rmSync } from "node:fs";
import { publicHostCommands } from "../c2host/host-commands.ts";
import { HOST_NAME, missingServices } from "../c2host/host-identity.ts";
import { RuntimeInstance } from "../c2host/runtime-instance.ts";
import type { Context } from "../core/context.ts";
import { isGjcError } from "../core/errors.ts";
import { planC2Bundle } from "../families/c2/validate.ts";
import { privateScratch } from "../sources/scratch.ts";
import {
  manifestCheck,
  type ConformanceCheck,
  type ConformanceReport,
  type SampleArgs,
} from "../authoring/conformance-types.ts";

/**
 * How long one sample call may take when --timeout is not given: as long as the handshake may.
 * A call that is never answered then fails its check (invoke_timeout) and the runtime is stopped,
 * instead of the test waiting forever.
 */
export const DEFAULT_TEST_CALL_TIMEOUT_MS = 10_000;

const ms = (start: number) => Math.round((performance.now() - start) * 10) / 10;

/**
 * Conformance of a C2 bundle from its source folder: the same validation as install, then
 * (when it has a runtime) a real start with a throw-away data directory, the handshake rules
 * of the host, one call per command that has sample arguments, and a full stop.
 */
export async function testC2Bundle(
  ctx: Context,
  dir: string,
  samples: SampleArgs,
  opts: { timeoutMs?: number } = {},
): Promise<ConformanceReport> {
  const checks: ConformanceCheck[] = [];
  const plan = planC2Bundle(dir);
  checks.push(manifestCheck(plan.diagnostics, dir, "plugin.json and the bundle"));
  const report = (): ConformanceReport => ({
    family: "c2",
    dir,
    name: plan.declared.name,
    version: plan.declared.version,
    ok: checks.every((c) => c.ok),
    checks,
  });
  const manifest = plan.manifest;
  if (!manifest || !checks[0].ok) return report();
  const runtime = manifest.codetwo.runtime;
  if (!runtime) {
    checks.push({
      rule: "runtime",
      ok: true,
      skipped: true,
      message: "The bundle has no process runtime; nothing to start.",
    });
    return report();
  }
  for (const id of Object.keys(samples)) {
    if (!manifest.codetwo.commands.some((c) => c.id === id)) {
      checks.push({
        rule: "sample-args",
        ok: false,
        code: "unknown_command",
        message: `Sample arguments name ${id}, which plugin.json does not declare.`,
        hint: "Fix the command id in --args or gjc.test.json.",
      });
    }
  }
  const missing = missingServices(runtime.inject);
  if (missing.length > 0) {
    checks.push({
      rule: "services",
      ok: false,
      code: "missing_service",
      message: `The runtime needs ${missing.join(", ")}, which the ${HOST_NAME} host does not provide.`,
      hint: "Such a runtime stays pending in gjc; test it in a host that offers those services.",
    });
    return report();
  }

  const dataDir = privateScratch(ctx, "plugin-test");
  const logs: string[] = [];
  const hostCommands = publicHostCommands({ env: ctx.env, listPlugins: async () => [] });
  const instance = new RuntimeInstance(
    {
      bundleId: `test:${manifest.name}`,
      name: manifest.name,
      version: manifest.version,
      bundleDir: dir,
      dataDir,
      manifest,
      config: null,
      visibleCommands: [...hostCommands.keys()],
    },
    {
      env: ctx.env,
      hostCommands,
      log: (_plugin, level, message) => void logs.push(`${level}: ${message}`),
      onEvent: () => {},
      onConnectorEvent: () => {},
      ...(opts.timeoutMs !== undefined ? { handshakeTimeoutMs: opts.timeoutMs } : {}),
    },
  );
  try {
    const started = performance.now();
    try {
      await instance.start();
      checks.push({
        rule: "handshake",
        ok: true,
        latencyMs: ms(started),
        message: `initialize answered with protocol 1.x and exactly the ${manifest.codetwo.commands.length} declared command(s) and schemas.`,
      });
    } catch (e) {
      checks.push({
        rule: "handshake",
        ok: false,
        latencyMs: ms(started),
        code: isGjcError(e) ? e.code : "handshake_failed",
        message: (e as Error).message,
        hint: handshakeHint(isGjcError(e) ? e.code : ""),
      });
      return report();
    }
    for (const command of manifest.codetwo.commands) {
      const sample = samples[command.id];
      if (!sample) {
        checks.push({
          rule: `invoke ${command.id}`,
          ok: true,
          skipped: true,
          message: "No sample arguments; not invoked.",
          hint: `Add {"commands": {"${command.id}": {"args": {…}}}} to gjc.test.json or pass --args.`,
        });
        continue;
      }
      const t = performance.now();
      try {
        const result = await instance.invoke(command.id, sample.args, {
          timeoutMs: opts.timeoutMs ?? DEFAULT_TEST_CALL_TIMEOUT_MS,
        });
        if ("expect" in sample && !Bun.deepEquals(result, sample.expect)) {
          checks.push({
            rule: `invoke ${command.id}`,
            ok: false,
            latencyMs: ms(t),
            code: "unexpected_result",
            message: `Returned ${JSON.stringify(result)}, expected ${JSON.stringify(sample.expect)}.`,
          });
        } else {
          checks.push({
            rule: `invoke ${command.id}`,
            ok: true,
            latencyMs: ms(t),
            message: `Returned ${truncate(JSON.stringify(result) ?? "null")}.`,
          });
        }
      } catch (e) {
        checks.push({
          rule: `invoke ${command.id}`,
          ok: false,
          latencyMs: ms(t),
          code: isGjcError(e) ? e.code : "plugin_command_failed",
          message: (e as Error).message,
        });
        if (instance.phase !== "running") break;
      }
    }
  } finally {
    await instance.unload();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return report();
}

function handshakeHint(code: string): string {
  switch (code) {
    case "handshake_mismatch":
      return "initialize must return exactly the commands of plugin.json, each with a schema equal to its argsSchema.";
    case "handshake_protocol":
      return 'Answer initialize with protocolVersion "1.x.y"; gjc speaks protocol 1.';
    case "handshake_timeout":
      return "The runtime must answer initialize on stdout (one JSON line) within 10 seconds.";
    default:
      return "Run the runtime by hand and check it reads JSON-RPC lines on stdin and answers on stdout.";
  }
}

const truncate = (s: string) => (s.length > 200 ? `${s.slice(0, 200)}…` : s);
