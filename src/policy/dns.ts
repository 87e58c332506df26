import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { classifyHost, normalizeHost } from "./host.ts";

/** Returns every A and AAAA answer for a name. Injectable so tests can fake DNS. */
export type Resolver = (name: string) => Promise<string[]>;

/**
 * The system resolver (getaddrinfo through node:dns), which is what a connection would use:
 * it honours /etc/hosts and nsswitch, so a hosts-file entry pointing a public name at
 * 127.0.0.1 is seen and refused.
 */
export const systemResolver: Resolver = async (name) => {
  const answers = await lookup(name, { all: true, verbatim: true });
  return answers.map((a) => a.address);
};

/** `unresolved` marks a lookup that failed or found nothing (unreachable), as opposed to a refusal. */
export type DnsVerdict = { ok: true; addresses: string[] } | { ok: false; reason: string; unresolved?: true };

/**
 * Stage (d) of DESIGN item 11: the host itself must pass, and when it is a name every
 * answer must pass too. One bad answer fails the whole name (a rebinding attacker controls
 * which answer a client picks). No answer, or a resolver error, fails closed.
 */
export async function resolveAndCheck(host: string, resolver: Resolver = systemResolver): Promise<DnsVerdict> {
  const own = classifyHost(host);
  if (!own.ok) return { ok: false, reason: own.reason };
  const name = normalizeHost(host);
  if (own.kind !== "name") return { ok: true, addresses: [name] };

  let answers: string[];
  try {
    answers = await resolver(name);
  } catch (err) {
    const why = err instanceof Error ? ((err as NodeJS.ErrnoException).code ?? err.message) : String(err);
    return { ok: false, reason: `DNS resolution of ${name} failed (${why})`, unresolved: true };
  }
  if (!Array.isArray(answers) || answers.length === 0)
    return { ok: false, reason: `DNS resolution of ${name} returned no address`, unresolved: true };
  for (const answer of answers) {
    // Answers must be plain addresses; an inet_aton spelling would be read differently by
    // whoever connects, so only the canonical dotted quad or an IPv6 literal is accepted.
    if (typeof answer !== "string" || isIP(answer) === 0)
      return { ok: false, reason: `${name} resolved to ${String(answer)}, which is not a plain IP address` };
    const verdict = classifyHost(answer);
    if (!verdict.ok) return { ok: false, reason: `${name} resolves to a denied address: ${verdict.reason}` };
  }
  return { ok: true, addresses: answers.map((a) => normalizeHost(a)) };
}
