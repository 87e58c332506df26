import { describe, expect, test } from "bun:test";
import { DENIED_IPV4, deniedIpv4Range, parseIpv4 } from "../../../src/policy/ipv4.ts";

// Every row of the deny table is the block its label names, in the order DESIGN item 11(c) lists them.
describe("DENIED_IPV4", () => {
  const DESIGN = [
    "0.0.0.0/8",
    "10.0.0.0/8",
    "100.64.0.0/10",
    "127.0.0.0/8",
    "169.254.0.0/16",
    "172.16.0.0/12",
    "192.0.0.0/24",
    "192.0.2.0/24",
    "192.88.99.0/24",
    "192.168.0.0/16",
    "198.18.0.0/15",
    "198.51.100.0/24",
    "203.0.113.0/24",
    "224.0.0.0/4",
    "240.0.0.0/4",
  ];

  test("lists exactly the blocks of DESIGN item 11(c), in order", () => {
    expect(DENIED_IPV4.map((r) => /\(([\d.]+\/\d+)\)$/.exec(r.label)?.[1])).toEqual(DESIGN);
  });

  test.each(DESIGN.map((cidr, i) => [cidr, i] as const))(
    "row %s holds the parsed base address and prefix length",
    (cidr, i) => {
      const [addr, bits] = cidr.split("/");
      expect(DENIED_IPV4[i].base).toBe(parseIpv4(addr)!);
      expect(DENIED_IPV4[i].bits).toBe(Number(bits));
      // The first and last address of the block are denied, the neighbours outside are not.
      const size = 2 ** (32 - Number(bits));
      const base = parseIpv4(addr)!;
      expect(deniedIpv4Range(base)).toBe(DENIED_IPV4[i].label);
      expect(deniedIpv4Range(base + size - 1)).toBe(DENIED_IPV4[i].label);
    },
  );
});
