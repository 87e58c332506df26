/**
 * IPv4 parsing and the deny table of DESIGN item 11(c).
 *
 * URL hosts reach us already canonical (the WHATWG parser turns `0x7f.1`, `2130706433` and
 * `0177.0.0.1` into `127.0.0.1`), but the classifier is also called with strings that never
 * went through `new URL()` (DNS answers, callers of `classifyHost`). So we parse every numeric
 * spelling the WHATWG host parser accepts ourselves; `node:net.isIP` would call them names.
 */

/** True when the host is one the WHATWG parser would treat as an IPv4 address ("ends in a number"). */
export function looksNumericIpv4(host: string): boolean {
  const labels = host.split(".");
  if (labels.length > 1 && labels[labels.length - 1] === "") labels.pop();
  const last = labels[labels.length - 1] ?? "";
  return /^[0-9]+$/.test(last) || /^0[xX][0-9a-fA-F]*$/.test(last);
}

function parsePart(part: string): number | undefined {
  if (part === "") return undefined;
  let radix = 10;
  let digits = part;
  if (/^0[xX]/.test(part)) {
    radix = 16;
    digits = part.slice(2);
    if (digits === "") return 0; // WHATWG: "0x" alone is zero
    if (!/^[0-9a-fA-F]+$/.test(digits)) return undefined;
  } else if (part.length > 1 && part.startsWith("0")) {
    radix = 8;
    digits = part.slice(1);
    if (!/^[0-7]+$/.test(digits)) return undefined;
  } else if (!/^[0-9]+$/.test(digits)) return undefined;
  // Longer than 2^32 in any radix is a failure anyway; cap the work on absurd inputs.
  if (digits.replace(/^0+/, "").length > 12) return undefined;
  return Number.parseInt(digits, radix);
}

/**
 * Parses every IPv4 spelling the WHATWG URL host parser accepts (dotted, short forms such as
 * `127.1`, a single 32-bit number, octal and hex parts, one trailing dot) into a 32-bit
 * number. Returns undefined when the string is not such an address.
 */
export function parseIpv4(host: string): number | undefined {
  const labels = host.split(".");
  if (labels.length > 1 && labels[labels.length - 1] === "") labels.pop();
  if (labels.length === 0 || labels.length > 4) return undefined;
  const nums: number[] = [];
  for (const label of labels) {
    const n = parsePart(label);
    if (n === undefined) return undefined;
    nums.push(n);
  }
  const last = nums[nums.length - 1];
  for (let i = 0; i < nums.length - 1; i++) if (nums[i] > 255) return undefined;
  if (last >= 256 ** (5 - nums.length)) return undefined;
  let value = last;
  for (let i = 0; i < nums.length - 1; i++) value += nums[i] * 256 ** (3 - i);
  return value;
}

export function formatIpv4(value: number): string {
  return [value >>> 24, (value >>> 16) & 255, (value >>> 8) & 255, value & 255].join(".");
}

interface Range4 {
  base: number;
  bits: number;
  label: string;
}

/** One CIDR block, labelled for messages with what it is and the block itself. */
function cidr(block: string, what: string): Range4 {
  const [address, bits] = block.split("/");
  return { base: parseIpv4(address) as number, bits: Number(bits), label: `${what} (${block})` };
}

/** DESIGN item 11(c): the IPv4 ranges no bundle MCP may reach. */
export const DENIED_IPV4: readonly Range4[] = [
  cidr("0.0.0.0/8", '"this network"'),
  cidr("10.0.0.0/8", "private network"),
  cidr("100.64.0.0/10", "carrier-grade NAT shared space"),
  cidr("127.0.0.0/8", "loopback"),
  cidr("169.254.0.0/16", "link-local, including the cloud metadata endpoint"),
  cidr("172.16.0.0/12", "private network"),
  cidr("192.0.0.0/24", "IETF protocol assignments"),
  cidr("192.0.2.0/24", "documentation TEST-NET-1"),
  cidr("192.88.99.0/24", "deprecated 6to4 relay anycast"),
  cidr("192.168.0.0/16", "private network"),
  cidr("198.18.0.0/15", "benchmarking"),
  cidr("198.51.100.0/24", "documentation TEST-NET-2"),
  cidr("203.0.113.0/24", "documentation TEST-NET-3"),
  cidr("224.0.0.0/4", "multicast"),
  cidr("240.0.0.0/4", "reserved, including broadcast"),
];

/** The label of the denied range holding `value`, or undefined for a public address. */
export function deniedIpv4Range(value: number): string | undefined {
  for (const r of DENIED_IPV4) {
    const shift = 32 - r.bits;
    if (value >>> shift === r.base >>> shift) return r.label;
  }
  return undefined;
}
