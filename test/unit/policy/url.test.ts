import { describe, expect, test } from "bun:test";
import { classifyMcpUrl } from "../../../src/policy/url.ts";

type Row = [url: string, expected: "allow" | "raw" | "parse" | "scheme" | "host", reasonIncludes: string, why: string];

/**
 * Each row: the URL, where it must be stopped ("allow" when it passes stages a-c), a piece of
 * the reason we must give, and why that is the right answer.
 */
const ROWS: Row[] = [
  // Allowed: public names and addresses, any port, any path.
  ["https://example.com/mcp", "allow", "", "public name, default port"],
  ["https://example.com:8443/mcp?x=1#f", "allow", "", "any port, query and fragment are free"],
  ["https://EXAMPLE.com./mcp", "allow", "", "case-insensitive, one trailing dot is the FQDN spelling"],
  ["HTTPS://example.com/", "allow", "", "the scheme is case-insensitive"],
  ["https://8.8.8.8/", "allow", "", "public IPv4"],
  ["https://134744072/", "allow", "", "decimal spelling of 8.8.8.8 is canonicalized and public"],
  ["https://[2606:4700:4700::1111]/", "allow", "", "global unicast IPv6"],
  ["https://[::ffff:8.8.8.8]/", "allow", "", "IPv4-mapped, judged by its public IPv4"],
  ["https://[2a00:1450:4001:80b::200e]:443/", "allow", "", "global unicast IPv6 with port"],
  ["https://xn--bcher-kva.example/", "allow", "", "punycode names are ordinary names"],
  ["https://bücher.example/", "allow", "", "IDN is converted to punycode by the parser"],
  ["https://mcp_server.example.com/", "allow", "", "underscores occur in real DNS names"],
  ["https://172.32.0.1/", "allow", "", "just outside 172.16/12"],
  ["https://100.128.0.1/", "allow", "", "just outside 100.64/10"],
  ["https://[2001:200::1]/", "allow", "", "just outside 2001::/23"],
  ["https://[3fff:1000::1]/", "allow", "", "just outside 3fff::/20"],
  ["https://192.0.3.1/", "allow", "", "between TEST-NET-1 and 192.88.99/24"],
  ["https://[2003::1]/", "allow", "", "global unicast just after 6to4"],
  ["https://example.com:1/", "allow", "", "ports are free"],
  ["https://example.com:65535/", "allow", "", "largest port"],

  // Loopback in every numeric IPv4 spelling.
  ["https://127.0.0.1/", "host", "loopback", "dotted loopback"],
  ["https://2130706433/", "host", "loopback", "single decimal number"],
  ["https://0x7f000001/", "host", "loopback", "single hex number"],
  ["https://0x7F.0.0.1/", "host", "loopback", "hex first part"],
  ["https://0177.0.0.1/", "host", "loopback", "octal first part"],
  ["https://017700000001/", "host", "loopback", "single octal number"],
  ["https://127.1/", "host", "loopback", "two-part short form"],
  ["https://127.0.1/", "host", "loopback", "three-part short form"],
  ["https://0x7f.1/", "host", "loopback", "hex short form"],
  ["https://127.000.000.001/", "host", "loopback", "zero-padded octets read as octal zeros"],
  ["https://127.0.0.1./", "host", "loopback", "trailing dot on an address"],
  ["https://127.0.0.1%2e/", "host", "loopback", "percent-encoded trailing dot"],
  ["https://%31%32%37.0.0.1/", "host", "loopback", "percent-encoded digits"],
  ["https://１２７.0.0.1/", "host", "loopback", "full-width digits are mapped to ASCII"],
  ["https://127.255.255.254:8443/", "host", "loopback", "anywhere in 127/8"],
  ["https://0251.0376.0251.0376/", "host", "metadata", "octal spelling of 169.254.169.254"],
  ["https://169.254.169.254/latest/meta-data", "host", "metadata", "cloud metadata endpoint"],
  ["https://0/", "host", "this network", "0 is 0.0.0.0"],
  ["https://0.0.0.0/", "host", "this network", "unspecified address"],

  // The IPv4 deny list, range by range.
  ["https://10.1.2.3/", "host", "10.0.0.0/8", "private"],
  ["https://100.64.0.1/", "host", "100.64.0.0/10", "carrier-grade NAT"],
  ["https://100.127.255.255/", "host", "100.64.0.0/10", "top of CGNAT"],
  ["https://172.16.0.1/", "host", "172.16.0.0/12", "private"],
  ["https://172.31.255.255/", "host", "172.16.0.0/12", "top of 172.16/12"],
  ["https://192.0.0.8/", "host", "192.0.0.0/24", "IETF protocol assignments"],
  ["https://192.0.2.10/", "host", "192.0.2.0/24", "TEST-NET-1"],
  ["https://192.88.99.1/", "host", "192.88.99.0/24", "6to4 relay anycast"],
  ["https://192.168.1.1/", "host", "192.168.0.0/16", "private"],
  ["https://198.18.0.1/", "host", "198.18.0.0/15", "benchmarking"],
  ["https://198.19.255.1/", "host", "198.18.0.0/15", "top of benchmarking /15"],
  ["https://198.51.100.7/", "host", "198.51.100.0/24", "TEST-NET-2"],
  ["https://203.0.113.9/", "host", "203.0.113.0/24", "TEST-NET-3"],
  ["https://224.0.0.1/", "host", "multicast", "multicast"],
  ["https://239.255.255.250/", "host", "multicast", "SSDP multicast"],
  ["https://240.0.0.1/", "host", "reserved", "class E"],
  ["https://255.255.255.255/", "host", "broadcast", "limited broadcast"],
  ["https://0xffffffff/", "host", "broadcast", "hex broadcast"],

  // IPv6 forms.
  ["https://[::1]/", "host", "loopback", "IPv6 loopback"],
  ["https://[0:0:0:0:0:0:0:1]/", "host", "loopback", "uncompressed loopback"],
  ["https://[::]/", "host", "unspecified", "IPv6 unspecified"],
  ["https://[fe80::1]/", "host", "link-local", "link-local"],
  ["https://[febf::1]/", "host", "link-local", "top of fe80::/10"],
  ["https://[fec0::1]/", "host", "site-local", "deprecated site-local"],
  ["https://[fc00::1]/", "host", "unique local", "ULA"],
  ["https://[fd12:3456::1]/", "host", "unique local", "ULA fd00::/8"],
  ["https://[ff02::1]/", "host", "multicast", "multicast"],
  ["https://[::ffff:127.0.0.1]/", "host", "IPv4-mapped address of 127.0.0.1", "mapped loopback, judged by its IPv4"],
  ["https://[::ffff:7f00:1]/", "host", "IPv4-mapped address of 127.0.0.1", "mapped loopback in hex"],
  ["https://[::ffff:a9fe:a9fe]/", "host", "metadata", "mapped metadata endpoint"],
  ["https://[::ffff:10.0.0.1]/", "host", "10.0.0.0/8", "mapped private"],
  ["https://[::127.0.0.1]/", "host", "IPv4-compatible", "IPv4-compatible is deprecated and outside 2000::/3"],
  ["https://[::8.8.8.8]/", "host", "IPv4-compatible", "even with a public IPv4 the compatible form is refused"],
  ["https://[::ffff:0:127.0.0.1]/", "host", "IPv4-translated", "SIIT translated form"],
  ["https://[64:ff9b::7f00:1]/", "host", "NAT64", "NAT64 of loopback"],
  ["https://[64:ff9b::8.8.8.8]/", "host", "NAT64", "NAT64 is refused whatever it embeds"],
  ["https://[64:ff9b:1::1]/", "host", "local-use NAT64", "local-use NAT64 prefix"],
  ["https://[2002:7f00:1::]/", "host", "6to4", "6to4 of loopback"],
  ["https://[2002:808:808::1]/", "host", "6to4", "6to4 is refused whatever it embeds"],
  ["https://[2001:0:4136:e378::1]/", "host", "Teredo", "Teredo tunnels to an IPv4 host"],
  ["https://[2001:1::1]/", "host", "2001::/23", "IETF special-purpose block"],
  ["https://[2001:1ff::1]/", "host", "2001::/23", "top of 2001::/23"],
  ["https://[2001:db8::1]/", "host", "2001:db8::/32", "documentation"],
  ["https://[3fff::1]/", "host", "3fff::/20", "documentation"],
  ["https://[3fff:fff::1]/", "host", "3fff::/20", "top of 3fff::/20"],
  ["https://[100::1]/", "host", "discard", "discard-only prefix"],
  ["https://[4000::1]/", "host", "2000::/3", "outside global unicast"],
  ["https://[1fff:ffff::1]/", "host", "2000::/3", "just below global unicast"],
  ["https://[fe80::1%25eth0]/", "parse", "does not parse", "zone ids do not parse"],
  ["https://[fe80::1%eth0]/", "parse", "does not parse", "raw zone id does not parse"],
  ["https://[::1::2]/", "parse", "does not parse", "two :: are malformed"],
  ["https://[12345::1]/", "parse", "does not parse", "a hextet of five digits"],

  // Special names, with and without trailing dots.
  ["https://localhost/", "host", "localhost", "loopback name"],
  ["https://LocalHost/", "host", "localhost", "case-insensitive"],
  ["https://LOCALHOST./", "host", "localhost", "one trailing dot stripped"],
  ["https://localhost../", "host", "empty label", "a second trailing dot is malformed"],
  ["https://api.localhost/", "host", "localhost", "under localhost"],
  ["https://foo.localhost./", "host", "localhost", "under localhost with trailing dot"],
  ["https://localhost.localdomain/", "host", "localhost", "localhost.localdomain"],
  ["https://printer.local/", "host", ".local", "mDNS names"],
  ["https://metadata.google.internal/", "host", ".internal", "cloud-internal names"],
  ["https://router.home.arpa/", "host", ".home.arpa", "home network names"],
  ["https://home.arpa/", "host", "home.arpa", "the name itself"],
  ["https://intranet/", "host", "single-label", "single-label names resolve on the local network"],
  ["https://intranet./", "host", "single-label", "single label with trailing dot"],
  ["https://a..b.com/", "host", "empty label", "empty label"],
  ["https://example.local.com/", "allow", "", ".local only as the last label is special"],
  ["https://localhost.example.com/", "allow", "", "localhost as a leftmost label of a public name"],

  // Userinfo tricks.
  ["https://user@example.com/", "raw", "@", "user info"],
  ["https://user:pass@example.com/", "raw", "@", "credentials"],
  ["https://example.com@127.0.0.1/", "raw", "@", "the real host is after the @"],
  ["https://:@example.com/", "raw", "@", "empty credentials"],
  ["https://example.com%40127.0.0.1/", "parse", "does not parse", "an encoded @ is a forbidden host code point"],
  ["https://example.com/@127.0.0.1", "allow", "", "an @ in the path is not user info"],

  // Raw-string refusals.
  ["https://exa\tmple.com/", "raw", "control", "a tab would be silently dropped by the parser"],
  ["https://example.com\n.evil/", "raw", "control", "a newline would be silently dropped"],
  ["https://example.com\u0000/", "raw", "control", "NUL"],
  ["\u001fhttps://example.com/", "raw", "control", "leading C0 would be trimmed"],
  ["https://example.com/\u007f", "raw", "control", "DEL"],
  ["https://example.com/\u0085", "raw", "control", "C1 control"],
  [" https://example.com/", "raw", "whitespace", "leading space would be trimmed"],
  ["https://example.com/a b", "raw", "whitespace", "space in the path"],
  ["https://example.com/\u00a0", "raw", "whitespace", "no-break space"],
  ["https:\\\\127.0.0.1/", "raw", "backslash", "the parser reads \\ as /"],
  ["https://example.com\\@127.0.0.1/", "raw", "backslash", "backslash authority tricks"],
  ["https:example.com/", "raw", "https://host", "no // is a different literal form"],
  ["https:/example.com/", "raw", "https://host", "one slash"],
  ["https:///example.com/", "raw", "no host", "empty authority"],
  ["//example.com/", "raw", "https://host", "scheme-relative"],
  ["example.com", "raw", "https://host", "no scheme"],
  ["", "raw", "empty", "empty string"],

  // Parse failures.
  ["https://example.com:99999/", "parse", "does not parse", "port out of range"],
  ["https://example.com:port/", "parse", "does not parse", "non-numeric port"],
  ["https://256.1.1.1/", "parse", "does not parse", "octet out of range"],
  ["https://09.1.1.1/", "parse", "does not parse", "invalid octal digit"],
  ["https://1.2.3.4.5/", "parse", "does not parse", "five numeric parts"],
  ["https://0x100000000/", "parse", "does not parse", "over 32 bits"],
  ["https://exa<mple.com/", "parse", "does not parse", "forbidden host code point"],

  // Non-https schemes.
  ["http://example.com/", "scheme", "http:", "plain http even to a public host"],
  ["ws://example.com/", "scheme", "ws:", "websocket"],
  ["wss://example.com/", "scheme", "wss:", "secure websocket is still not https"],
  ["ftp://example.com/", "scheme", "ftp:", "ftp"],
  ["file://example.com/etc/passwd", "scheme", "file:", "file"],
  ["javascript://example.com/%0aalert(1)", "scheme", "javascript:", "javascript"],
  ["httpss://example.com/", "scheme", "httpss:", "lookalike scheme"],
  ["data:text/plain,x", "raw", "https://host", "no authority at all"],
];

