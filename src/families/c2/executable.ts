/**
 * Rules for a declared executable (runtime.command, languageServers[].command): a bare name
 * looked up on PATH, or a path inside the bundle that exists as a regular file reached
 * without any symlink. `..` and `${` are never allowed.
 */
import type { Code } from "../../core/codes.ts";
import type { DiagnosticSink } from "../../core/diagnostics.ts";
import { relativePathProblem, stripDotSlash, walkInside } from "../../bundle/path-safety.ts";

export interface ExecutableCheck {
  sink: DiagnosticSink;
  path: string;
  /** "runtime command" / "language server command", for messages. */
  label: string;
  /** Code for a malformed value (e.g. invalid_runtime). */
  code: Code;
  bundleDir?: string;
}

/** True when the command names a file in the bundle rather than a program on PATH. */
export function isBundleRelative(command: string): boolean {
  return command.includes("/") || command.includes("\\");
}

export function checkExecutable(command: string, c: ExecutableCheck): void {
  const value = command.trim();
  if (value === "") {
    c.sink.error(
      c.code,
      c.path,
      `The ${c.label} is empty.`,
      "Name an executable (node) or a file in the bundle (./bin/server).",
    );
    return;
  }
  if (value !== command) {
    c.sink.error(
      c.code,
      c.path,
      `The ${c.label} ${JSON.stringify(command)} has leading or trailing spaces.`,
      "Remove the spaces; arguments belong in args.",
    );
    return;
  }
  if (command.includes("${")) {
    c.sink.error(
      c.code,
      c.path,
      `The ${c.label} ${JSON.stringify(command)} contains "\${"; variables are not expanded in commands.`,
      "Write the executable name or a bundle-relative path.",
    );
    return;
  }
  if (command.includes("..")) {
    c.sink.error(
      "unsafe_path",
      c.path,
      `The ${c.label} ${JSON.stringify(command)} contains "..".`,
      "Executables must stay inside the bundle: use ./bin/tool.",
    );
    return;
  }
  if (!isBundleRelative(command)) return;
  const rel = stripDotSlash(command);
  const problem = command.startsWith("/") ? "is absolute" : relativePathProblem(rel);
  if (problem) {
    c.sink.error(
      "unsafe_path",
      c.path,
      `The ${c.label} ${JSON.stringify(command)} ${problem}.`,
      "Use a relative path inside the bundle such as ./bin/tool, or a bare program name found on PATH.",
    );
    return;
  }
  if (!c.bundleDir) return;
  const walk = walkInside(c.bundleDir, rel, "file");
  if (walk.ok) return;
  switch (walk.reason) {
    case "missing":
      c.sink.error(
        "missing_file",
        c.path,
        `The ${c.label} ${JSON.stringify(command)} does not exist in the bundle.`,
        "Ship the file at that path, relative to the bundle root.",
      );
      return;
    case "symlink":
      c.sink.error(
        "unsafe_path",
        c.path,
        `The ${c.label} ${JSON.stringify(command)} goes through the symbolic link ${walk.at}.`,
        "Ship the real file in the bundle; links are never followed.",
      );
      return;
    default:
      c.sink.error(
        "missing_file",
        c.path,
        `The ${c.label} ${JSON.stringify(command)} is not a regular file.`,
        "Point it at the executable file itself.",
      );
  }
}
