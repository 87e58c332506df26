import { fstatSync, statSync } from "node:fs";
import { runCommand } from "citty";
import { createContext, type Context } from "../core/context.ts";
import { GjcError, isGjcError, usageError } from "../core/errors.ts";
import { ExitCode } from "../core/exit-codes.ts";
import { isBrokenPipe, osErrorFrom } from "../core/os-errors.ts";
import { didYouMean } from "../core/suggest.ts";
import { screenVerbArgs } from "./args.ts";
import type { VerbData, VerbOutcome } from "./define-verb.ts";
import { groupHelp, verbHelp } from "./help.ts";
import { drainSandboxNotices } from "../process/sandbox/notices.ts";
import { jsonText, terminalSafe } from "./render/terminal-safe.ts";
import { gjc, isGroup, subCommand, type GjcCommand } from "./verbs.ts";

export interface MainIO {
  stdout(text: string): void;
  stderr(text: string): void;
  ctx?: Context;
}

/**
 * Standard streams through Bun.write, chained so stdout and stderr keep their order. Touching
 * `process.stdout` builds a Node stream, which costs ~10 ms in a compiled binary: more than
 * the whole of `gjc plugin validate` on a small bundle. `main` waits for the chain to drain.
 *
 * A reader that stops early (`gjc … | head -1`) closes the pipe: the write fails with EPIPE.
 * That is the reader's choice, not a failure of gjc: the rest of the output is dropped, nothing
 * is printed about it and the exit status stays the command's own (no 141, no stack trace).
 * Any other write failure (stdout redirected to a full disk) is remembered and reported once
 * by `main` with the code the OS condition maps to.
 */
let pendingWrites: Promise<unknown> = Promise.resolve();
let outputFailure: { error: unknown; stream: string } | undefined;
const closedStreams = new Set<typeof Bun.stdout>();
const writeTo = (file: typeof Bun.stdout) => (text: string) => {
  pendingWrites = pendingWrites.then(async () => {
    if (closedStreams.has(file)) return;
    try {
      await Bun.write(file, text);
    } catch (error) {
      closedStreams.add(file);
      if (!isBrokenPipe(error))
        outputFailure ??= { error, stream: file === Bun.stdout ? "the standard output" : "the standard error" };
    }
  });
};
const processIO: MainIO = { stdout: writeTo(Bun.stdout), stderr: writeTo(Bun.stderr) };

/**
 * A terminal is a character device other than /dev/null; only then is node:tty asked
 * (importing it costs 1.3-2.5 ms at start-up, and pipes, files and /dev/null, the usual
 * cases for scripts, never need it). Called only when NO_COLOR / FORCE_COLOR do not decide.
 */
function isTerminal(fd: number): boolean {
  let rdev: number;
  try {
    const st = fstatSync(fd);
    if (!st.isCharacterDevice()) return false;
    rdev = st.rdev;
  } catch {
    return false;
  }
  if (isDevNull(rdev)) return false;
  return (require("node:tty") as typeof import("node:tty")).isatty(fd);
}

function isDevNull(rdev: number): boolean {
  try {
    return rdev === statSync("/dev/null").rdev;
  } catch {
    return false; // no /dev/null here (Windows): let node:tty answer
  }
}

function hasHelp(tokens: string[]): boolean {
  return tokens.some((t) => t === "--help" || t === "-h");
}

/** Runs one invocation and returns the exit code; never calls process.exit. */
export async function main(argv: string[], io: MainIO = processIO): Promise<number> {
  if (io !== processIO) return runMain(argv, io);
  const exit = await runMain(argv, io);
  await pendingWrites;
  if (outputFailure === undefined) return exit;
  // A stream could not be written (not a closed pipe): say so on stderr if it still works.
  const failure = osErrorFrom(outputFailure.error, outputFailure.stream);
  if (!closedStreams.has(Bun.stderr)) {
    // The command itself ran to its end (an install may be done): only its report was lost.
    const hint = `The command finished, but its output was lost; send ${outputFailure.stream} somewhere with room and run it again to see the result.`;
    const message = failure
      ? `error[${failure.code}]: ${failure.message}\n  hint: ${hint}\n`
      : `error[internal_error]: Could not write ${outputFailure.stream}: ${String(outputFailure.error)}\n`;
    await Bun.write(Bun.stderr, message).catch(() => undefined);
  }
  return failure?.exit ?? ExitCode.internal;
}

/** `--json`, or its spelling for verbs with several formats: `--format json` / `--format=json`. */
function wantsJson(argv: string[]): boolean {
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--") return false;
    if (argv[i] === "--json" || argv[i] === "--format=json" || (argv[i] === "--format" && argv[i + 1] === "json"))
      return true;
  }
  return false;
}

async function runMain(argv: string[], io: MainIO): Promise<number> {
  try {
    return await runVerb(argv, io);
  } finally {
    printSandboxNotices(io);
  }
}

/**
 * What the sandbox had to say, once per command however many processes it started
 * (src/process/sandbox/notices.ts); before an error envelope, which stays the last line.
 */
function printSandboxNotices(io: MainIO): void {
  for (const n of drainSandboxNotices())
    io.stderr(terminalSafe(`warning[${n.code}]: ${n.message}\n  hint: ${n.hint}\n`));
}

