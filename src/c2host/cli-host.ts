import type { Context } from "../core/context.ts";
import { usageError } from "../core/errors.ts";
import { profileFor } from "../store/sandbox-profile.ts";
import { storeDirectory } from "./bundle-directory.ts";
import { RuntimeHost, type RuntimeHostOptions } from "./runtime-host.ts";

/**
 * Handshake timeout override, for slow machines and tests (`GJC_C2_HANDSHAKE_TIMEOUT_MS`);
 * the default stays the protocol's 10 s.
 */
export function handshakeTimeoutFromEnv(env: Record<string, string | undefined>): number | undefined {
  const raw = env.GJC_C2_HANDSHAKE_TIMEOUT_MS;
  if (raw === undefined || raw === "") return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1)
    throw usageError(`GJC_C2_HANDSHAKE_TIMEOUT_MS must be a positive integer, not "${raw}".`);
  return n;
}

/** Runtime logs on stderr, prefixed by the plugin; debug and trace only with GJC_DEBUG. */
export function runtimeLogger(ctx: Context): NonNullable<RuntimeHostOptions["log"]> {
  return (plugin, level, message) => {
    if ((level === "debug" || level === "trace") && !ctx.env.GJC_DEBUG) return;
    const line = `[${plugin}] ${message}`;
    if (level === "error" || level === "warn") ctx.log.warn(line);
    else ctx.log.info(line);
  };
}

export async function createCliHost(ctx: Context, extra: Partial<RuntimeHostOptions> = {}): Promise<RuntimeHost> {
  return new RuntimeHost({
    directory: await storeDirectory(ctx),
    env: ctx.env,
    log: runtimeLogger(ctx),
    handshakeTimeoutMs: handshakeTimeoutFromEnv(ctx.env),
    sandboxProfile: (subject, base) => profileFor(ctx, subject, base),
    ...extra,
  });
}

/**
 * One-shot verbs: a host for one call, and every child stopped and reaped before the verb
 * returns, whatever happened.
 */
export async function withCliHost<T>(ctx: Context, fn: (host: RuntimeHost) => Promise<T>): Promise<T> {
  const host = await createCliHost(ctx);
  try {
    return await fn(host);
  } finally {
    await host.shutdown();
  }
}
