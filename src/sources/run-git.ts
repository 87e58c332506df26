import type { Context } from "../core/context.ts";
import { buildChildEnv } from "../process/env.ts";
import { launch, type LaunchedProcess } from "../process/launch.ts";
import { sourceError } from "./errors.ts";
import { redactText } from "./redact.ts";

/**
 * Settings that hold for every git call we make, whatever the user's config says:
 * only the https, ssh and file transports; no hooks, no fsmonitor (both run programs
 * named by config); no submodules; paths that are dangerous on NTFS/HFS+ refused.
 *
 * Transports are an explicit allow-list (here and in GIT_ALLOW_PROTOCOL below), so `ext::`
 * (runs a command), `fd::`, `git://` and plain `http` are refused by git itself even if a URL
 * got past the spec checks (which refuse them first, before git runs):
 * - https: the remote's host is judged like an archive URL and pinned (git-remote.ts);
 * - ssh (and scp-style): kept, unjudged. Users reach servers through ~/.ssh/config aliases
 *   (often single-label names the host policy would refuse), the server must prove a host
 *   key already in known_hosts (no prompt is possible), and ssh cannot carry a request to a
 *   non-ssh service beyond its version banner;
 * - file: local repositories the user names; the DESIGN keeps them for git sources;
 * - http stays off (unauthenticated, DESIGN §2 item 14): there is no switch to enable it.
 * Redirects are never followed (`http.followRedirects=false`; git's default `initial` follows
 * the first one): a redirect would send git to a host nobody judged or pinned. With `false`
 * git also ignores `http-alternates`, which are other hosts too.
 */
export const GIT_HARDENING = [
  "-c",
  "protocol.allow=never",
  "-c",
  "protocol.https.allow=always",
  "-c",
  "protocol.ssh.allow=always",
  "-c",
  "protocol.file.allow=always",
  "-c",
  "http.followRedirects=false",
  "-c",
  "core.hooksPath=/dev/null",
  "-c",
  "core.fsmonitor=false",
  "-c",
  "submodule.recurse=false",
  "-c",
  "fetch.recurseSubmodules=false",
  "-c",
  "core.protectNTFS=true",
  "-c",
  "core.protectHFS=true",
  "-c",
  "advice.detachedHead=false",
  "-c",
  "init.defaultBranch=main",
];

/**
 * Host variables the user's own git needs beyond the allow-list every child gets: where the
 * user's git config lives, the ssh agent and ssh program the user chose, proxies and CA files.
 * Nothing that points git at another repository (GIT_DIR, GIT_WORK_TREE …) or injects config
 * (GIT_CONFIG_PARAMETERS, GIT_CONFIG_COUNT) passes, since only listed names do.
 */
const GIT_HOST_VARIABLES = [
  "GIT_CONFIG_GLOBAL",
  "GIT_CONFIG_NOSYSTEM",
  "XDG_CONFIG_HOME",
  "SSH_AUTH_SOCK",
  "SSH_AGENT_PID",
  "GIT_SSH",
  "GIT_SSH_COMMAND",
  "GIT_SSH_VARIANT",
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "NO_PROXY",
  "ALL_PROXY",
  "http_proxy",
  "https_proxy",
  "no_proxy",
  "all_proxy",
  "GIT_SSL_CAINFO",
  "GIT_SSL_CAPATH",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
];

export function gitEnv(ctx: Context): Record<string, string> {
  return buildChildEnv(ctx.env, {
    hostExtras: GIT_HOST_VARIABLES,
    fixed: {
      // GIT_ALLOW_PROTOCOL overrides protocol.allow, so set it too rather than trusting it unset.
      GIT_ALLOW_PROTOCOL: "https:ssh:file",
      GIT_TERMINAL_PROMPT: "0",
      // An empty GIT_ASKPASS stops git from asking any helper program; credential helpers still answer.
      GIT_ASKPASS: "",
      SSH_ASKPASS: "",
      SSH_ASKPASS_REQUIRE: "never",
      GIT_LFS_SKIP_SMUDGE: "1",
      LC_ALL: "C",
    },
  }).env;
}

export interface GitRun {
  /** stdout as UTF-8 text. */
  stdout: string;
  /** stdout as bytes (blobs from `cat-file --batch`). */
  bytes: Uint8Array;
}

