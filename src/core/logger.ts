import type { ConsolaInstance, LogObject } from "consola/core";
import type { Style } from "./style.ts";

/** Where log lines go; always stderr in the CLI so stdout stays machine-readable. */
export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  progress(message: string): void;
}

export const silentLogger: Logger = { info() {}, warn() {}, progress() {} };

/**
 * Logs, warnings and progress on stderr through consola (its core build: no fancy reporter,
 * no prompts), with one reporter of ours that writes plain lines: `warning: …` in yellow,
 * progress dimmed. consola also folds a line repeated within a second into one with a count.
 * It is loaded on the first line logged, so a command that logs nothing never pays for it.
 */
export function stderrLogger(style: Style): Logger {
  let consola: ConsolaInstance | undefined;
  const logger = (): ConsolaInstance => (consola ??= createStderrConsola(style));
  return {
    info: (m) => logger().info(m),
    warn: (m) => logger().warn(m),
    progress: (m) => logger().start(m),
  };
}

function createStderrConsola(style: Style): ConsolaInstance {
  const { createConsola } = require("consola/core") as typeof import("consola/core");
  let guarded = false;
  const write = (line: string) => {
    // Logging is best effort: a reader that closed stderr (EPIPE) must not crash the command.
    if (!guarded) process.stderr.on("error", () => undefined);
    guarded = true;
    process.stderr.write(`${line}\n`);
  };
  const format = (entry: LogObject): string => {
    const text = entry.args.map(String).join(" ");
    if (entry.type === "warn") return `${style.yellow("warning")}: ${text}`;
    if (entry.type === "start") return style.dim(text);
    return text;
  };
  return createConsola({ level: 3, reporters: [{ log: (entry) => write(format(entry)) }] });
}
