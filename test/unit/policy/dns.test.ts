import { describe, expect, test } from "bun:test";
import { type Resolver, resolveAndCheck, systemResolver } from "../../../src/policy/dns.ts";

/** A fake resolver answering from a table, recording which names it was asked. */
function fakeResolver(table: Record<string, string[] | Error>): Resolver & { asked: string[] } {
  const asked: string[] = [];
  const fn = (async (name: string) => {
    asked.push(name);
    const answer = table[name];
    if (answer instanceof Error) throw answer;
    if (answer === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${name}`), { code: "ENOTFOUND" });
    return answer;
  }) as Resolver & { asked: string[] };
  fn.asked = asked;
  return fn;
}

describe("resolveAndCheck (DESIGN item 11 stage d)", () => {
  test("a public name with public answers passes and returns every address", async () => {
    const r = fakeResolver({ "mcp.example.com": ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"] });
    expect(await resolveAndCheck("mcp.example.com", r)).toEqual({
      ok: true,
      addresses: ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"],
    });
    expect(r.asked).toEqual(["mcp.example.com"]);
  });

  test("the name is normalized before it is resolved (case, one trailing dot)", async () => {
    const r = fakeResolver({ "mcp.example.com": ["93.184.215.14"] });
    expect((await resolveAndCheck("MCP.Example.com.", r)).ok).toBe(true);
    expect(r.asked).toEqual(["mcp.example.com"]);
  });

  test("a public name resolving to loopback is denied", async () => {
    const v = await resolveAndCheck("rebind.example.com", fakeResolver({ "rebind.example.com": ["127.0.0.1"] }));
    expect(v.ok).toBe(false);
    if (!v.ok) expect(v.reason).toContain("loopback");
  });

  test("a public name resolving to IPv6 loopback or a mapped metadata address is denied", async () => {
    for (const bad of ["::1", "::ffff:169.254.169.254", "fd00::1", "64:ff9b::a00:1"]) {
      const v = await resolveAndCheck("a.example.com", fakeResolver({ "a.example.com": [bad] }));
      expect(v.ok).toBe(false);
    }
  });

  test("mixed answers fail when any one is denied, whatever its position", async () => {
    for (const answers of [
      ["8.8.8.8", "10.0.0.1"],
      ["10.0.0.1", "8.8.8.8"],
      ["2606:4700::1111", "8.8.8.8", "fe80::1"],
    ]) {
      const v = await resolveAndCheck("mixed.example.com", fakeResolver({ "mixed.example.com": answers }));
      expect(v.ok).toBe(false);
      if (!v.ok) expect(v.reason).toContain("denied address");
    }
  });

  test("empty answers fail closed", async () => {
    const v = await resolveAndCheck("empty.example.com", fakeResolver({ "empty.example.com": [] }));
    expect(v).toEqual({
      ok: false,
      reason: "DNS resolution of empty.example.com returned no address",
      unresolved: true,
    });
  });

  test("resolver errors fail closed and name the error code", async () => {
    const v = await resolveAndCheck("missing.example.com", fakeResolver({}));
    expect(v.ok).toBe(false);
    if (!v.ok) expect(v.reason).toContain("ENOTFOUND");
    const w = await resolveAndCheck("boom.example.com", fakeResolver({ "boom.example.com": new Error("timeout") }));
    expect(w).toEqual({ ok: false, reason: "DNS resolution of boom.example.com failed (timeout)", unresolved: true });
  });

  test("answers that are not plain addresses fail closed", async () => {
    for (const odd of ["0x7f.1", "2130706433", "other.example.com", "", "8.8.8.8 "]) {
      const v = await resolveAndCheck("odd.example.com", fakeResolver({ "odd.example.com": [odd] }));
      expect(v.ok).toBe(false);
    }
    const nonString = (async () => [42]) as unknown as Resolver;
    expect((await resolveAndCheck("odd.example.com", nonString)).ok).toBe(false);
  });

  test("a denied host is refused without asking the resolver", async () => {
    const r = fakeResolver({});
    for (const host of ["localhost", "db.internal", "printer.local", "10.0.0.1", "[::1]", "intranet"]) {
      expect((await resolveAndCheck(host, r)).ok).toBe(false);
    }
    expect(r.asked).toEqual([]);
  });

  test("an allowed IP literal is its own answer and is not resolved", async () => {
    const r = fakeResolver({});
    expect(await resolveAndCheck("8.8.8.8", r)).toEqual({ ok: true, addresses: ["8.8.8.8"] });
    expect(await resolveAndCheck("[2606:4700::1111]", r)).toEqual({ ok: true, addresses: ["2606:4700::1111"] });
    expect(r.asked).toEqual([]);
  });

  test("the system resolver sees /etc/hosts, so localhost's answers are refused", async () => {
    // localhost itself is refused before resolving; resolving it directly proves the resolver
    // returns what a connection would use, and that those answers would be judged.
    const answers = await systemResolver("localhost");
    expect(answers.length).toBeGreaterThan(0);
    const v = await resolveAndCheck("alias.example.com", async () => answers);
    expect(v.ok).toBe(false);
  });
});
