/**
 * The values a grant holds, judged before anything is recorded: `--net HOST[:PORT]` and the
 * paths of `--read` / `--write`. Paths are made absolute (`~` expanded), followed to what they
 * name when they exist (the sandbox confines by what a path is, not how it was spelled), and
 * classed as too broad (the home, `/`, or a directory holding the home: the sandbox would no
 * longer confine anything that matters) or sensitive (credentials, browser profiles, gjc's own
 * state and key). Both need `--force`; the classes are shown again by audit.
 */
import { existsSync, realpathSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { c2DataDir, expandHome, gjcUserRoot, type Context } from "../core/context.ts";
import { usageError } from "../core/errors.ts";
import type { NetGrant } from "../process/sandbox/profile.ts";
import { stateKeyPath } from "./state-mac.ts";

/**
 * node:net on demand: loading it costs ~3 ms of start-up in the compiled binary, and every verb
 * that renders store results imports this file (for formatNetGrant) without parsing a grant.
 */
const isIP = (host: string): number => (require("node:net") as typeof import("node:net")).isIP(host);

const PORT = /^[1-9][0-9]{0,4}$/;
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

function badNet(value: string, why: string): never {
  throw usageError(
    `--net ${JSON.stringify(value)} is not a host: ${why}.`,
    "Write HOST or HOST:PORT: --net api.example.com:443, --net 127.0.0.1:8080, --net [::1]:8080, or --net example.com for any port.",
    "invalid_net_grant",
  );
}

/** `HOST[:PORT]`, IPv6 in brackets. Host names are lower-cased, one trailing dot dropped; no wildcards. */
export function parseNetGrant(value: string): NetGrant {
  let host: string;
  let port: string | undefined;
  if (value.startsWith("[")) {
    const end = value.indexOf("]");
    if (end < 0) badNet(value, "the IPv6 address has no closing bracket");
    host = value.slice(1, end);
    const rest = value.slice(end + 1);
    if (rest !== "" && !rest.startsWith(":")) badNet(value, "only :PORT may follow the brackets");
    port = rest === "" ? undefined : rest.slice(1);
    if (isIP(host) !== 6) badNet(value, "the brackets do not hold an IPv6 address");
  } else {
    const colons = value.split(":").length - 1;
    if (colons > 1) badNet(value, "an IPv6 address goes in brackets, e.g. [::1]:8080");
    [host, port] = colons === 1 ? (value.split(":") as [string, string]) : [value, undefined];
    host = host.toLowerCase().replace(/\.$/, "");
    if (host === "") badNet(value, "the host is empty");
    if (host.includes("*")) badNet(value, "wildcards are not supported; grant each host");
    if (isIP(host) === 0) {
      if (/^[0-9.]+$/.test(host)) badNet(value, "it is not a dotted IPv4 address");
      if (host.length > 253 || !host.split(".").every((l) => LABEL.test(l)))
        badNet(value, "it is not a valid host name");
    }
  }
  if (port === undefined) return { host: host.toLowerCase() };
  if (!PORT.test(port) || Number(port) > 65535)
    badNet(value, `the port must be a number from 1 to 65535, not ${JSON.stringify(port)}`);
  return { host: host.toLowerCase(), port: Number(port) };
}

/** `host`, `host:port`, `[v6]:port`: how a net grant is written on the command line. */
export { formatNetGrant } from "../process/sandbox/allow-command.ts";

export type PathClass = "ordinary" | "too-broad" | "sensitive";

export interface JudgedPath {
  /** Absolute, normalized, links resolved when it exists. */
  path: string;
  /** What the user typed. */
  given: string;
  exists: boolean;
  class: PathClass;
  /** For sensitive paths: the sensitive location it is, holds or lies in. */
  sensitive?: string;
}

/** Where credentials, browser profiles and gjc's own state live, under the context's home. */
export function sensitivePaths(ctx: Context): string[] {
  const h = (...p: string[]) => join(ctx.home, ...p);
  return [
    h(".ssh"),
    h(".aws"),
    h(".gnupg"),
    h(".config", "gh"),
    h(".config", "gcloud"),
    h(".azure"),
    h(".kube"),
    h(".docker"),
    h(".netrc"),
    h(".git-credentials"),
    h(".npmrc"),
    h(".password-store"),
    h(".mozilla"),
    h(".config", "google-chrome"),
    h(".config", "chromium"),
    h(".config", "BraveSoftware"),
    h(".config", "microsoft-edge"),
    h("snap", "firefox"),
    h("Library", "Application Support", "Google", "Chrome"),
    h("Library", "Application Support", "Firefox"),
    h(".gjc"),
    stateKeyPath(ctx),
    gjcUserRoot(ctx),
    c2DataDir(ctx),
  ];
}

const within = (inner: string, outer: string) => {
  const rel = relative(outer, inner);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !rel.startsWith(sep));
};

function realOrResolved(path: string): { path: string; exists: boolean } {
  if (!existsSync(path)) {
    // The nearest existing parent is followed, so a grant made before the directory exists names the same place.
    const parent = dirname(path);
    if (parent !== path && existsSync(parent)) {
      try {
        return { path: join(realpathSync(parent), path.slice(parent.length + 1)), exists: false };
      } catch {}
    }
    return { path, exists: false };
  }
  try {
    return { path: realpathSync(path), exists: true };
  } catch {
    return { path, exists: true };
  }
}

/** A path as typed: absolute, normalized, classed. An empty value is a usage error. */
export function judgePath(ctx: Context, flag: "read" | "write", given: string): JudgedPath {
  if (given.trim() === "" || given.includes("\0"))
    throw usageError(
      `--${flag} needs a path.`,
      `For example --${flag} ~/notes or --${flag} ./data.`,
      "invalid_path_grant",
    );
  const { path, exists } = realOrResolved(resolve(expandHome(ctx, given)));
  const home = realOrResolved(resolve(ctx.home)).path;
  if (within(home, path)) return { path, given, exists, class: "too-broad" };
  for (const s of sensitivePaths(ctx)) {
    const real = realOrResolved(s).path;
    if (within(path, real) || within(real, path)) return { path, given, exists, class: "sensitive", sensitive: real };
  }
  return { path, given, exists, class: "ordinary" };
}

/** The class of a recorded path (audit judges what is recorded, which may predate a list change). */
export function classOfRecorded(ctx: Context, path: string): Pick<JudgedPath, "class" | "sensitive"> {
  const judged = judgePath(ctx, "read", path);
  return { class: judged.class, ...(judged.sensitive ? { sensitive: judged.sensitive } : {}) };
}
