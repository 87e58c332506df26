import { realpathSync } from "node:fs";
import { basename, dirname, sep } from "node:path";

/** What every confined command may read and execute: the system's programs, libraries and configuration. */
export const SYSTEM_READ = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc"];

/** The kernel's views a runtime reads at start (CPU count, memory limits); readable, never executable. */
export const SYSTEM_READ_NO_EXEC = ["/proc", "/sys/fs/cgroup", "/sys/devices/system/cpu"];

/** Device files a process may open for reading and writing. */
export const SYSTEM_DEVICES = ["/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom"];

/**
 * What the command needs beside the system: its own file and, for an interpreter installed as
 * `<prefix>/bin/<name>` (nvm, asdf, pyenv, a tarball of Node), that prefix, where its standard
 * library lives. Never a prefix that is the home, a folder that holds it, or a folder directly
 * in it (`~/.local/bin/node` gets only its own file, not `~/.local`).
 */
export function commandPaths(command: string, home: string): string[] {
  let real: string;
  try {
    real = realpathSync(command);
  } catch {
    return [command];
  }
  const dir = dirname(real);
  if (basename(dir) !== "bin") return [real];
  const prefix = dirname(dir);
  const homeReal = safeRealpath(home);
  const tooWide = (p: string) => p === sep || isWithin(homeReal, p) || dirname(p) === homeReal;
  return tooWide(prefix) ? [real] : [real, prefix];
}

const isWithin = (child: string, parent: string) =>
  child === parent || child.startsWith(parent.endsWith(sep) ? parent : parent + sep);

function safeRealpath(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}