export interface GitRunOptions {
  cwd: string;
  timeoutMs: number;
  action: string;
  /** Written to git's stdin (then closed); stdin is closed from the start otherwise. */
  input?: Uint8Array;
  /** git is stopped, and the call refused as `source_too_large`, once stdout exceeds this. */
  maxStdoutBytes?: number;
}

const STDERR_KEEP = 64 * 1024;

/**
 * Runs the user's git with argv (never a shell), stdin closed, through the one launcher: on a
 * timeout, and whenever it ends, every process it started (ssh, remote helpers) ends too. stderr is kept for the error
 * message only after redaction, because git echoes URLs that may hold credentials.
 */
export async function runGit(ctx: Context, args: string[], opts: GitRunOptions): Promise<GitRun> {
  const env = gitEnv(ctx);
  const git = Bun.which("git", { PATH: env.PATH ?? "" });
  if (!git)
    throw sourceError(
      "source_unreachable",
      "git is not installed or not on PATH.",
      "Install git, then run the command again.",
    );
  let child: LaunchedProcess<"ignore", "pipe", "pipe">;
  try {
    child = launch({
      argv: [git, ...GIT_HARDENING, ...args],
      cwd: opts.cwd,
      env,
      stdin: "ignore",
      input: opts.input,
      timeoutMs: opts.timeoutMs,
    });
  } catch (error) {
    throw sourceError(
      "source_unreachable",
      `git could not be started (${(error as Error).message}).`,
      "Check that git is installed and runnable.",
    );
  }
  let overflow = false;
  const stdoutP = readBounded(child.proc.stdout, opts.maxStdoutBytes ?? Number.MAX_SAFE_INTEGER, () => {
    overflow = true;
    void child.stop();
  });
  const stderrP = readTail(child.proc.stderr, STDERR_KEEP);
  const code = await child.exited;
  // Helpers git left behind (ssh, remote-https) go with it.
  await child.stop();
  const [stdout, stderr] = await Promise.all([stdoutP, stderrP]);
  if (child.timedOut) {
    throw sourceError(
      "source_unreachable",
      `git ${opts.action} timed out after ${Math.round(opts.timeoutMs / 1000)} s and was stopped.`,
      "Check the network and the URL, then run the command again.",
      { timeoutMs: opts.timeoutMs },
    );
  }
  if (overflow) {
    throw sourceError(
      "source_too_large",
      `git ${opts.action} produced more than ${opts.maxStdoutBytes} bytes, over the bundle budget; it was stopped.`,
      "Keep large or generated files out of the bundle, or point at a smaller subpath.",
      { limit: "git_output_bytes" },
    );
  }
  if (code !== 0) {
    const last = lastLines(redactText(stderr));
    throw sourceError(
      "source_unreachable",
      `git ${opts.action} failed${last ? `: ${last}` : ` (exit ${code})`}`,
      "Check the URL, the ref and your access to the repository (git's credential helper and ssh agent are used; nothing is prompted).",
      {
        exitCode: code,
      },
    );
  }
  return {
    bytes: stdout,
    get stdout() {
      return new TextDecoder().decode(stdout);
    },
  };
}

/** stdout collected up to `max` bytes; past it `onOverflow` runs once and the rest is drained unkept. */
async function readBounded(
  stream: ReadableStream<Uint8Array>,
  max: number,
  onOverflow: () => void,
): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  let over = false;
  for await (const chunk of stream) {
    if (over) continue;
    size += chunk.length;
    if (size > max) {
      over = true;
      chunks.length = 0;
      onOverflow();
      continue;
    }
    chunks.push(chunk);
  }
  return over ? new Uint8Array(0) : Buffer.concat(chunks);
}

async function readTail(stream: ReadableStream<Uint8Array>, keep: number): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of stream) {
    chunks.push(chunk);
    size += chunk.length;
    while (size - chunks[0].length > keep) size -= (chunks.shift() as Uint8Array).length;
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** The last meaningful stderr lines, at most 500 characters (what a person needs to act). */
function lastLines(text: string): string {
  const lines = text
    .split(/\r?\n|\r/)
    .map((l) => l.trim())
    .filter((l) => l !== "" && !/^(Cloning into|remote: (Counting|Compressing|Enumerating|Total))/.test(l));
  const tail = lines.slice(-2).join(" / ");
  return tail.length > 500 ? `${tail.slice(0, 497)}...` : tail;
}
