import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { parseNetGrant, formatNetGrant } from "../../../src/store/grant-values.ts";
import { allowCommand, grantedProfileAdditions } from "../../../src/store/grants-profile.ts";
import { sandboxPerTest } from "../../helpers/sandbox.ts";
import { writeGjcServerBundle } from "../../e2e/grants-fixture.ts";

const box = sandboxPerTest("gjc-grants-unit-");

describe("parseNetGrant", () => {
  test("hosts, IPv4, bracketed IPv6, with and without a port", () => {
    expect(parseNetGrant("Example.ORG.")).toEqual({ host: "example.org" });
    expect(parseNetGrant("api.example.com:443")).toEqual({ host: "api.example.com", port: 443 });
    expect(parseNetGrant("127.0.0.1:8080")).toEqual({ host: "127.0.0.1", port: 8080 });
    expect(parseNetGrant("[::1]")).toEqual({ host: "::1" });
    expect(parseNetGrant("[2001:DB8::1]:65535")).toEqual({ host: "2001:db8::1", port: 65535 });
    expect(parseNetGrant("localhost")).toEqual({ host: "localhost" });
  });
  for (const junk of [
    "",
    ":80",
    "example.org:",
    "example.org:08",
    "example.org:65536",
    "[::1",
    "[::1]x",
    "[example.org]:1",
    "::1",
    "1.2.3",
    "a..b",
    "-a.example",
    "a_b.example",
    "*.example",
    "http://x",
    "user@host",
  ]) {
    test(`refuses ${JSON.stringify(junk)}`, () => {
      expect(() => parseNetGrant(junk)).toThrow(expect.objectContaining({ code: "invalid_net_grant", exit: 2 }));
    });
  }
  test("formats back to what parses", () => {
    for (const v of ["example.org", "example.org:1", "[::1]:8080", "10.0.0.1"])
      expect(formatNetGrant(parseNetGrant(v))).toBe(v);
  });
});

describe("allowCommand", () => {
  test("names the bundle, the process and exactly the denied access", () => {
    expect(
      allowCommand(
        { bundle: "notes", process: { kind: "server", id: "notes" } },
        { net: { host: "127.0.0.1", port: 9 } },
      ),
    ).toBe("gjc plugin allow notes --server notes --net 127.0.0.1:9");
    expect(allowCommand({ bundle: "kit", process: { kind: "runtime" } }, { read: "/home/u/My Notes" })).toBe(
      "gjc plugin allow kit --runtime --read '/home/u/My Notes'",
    );
    expect(allowCommand({ bundle: "kit", process: { kind: "lsp", id: "ls" } }, { write: "/tmp/it's" })).toBe(
      "gjc plugin allow kit --lsp ls --write '/tmp/it'\\''s'",
    );
    expect(allowCommand({ bundle: "kit" }, { net: { host: "::1" } })).toBe("gjc plugin allow kit --net '[::1]'");
  });
});

describe("grantedProfileAdditions", () => {
  test("the same name in both GJC scopes: the caller's scope decides; without one, nothing is guessed", async () => {
    const s = box();
    expect((await s.gjc(["plugin", "install", writeGjcServerBundle(s, "src/u"), "--user"])).exitCode).toBe(0);
    expect((await s.gjc(["plugin", "install", writeGjcServerBundle(s, "src/p"), "--project"])).exitCode).toBe(0);
    expect((await s.gjc(["plugin", "allow", "notes", "--user", "--net", "user.example"])).exitCode).toBe(0);
    const ctx = s.context();
    const subject = { bundle: "notes", process: { kind: "server" as const, id: "notes" } };
    // Only the user scope has grants: they answer.
    expect((await grantedProfileAdditions(ctx, subject)).net).toEqual([{ host: "user.example" }]);
    expect((await grantedProfileAdditions(ctx, subject, { family: "gjc", scope: "project" })).net).toEqual([]);
    expect((await s.gjc(["plugin", "allow", "notes", "--scope", "project", "--net", "project.example"])).exitCode).toBe(
      0,
    );
    expect((await grantedProfileAdditions(ctx, subject, { family: "gjc", scope: "project" })).net).toEqual([
      { host: "project.example" },
    ]);
    expect((await grantedProfileAdditions(ctx, subject, { family: "gjc", scope: "user" })).net).toEqual([
      { host: "user.example" },
    ]);
    expect((await grantedProfileAdditions(ctx, subject)).net).toEqual([]);
  });

  test("the bundle's grants plus the process's own; nothing for another process or bundle", async () => {
    const s = box();
    expect((await s.gjc(["plugin", "install", writeGjcServerBundle(s), "--user"])).exitCode).toBe(0);
    expect((await s.gjc(["plugin", "allow", "notes", "--read", "./docs", "--net", "example.org:443"])).exitCode).toBe(
      0,
    );
    expect(
      (await s.gjc(["plugin", "allow", "notes", "--server", "notes", "--project", "write", "--net", "127.0.0.1:9"]))
        .exitCode,
    ).toBe(0);
    const ctx = s.context();
    expect(await grantedProfileAdditions(ctx, { bundle: "notes", process: { kind: "server", id: "notes" } })).toEqual({
      read: [join(s.project, "docs")],
      write: [s.project],
      net: [
        { host: "127.0.0.1", port: 9 },
        { host: "example.org", port: 443 },
      ],
    });
    expect(await grantedProfileAdditions(ctx, { bundle: "notes", process: { kind: "server", id: "other" } })).toEqual({
      read: [join(s.project, "docs")],
      write: [],
      net: [{ host: "example.org", port: 443 }],
    });
    expect(await grantedProfileAdditions(ctx, { bundle: "notes" }, { family: "c2" })).toEqual({
      read: [],
      write: [],
      net: [],
    });
    expect(await grantedProfileAdditions(ctx, { bundle: "ghost" })).toEqual({ read: [], write: [], net: [] });
    // Run from the home, project access would be the whole home: it is not given.
    expect(
      (
        await grantedProfileAdditions(
          ctx,
          { bundle: "notes", process: { kind: "server", id: "notes" } },
          { project: s.home },
        )
      ).write,
    ).toEqual([]);
    expect(
      (
        await grantedProfileAdditions(
          ctx,
          { bundle: "notes", process: { kind: "server", id: "notes" } },
          { project: s.root },
        )
      ).write,
    ).toEqual([]);
  });
});
