import { checkedAddresses, judgeUrl } from "./checked-addresses.ts";
import { sourceError } from "./errors.ts";
import { redactUrl } from "./redact.ts";
import type { NetworkOverrides } from "./types.ts";

/**
 * Network policy for git remotes. An https remote is a network destination like an archive
 * URL, so it gets the same judgement (checked-addresses.ts, src/policy): literal IP spellings
 * and special names are refused before git is started at all, and every DNS answer is checked
 * before git connects. ssh and file remotes are not judged here (see run-git.ts for why).
 */

/**
 * The https remote without its userinfo, judged by stages (a)-(c), or undefined for ssh, scp
 * and file remotes. git URLs may carry `user:token@` (git's credential flow), which the URL
 * stages refuse, so it is cut off first, but only when the authority holds exactly one "@":
 * with more, WHATWG and curl can disagree about where the host starts.
 */
export function judgeGitRemote(raw: string): URL | undefined {
  const m = /^https:\/\/([^/?#]*)(.*)$/is.exec(raw);
  if (!m) return undefined;
  // WHATWG reads "\" in an authority as "/", curl does not: one string, two hosts.
  if (raw.includes("\\"))
    throw sourceError(
      "security_policy",
      `The git URL ${redactUrl(raw)} is refused: it contains a backslash.`,
      "Write the URL with forward slashes only.",
    );
  const authority = m[1];
  const at = authority.lastIndexOf("@");
  if (at !== authority.indexOf("@")) {
    throw sourceError(
      "security_policy",
      `The git URL ${redactUrl(raw)} is refused: its authority holds more than one "@".`,
      "Write the URL as https://[user[:token]@]host/path.",
    );
  }
  const bare = `https://${authority.slice(at + 1)}${m[2]}`;
  judgeUrl(bare, "git");
  return new URL(bare);
}

/**
 * `-c` settings that make git connect only to the checked addresses: curl's resolve list
 * (`http.curloptResolve`, git >= 2.37) pins host:port, so a second DNS answer cannot differ
 * from the one judged (rebinding). An IP literal needs no pin; curl connects to it as is.
 */
export async function pinnedRemote(url: URL, net: NetworkOverrides | undefined): Promise<string[]> {
  const addresses = await checkedAddresses(url, net, "git");
  if (/^[0-9.]+$/.test(url.hostname) || url.hostname.startsWith("[")) return [];
  const port = url.port === "" ? "443" : url.port;
  const list = addresses.map((a) => (a.includes(":") ? `[${a}]` : a)).join(",");
  // curl keys its cache on the host as written, so a trailing-dot spelling gets its own entry.
  const names = new Set([url.hostname, url.hostname.replace(/\.$/, "")]);
  return [...names].flatMap((name) => ["-c", `http.curloptResolve=${name}:${port}:${list}`]);
}
