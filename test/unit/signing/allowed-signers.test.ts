import { describe, expect, test } from "bun:test";
import {
  formatAllowedSigner,
  judgeSigner,
  matchPatternList,
  parseAllowedSigners,
  parseTimestamp,
} from "../../../src/signing/allowed-signers.ts";
import { parsePublicKeyLine } from "../../../src/signing/ssh-keys.ts";
import { makeKey } from "../../helpers/ssh-keys.ts";

const a = makeKey("ed25519", "a@x");
const b = makeKey("ecdsa", "b@x");
const keyText = (k: { publicLine: string }) => k.publicLine.split(" ").slice(0, 2).join(" ");
const keyA = parsePublicKeyLine(a.publicLine).key;
const keyB = parsePublicKeyLine(b.publicLine).key;
const now = new Date(Date.UTC(2026, 5, 1));

describe("allowed_signers parsing", () => {
  test("principals, options with quotes and commas, comments and blank lines", () => {
    const text = [
      "# a comment",
      "",
      `alice@example.com,*@acme.example ${keyText(a)} laptop key`,
      `"Bob Builder" namespaces="gjc-plugin,file",valid-after=20260101,VALID-BEFORE="20270101Z" ${keyText(b)}`,
      `   carol@example.com   ${keyText(a)} gjc-for=acme-*,!acme-secret`,
    ].join("\n");
    const { signers, problems } = parseAllowedSigners(text);
    expect(problems).toEqual([]);
    expect(signers.map((s) => s.line)).toEqual([3, 4, 5]);
    expect(signers[0].principals).toBe("alice@example.com,*@acme.example");
    expect(signers[0].comment).toBe("laptop key");
    expect(signers[1].principals).toBe("Bob Builder");
    expect(signers[1].namespaces).toBe("gjc-plugin,file");
    expect(signers[1].validAfter?.getFullYear()).toBe(2026);
    expect(signers[1].validBefore?.toISOString()).toBe("2027-01-01T00:00:00.000Z");
    expect(signers[2].forNames).toBe("acme-*,!acme-secret");
    expect(signers.every((s) => s.key !== undefined)).toBe(true);
  });

  test("a bad line is a problem with its line number; the other lines still count", () => {
    const { signers, problems } = parseAllowedSigners(
      [
        `x unknown-option ${keyText(a)}`,
        `y valid-before=2026 ${keyText(a)}`,
        `z "unterminated ${keyText(a)}`,
        `ok ${keyText(b)}`,
        "lonely",
      ].join("\n"),
    );
    expect(problems.map((p) => p.line)).toEqual([1, 2, 3, 5]);
    expect(problems[0].message).toContain("unsupported option");
    expect(signers.map((s) => s.principals)).toEqual(["ok"]);
  });

  test("cert-authority lines keep the CA key; a listed certificate is marked unusable with a reason", () => {
    const { signers } = parseAllowedSigners(
      `*@acme.example cert-authority ${keyText(a)}\nx ssh-ed25519-cert-v01@openssh.com AAAA`,
    );
    expect(signers[0].certAuthority).toBe(true);
    expect(signers[0].key?.blob).toEqual(keyA.blob);
    expect(signers[1].unusable).toContain("certificate");
    // A CA line does not vouch for a plain signature by the CA key itself.
    expect(judgeSigner(signers, keyA, "gjc-plugin", "x", now).kind).toBe("unknown");
  });

  test("timestamps: dates, minutes, seconds, Z for UTC; nonsense refused", () => {
    expect(parseTimestamp("20260102Z").toISOString()).toBe("2026-01-02T00:00:00.000Z");
    expect(parseTimestamp("202601021304Z").toISOString()).toBe("2026-01-02T13:04:00.000Z");
    expect(parseTimestamp("20260102130405Z").toISOString()).toBe("2026-01-02T13:04:05.000Z");
    expect(parseTimestamp("20260102").getDate()).toBe(2);
    for (const bad of ["2026", "20261301", "20260100", "20260102256000", "x"])
      expect(() => parseTimestamp(bad), bad).toThrow();
  });

  test("pattern lists: * and ?, a matching negation vetoes", () => {
    expect(matchPatternList("acme-tools", "acme-*")).toBe(true);
    expect(matchPatternList("acme-secret", "acme-*,!acme-secret")).toBe(false);
    expect(matchPatternList("a1", "a?")).toBe(true);
    expect(matchPatternList("a12", "a?")).toBe(false);
    expect(matchPatternList("a.b", "a*b")).toBe(true);
    expect(matchPatternList("axb", "a.b")).toBe(false);
    expect(matchPatternList("x", "!y")).toBe(false);
  });

  test("what gjc writes reads back as written, and names are quoted when they hold spaces", () => {
    const line = formatAllowedSigner({
      identity: "release@acme.example",
      namespaces: "gjc-plugin",
      keyText: keyText(a),
      forNames: "acme-*",
    });
    expect(line).toBe(`release@acme.example namespaces="gjc-plugin" ${keyText(a)} gjc-for=acme-*`);
    const s = parseAllowedSigners(line).signers[0];
    expect([s.principals, s.namespaces, s.forNames]).toEqual(["release@acme.example", "gjc-plugin", "acme-*"]);
  });
});

describe("judging a signer", () => {
  const lines = (text: string) => parseAllowedSigners(text).signers;
  test("the key's line must allow the namespace, the time and the bundle name", () => {
    expect(judgeSigner(lines(`a ${keyText(a)}`), keyA, "gjc-plugin", "demo", now)).toMatchObject({
      kind: "allowed",
      identity: "a",
    });
    expect(judgeSigner(lines(`a ${keyText(a)}`), keyB, "gjc-plugin", "demo", now).kind).toBe("unknown");
    expect(judgeSigner(lines(`a namespaces="file" ${keyText(a)}`), keyA, "gjc-plugin", "demo", now)).toMatchObject({
      kind: "restricted",
    });
    expect(judgeSigner(lines(`a valid-before=20260101Z ${keyText(a)}`), keyA, "gjc-plugin", "demo", now)).toMatchObject(
      { kind: "restricted", reason: expect.stringContaining("expired") },
    );
    expect(judgeSigner(lines(`a valid-after=20270101Z ${keyText(a)}`), keyA, "gjc-plugin", "demo", now)).toMatchObject({
      kind: "restricted",
      reason: expect.stringContaining("after"),
    });
    expect(judgeSigner(lines(`a ${keyText(a)} gjc-for=acme-*`), keyA, "gjc-plugin", "demo", now)).toMatchObject({
      kind: "restricted",
      reason: expect.stringContaining("acme-*"),
    });
    expect(judgeSigner(lines(`a ${keyText(a)} gjc-for=acme-*`), keyA, "gjc-plugin", "acme-x", now).kind).toBe(
      "allowed",
    );
  });

  test("a later line that allows the key wins over an earlier restricted one", () => {
    const v = judgeSigner(
      lines(`old valid-before=20250101Z ${keyText(a)}\nnew ${keyText(a)}`),
      keyA,
      "gjc-plugin",
      "demo",
      now,
    );
    expect(v).toMatchObject({ kind: "allowed", identity: "new" });
  });
});