async function runVerb(argv: string[], io: MainIO): Promise<number> {
  const json = wantsJson(argv);
  let schema = "gjc/error@1";
  const ctx =
    io.ctx ??
    withSafeLog(
      createContext({
        env: process.env,
        cwd: process.cwd(),
        stdoutTTY: () => isTerminal(1),
        stderrTTY: () => isTerminal(2),
      }),
    );
  try {
    const { path, command, remaining } = await resolveCommand(argv);
    if (isGroup(command)) {
      if (hasHelp(remaining) || (path.length === 0 && remaining.length === 0)) {
        io.stdout(groupHelp(path, command));
        return ExitCode.ok;
      }
      if (remaining.length === 0) {
        io.stderr(groupHelp(path, command));
        return ExitCode.usage;
      }
      // A group takes only --help (and the top level --version); a typo of one gets a suggestion.
      const options = path.length === 0 ? ["--help", "-h", "--version", "-V"] : ["--help", "-h"];
      throw usageError(
        `Unknown option ${remaining[0]} for "${["gjc", ...path].join(" ")}".${didYouMean(remaining[0], options)}`,
        `Run "${["gjc", ...path].join(" ")} --help".`,
        "unknown_option",
      );
    }
    schema = command.schema;
    const beforeDashes = remaining.indexOf("--") === -1 ? remaining : remaining.slice(0, remaining.indexOf("--"));
    if (hasHelp(beforeDashes)) {
      io.stdout(verbHelp(command));
      return ExitCode.ok;
    }
    // gjc's strict layer screens the tokens; citty parses them and runs the verb's command.
    const { tokens, rest, repeated } = screenVerbArgs(remaining, command.args, {
      commandName: command.meta.name,
      rest: command.rest,
      passthrough: command.passthrough,
      repeatable: command.repeatable,
    });
    const data: VerbData = { ctx, rest, repeated };
    const outcome = (await runCommand(command, { rawArgs: tokens, data })).result as VerbOutcome;
    // The choke point of human output: whatever a renderer interpolated (bundle names,
    // diagnostics, runtime results, server descriptions) cannot drive the terminal.
    if (json) io.stdout(`${jsonText(outcome.json)}\n`);
    else if (outcome.human !== "") {
      const human = terminalSafe(outcome.human, { keepStyle: ctx.out.enabled });
      io.stdout(human.endsWith("\n") ? human : `${human}\n`);
    }
    return outcome.exit ?? ExitCode.ok;
  } catch (error) {
    printSandboxNotices(io);
    return reportError(error, { json, schema, io, ctx });
  }
}

/** Log lines reach stderr through the same terminal-safe function as every human line. */
function withSafeLog(ctx: Context): Context {
  const log = ctx.log;
  ctx.log = {
    info: (m) => log.info(terminalSafe(m, { keepStyle: ctx.err.enabled })),
    warn: (m) => log.warn(terminalSafe(m, { keepStyle: ctx.err.enabled })),
    progress: (m) => log.progress(terminalSafe(m, { keepStyle: ctx.err.enabled })),
  };
  return ctx;
}

/**
 * Walks citty's sub-commands from the root along the leading words of argv, down to a verb
 * or to a group followed by an option (or by nothing). citty's own runCommand would do this
 * walk too, but it passes no `data` to a sub-command and has neither gjc's did-you-mean nor its
 * error codes, so main walks and runs only the verb it reaches with citty.
 */
async function resolveCommand(argv: string[]): Promise<{ path: string[]; command: GjcCommand; remaining: string[] }> {
  let command: GjcCommand = gjc;
  const path: string[] = [];
  let i = 0;
  while (i < argv.length && isGroup(command)) {
    const token = argv[i];
    if (token.startsWith("-")) break;
    const child = await subCommand(command, token);
    if (!child) {
      const where = ["gjc", ...path].join(" ");
      throw usageError(
        `"${token}" is not a ${where} command.${didYouMean(token, Object.keys(command.subCommands))}`,
        `Run "${where} --help" to list the commands.`,
        "unknown_command",
      );
    }
    command = child;
    path.push(token);
    i++;
  }
  return { path, command, remaining: argv.slice(i) };
}

function reportError(error: unknown, o: { json: boolean; schema: string; io: MainIO; ctx: Context }): number {
  // An OS refusal (read-only, permissions, full disk, a file in the way) from any verb gets its
  // own code and exit 1; only what is left is an internal error.
  const gjcError = isGjcError(error)
    ? error
    : (osErrorFrom(error) ??
      new GjcError({
        code: "internal_error",
        message: `Internal error: ${error instanceof Error ? error.message : String(error)}`,
        hint: "This is a bug in gjc; please report it with the command you ran.",
        exit: ExitCode.internal,
      }));
  const envelope = {
    code: gjcError.code,
    message: gjcError.message,
    ...(gjcError.hint ? { hint: gjcError.hint } : {}),
  };
  if (o.json) {
    o.io.stdout(
      `${jsonText({ schema: o.schema, ok: false, error: { ...envelope, ...(gjcError.details !== undefined ? { details: gjcError.details } : {}) } })}\n`,
    );
    o.io.stderr(`${jsonText({ error: envelope }, 0)}\n`);
  } else {
    const s = o.ctx.err;
    // Messages and hints may quote input (a path, a name, a server's words).
    o.io.stderr(
      `${s.red(s.bold("error"))}${s.dim(`[${terminalSafe(gjcError.code)}]`)}: ${terminalSafe(gjcError.message)}\n`,
    );
    if (gjcError.hint) o.io.stderr(`  ${s.cyan("hint")}: ${terminalSafe(gjcError.hint)}\n`);
    o.io.stderr(`  ${s.cyan("see")}: gjc explain ${gjcError.code}\n`);
    if (gjcError.exit === ExitCode.internal && o.ctx.env.GJC_DEBUG && error instanceof Error)
      o.io.stderr(`${error.stack}\n`);
  }
  return gjcError.exit;
}
