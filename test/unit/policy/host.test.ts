import { describe, expect, test } from "bun:test";
import { parseIpv4 } from "../../../src/policy/ipv4.ts";
import { parseIpv6 } from "../../../src/policy/ipv6.ts";
import { classifyHost } from "../../../src/policy/url.ts";

/** Hosts given straight to classifyHost, never normalized by a URL parse (DNS answers, callers). */
const ROWS: [host: string, expected: "name" | "ipv4" | "ipv6" | "deny", reasonIncludes: string, why: string][] = [
  ["example.com", "name", "", "public name"],
  ["Example.COM.", "name", "", "case and one trailing dot"],
  ["8.8.8.8", "ipv4", "", "public dotted quad"],
  ["0x08080808", "ipv4", "", "hex spelling of a public address is parsed, not taken as a name"],
  ["2606:4700::1111", "ipv6", "", "unbracketed IPv6 (a DNS answer)"],
  ["[2606:4700::1111]", "ipv6", "", "bracketed IPv6"],
  ["::ffff:1.1.1.1", "ipv6", "", "mapped public IPv4"],
  ["127.0.0.1", "deny", "loopback", "loopback"],
  ["0x7f.1", "deny", "= 127.0.0.1", "hex short form outside a URL is still loopback"],
  ["0177.1", "deny", "= 127.0.0.1", "octal short form"],
  ["2130706433", "deny", "= 127.0.0.1", "decimal"],
  ["127.1.", "deny", "loopback", "short form with trailing dot"],
  ["1.2.3.4.5", "deny", "not a valid one", "five numeric parts"],
  ["08.1.1.1", "deny", "not a valid one", "bad octal"],
  ["4294967296", "deny", "not a valid one", "2^32"],
  ["fe80::1%eth0", "deny", "zone", "zone id"],
  ["::1::", "deny", "not a valid IPv6", "two ::"],
  ["1:2:3:4:5:6:7:8:9", "deny", "not a valid IPv6", "nine groups"],
  ["::ffff:127.0.0.01", "deny", "not a valid IPv6", "leading zero in a dotted tail"],
  ["::ffff:169.254.169.254", "deny", "metadata", "mapped metadata"],
  ["localhost", "deny", "single-label", "single label is checked first"],
  ["x.localhost", "deny", "localhost", "under localhost"],
  ["bücher.example", "deny", "not ASCII", "raw Unicode names must come as punycode"],
  ["exa mple.com", "deny", "control character or a space", "space"],
  ["-bad.example.com", "deny", "label", "leading hyphen"],
  ["a".repeat(64) + ".com", "deny", "label", "label over 63 characters"],
  ["", "deny", "empty", "empty"],
  [".", "deny", "empty", "only a dot"],
];

describe("classifyHost", () => {
  for (const [host, expected, reason, why] of ROWS) {
    test(`${expected}: ${JSON.stringify(host.length > 40 ? `${host.slice(0, 20)}…` : host)} (${why})`, () => {
      const v = classifyHost(host);
      if (expected === "deny") {
        expect(v.ok).toBe(false);
        if (!v.ok) expect(v.reason).toContain(reason);
      } else expect(v).toEqual({ ok: true, kind: expected });
    });
  }
});

describe("parsers agree with the WHATWG URL parser", () => {
  const spellings = [
    "127.0.0.1",
    "127.1",
    "0x7f.0.1",
    "0177.0.0.01",
    "2130706433",
    "0x7f000001",
    "017700000001",
    "1.0x2.0300",
    "0x",
    "0.0",
  ];
  for (const s of spellings) {
    test(`IPv4 ${s}`, () => {
      const viaUrl = new URL(`https://${s}/`).hostname;
      const ours = parseIpv4(s);
      expect(ours).toBeDefined();
      expect([ours! >>> 24, (ours! >>> 16) & 255, (ours! >>> 8) & 255, ours! & 255].join(".")).toBe(viaUrl);
    });
  }
  const v6 = [
    "::",
    "::1",
    "1::",
    "1:2:3:4:5:6:7:8",
    "::ffff:1.2.3.4",
    "64:ff9b::10.0.0.1",
    "2001:db8:0:0:1::1",
    "fe80::a:b",
  ];
  for (const s of v6) {
    test(`IPv6 ${s}`, () => {
      const canonical = new URL(`https://[${s}]/`).hostname;
      expect(parseIpv6(canonical)).toEqual(parseIpv6(s)!);
      expect(parseIpv6(s)).toHaveLength(8);
    });
  }
});
