import { join, resolve } from "node:path";
import { silentLogger, stderrLogger, type Logger } from "./logger.ts";
import { colorEnabled, makeStyle, type Style } from "./style.ts";

export type { Logger } from "./logger.ts";
export { silentLogger } from "./logger.ts";

/**
 * Every side effect that depends on the machine goes through this object, so tests can run
 * in a temporary home with their own environment and no globals.
 */
export interface Context {
  cwd: string;
  env: Record<string, string | undefined>;
  home: string;
  host: string;
  now(): Date;
  log: Logger;
  /** Styling for human output on stdout. */
  out: Style;
  /** Styling for stderr lines. */
  err: Style;
}

export interface ContextInit {
  /** The working directory and environment of this invocation: the caller owns the process. */
  cwd: string;
  env: Record<string, string | undefined>;
  now?: () => Date;
  log?: Logger;
  /** Whether the stream is a terminal; a function is called only when colour depends on it. */
  stdoutTTY?: boolean | (() => boolean);
  stderrTTY?: boolean | (() => boolean);
  quiet?: boolean;
}

export function createContext(init: ContextInit): Context {
  const env = init.env;
  const err = makeStyle(colorEnabled(env, init.stderrTTY ?? false));
  const out = makeStyle(colorEnabled(env, init.stdoutTTY ?? false));
  const home = env.HOME && env.HOME !== "" ? env.HOME : os().homedir();
  let host: string | undefined;
  return {
    cwd: init.cwd,
    env,
    home,
    get host() {
      return (host ??= os().hostname());
    },
    now: init.now ?? (() => new Date()),
    log: init.log ?? (init.quiet ? silentLogger : stderrLogger(err)),
    out,
    err,
  };
}

/** node:os on demand: importing it costs ~0.1 ms of start-up and most commands never need it. */
const os = () => require("node:os") as typeof import("node:os");

/** Expands a leading `~/` against the context's home (sources typed by people use it). */
export function expandHome(ctx: Context, p: string): string {
  if (p === "~") return ctx.home;
  if (p.startsWith("~/")) return join(ctx.home, p.slice(2));
  return resolve(ctx.cwd, p);
}

/** GJC user scope root: `~/.gjc/agent/gjc-plugins`, or `GJC_USER_DIR`. */
export function gjcUserRoot(ctx: Context): string {
  return ctx.env.GJC_USER_DIR ? resolve(ctx.cwd, ctx.env.GJC_USER_DIR) : join(ctx.home, ".gjc", "agent", "gjc-plugins");
}

/** GJC project scope root: `<project>/.gjc/gjc-plugins`. */
export function gjcProjectRoot(projectDir: string): string {
  return join(projectDir, ".gjc", "gjc-plugins");
}

/** C2 data directory: `~/.codetwo`, or `GJC_C2_DATA_DIR`. */
export function c2DataDir(ctx: Context): string {
  return ctx.env.GJC_C2_DATA_DIR ? resolve(ctx.cwd, ctx.env.GJC_C2_DATA_DIR) : join(ctx.home, ".codetwo");
}

/** The content cache (and the fetch scratch inside it): `$GJC_CACHE_DIR`, else `$XDG_CACHE_HOME/gjc`, else `~/.cache/gjc`. */
export function cacheRoot(ctx: Context): string {
  if (ctx.env.GJC_CACHE_DIR) return resolve(ctx.cwd, ctx.env.GJC_CACHE_DIR);
  if (ctx.env.XDG_CACHE_HOME) return join(resolve(ctx.cwd, ctx.env.XDG_CACHE_HOME), "gjc");
  return join(ctx.home, ".cache", "gjc");
}
