import { deniedIpv4Range, formatIpv4 } from "./ipv4.ts";

/**
 * IPv6 parsing and the allow rule of DESIGN item 11(c): only global unicast (2000::/3) minus a
 * few special blocks, with IPv4-mapped addresses judged by the IPv4 they carry.
 */

/** Parses an IPv6 literal (brackets optional, dotted IPv4 tail allowed) into 8 hextets. */
export function parseIpv6(input: string): number[] | undefined {
  let s = input.toLowerCase();
  if (s.startsWith("[") && s.endsWith("]")) s = s.slice(1, -1);
  // A zone id (`%eth0`) is never accepted: it names an interface of this machine.
  if (s.includes("%") || !s.includes(":")) return undefined;
  let tail: number[] = [];
  const dotted = /^(.*:)(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})$/.exec(s);
  if (dotted) {
    const parts = dotted[2].split(".");
    // The dotted tail is strict decimal: no leading zeros (octal), no short forms inside IPv6.
    if (parts.some((p) => Number(p) > 255 || (p.length > 1 && p.startsWith("0")))) return undefined;
    const octets = parts.map(Number);
    tail = [(octets[0] << 8) | octets[1], (octets[2] << 8) | octets[3]];
    s = dotted[1].endsWith("::") ? dotted[1] : dotted[1].slice(0, -1);
  }
  const halves = s.split("::");
  if (halves.length > 2) return undefined;
  const parseGroups = (part: string): number[] | undefined => {
    if (part === "") return [];
    const out: number[] = [];
    for (const g of part.split(":")) {
      if (!/^[0-9a-f]{1,4}$/.test(g)) return undefined;
      out.push(Number.parseInt(g, 16));
    }
    return out;
  };
  const head = parseGroups(halves[0]);
  if (!head) return undefined;
  if (halves.length === 1) {
    const groups = [...head, ...tail];
    return groups.length === 8 ? groups : undefined;
  }
  const rest = parseGroups(halves[1]);
  if (!rest) return undefined;
  const known = head.length + rest.length + tail.length;
  if (known > 7) return undefined; // "::" stands for at least one zero group
  return [...head, ...new Array(8 - known).fill(0), ...rest, ...tail];
}

export type Ipv6Verdict = { ok: true; mappedIpv4?: string } | { ok: false; reason: string };

const zeros = (g: number[], from: number, to: number) => g.slice(from, to).every((x) => x === 0);

/** Why an address outside 2000::/3 is denied, named as precisely as we can. */
function outsideGlobalReason(g: number[]): string {
  const v4 = formatIpv4(((g[6] << 16) | g[7]) >>> 0);
  if (g.every((x) => x === 0)) return "the unspecified address (::)";
  if (zeros(g, 0, 7) && g[7] === 1) return "loopback (::1)";
  if (zeros(g, 0, 6))
    return `an IPv4-compatible address (::${v4}, deprecated, outside global unicast 2000::/3; the embedded IPv4 is not trusted)`;
  if (zeros(g, 0, 4) && g[4] === 0xffff && g[5] === 0)
    return `an IPv4-translated address (::ffff:0:${v4}, outside global unicast 2000::/3)`;
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(g, 2, 6))
    return `a NAT64 address (64:ff9b::/96 embedding ${v4}; a translator would reach that IPv4, so the whole prefix is denied)`;
  if (g[0] === 0x64 && g[1] === 0xff9b && g[2] === 1) return "a local-use NAT64 address (64:ff9b:1::/48)";
  if (g[0] === 0x100 && zeros(g, 1, 4)) return "the discard-only prefix (100::/64)";
  if ((g[0] & 0xffc0) === 0xfe80) return "link-local (fe80::/10)";
  if ((g[0] & 0xffc0) === 0xfec0) return "deprecated site-local (fec0::/10)";
  if ((g[0] & 0xfe00) === 0xfc00) return "unique local (fc00::/7)";
  if ((g[0] & 0xff00) === 0xff00) return "multicast (ff00::/8)";
  return "outside global unicast (2000::/3)";
}

/** DESIGN item 11(c) for one IPv6 address given as 8 hextets. */
export function judgeIpv6(g: number[]): Ipv6Verdict {
  // ::ffff:a.b.c.d is how a dual-stack socket reaches an IPv4 host: judge that IPv4.
  if (zeros(g, 0, 5) && g[5] === 0xffff) {
    const v4 = ((g[6] << 16) | g[7]) >>> 0;
    const denied = deniedIpv4Range(v4);
    if (denied) return { ok: false, reason: `an IPv4-mapped address of ${formatIpv4(v4)}, which is ${denied}` };
    return { ok: true, mappedIpv4: formatIpv4(v4) };
  }
  if ((g[0] & 0xe000) !== 0x2000) return { ok: false, reason: outsideGlobalReason(g) };
  if (g[0] === 0x2001 && g[1] === 0x0db8) return { ok: false, reason: "documentation (2001:db8::/32)" };
  if (g[0] === 0x2001 && g[1] === 0)
    return {
      ok: false,
      reason: "Teredo (2001::/32, inside the IETF special block 2001::/23; it tunnels to an IPv4 host)",
    };
  if (g[0] === 0x2001 && g[1] < 0x200) return { ok: false, reason: "the IETF special-purpose block (2001::/23)" };
  if (g[0] === 0x2002) return { ok: false, reason: "6to4 (2002::/16; it embeds an IPv4 host and is relayed to it)" };
  if (g[0] === 0x3fff && (g[1] & 0xf000) === 0) return { ok: false, reason: "documentation (3fff::/20)" };
  return { ok: true };
}
