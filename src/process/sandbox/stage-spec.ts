/**
 * What the parent hands the launcher stage (one JSON argument): the rules to apply to itself
 * before it execs the real command. Paths are absolute; the parent resolved them.
 */
export interface StageSpec {
  /** Read and execute beneath these. */
  read: string[];
  /** Read, but not execute (the kernel's /proc and /sys views). */
  readNoExec: string[];
  /** Read and write regular files (device files such as /dev/null), nothing else. */
  devices: string[];
  /** Everything beneath these (data and temporary directories, write grants). */
  write: string[];
  /** TCP ports the process may connect to; null leaves TCP to the network namespace. */
  connectPorts: number[] | null;
  /** Apply the seccomp filter. */
  seccomp: boolean;
  /** Variables set for the command only (never for the stage itself, e.g. BUN_BE_BUN). */
  setEnv: Record<string, string>;
  /**
   * With a mount namespace: the folders to cover with an empty tmpfs (the stage resolves them
   * and binds back the paths above that lie beneath them: hide-plan.ts); null without one.
   */
  cover: string[] | null;
  /** For a process with network grants in its own namespace: the forwarder to start there first (its argv). */
  forwarder: string[] | null;
}

/** The argument that marks a re-exec of gjc as the launcher stage (cli.ts answers it first). */
export const STAGE_ARGUMENT = "__sandbox-stage";

/** What the forwarder inside a namespace listens on and where it hands connections (src/process/sandbox/forwarder.ts). */
export interface ForwarderSpec {
  /** The relay's UNIX socket (in the process's private temporary directory). */
  socket: string;
  /** Granted loopback endpoints, listened on at the same address and port. */
  listen: { host: string; port: number }[];
  /** The port of the HTTP proxy (HTTP_PROXY / HTTPS_PROXY point here). */
  proxyPort: number;
}

export const FORWARDER_ARGUMENT = "__sandbox-forwarder";