describe("classifyMcpUrl (DESIGN item 11 stages a-c)", () => {
  test("the table has at least 80 cases", () => {
    expect(ROWS.length).toBeGreaterThanOrEqual(80);
  });

  for (const [url, expected, reason, why] of ROWS) {
    test(`${expected === "allow" ? "allows" : `denies at ${expected}`}: ${JSON.stringify(url)} (${why})`, () => {
      const verdict = classifyMcpUrl(url);
      if (expected === "allow") {
        expect(verdict).toMatchObject({ ok: true });
      } else {
        expect(verdict).toMatchObject({ ok: false, stage: expected });
        if (!verdict.ok) expect(verdict.reason).toContain(reason);
      }
    });
  }

  test("an accepted URL reports the normalized host", () => {
    const a = classifyMcpUrl("https://EXAMPLE.com./x");
    expect(a).toMatchObject({ ok: true, host: "example.com" });
    const b = classifyMcpUrl("https://[2606:4700:4700::1111]:8443/");
    expect(b).toMatchObject({ ok: true, host: "2606:4700:4700::1111" });
    if (b.ok) expect(b.url.port).toBe("8443");
    expect(classifyMcpUrl("https://134744072/")).toMatchObject({ ok: true, host: "8.8.8.8" });
  });

  test("a denied numeric spelling names its canonical address", () => {
    const v = classifyMcpUrl("https://0x7f.1/");
    expect(v.ok).toBe(false);
    if (!v.ok) expect(v.reason).toContain("127.0.0.1");
  });
});
