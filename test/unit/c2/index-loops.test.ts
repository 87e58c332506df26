/**
 * slug(), codePoints() and fnv1a32Hex() walk strings by index instead of for-of (start-up:
 * JSC's iterator builtins get JIT-compiled within one CLI run). They must give exactly what
 * the for-of forms gave, on every kind of string.
 */
import { describe, expect, test } from "bun:test";
import { fnv1a32Hex } from "../../../src/bundle/hash.ts";
import { slug, slugHash } from "../../../src/families/c2/ids.ts";
import { codePoints } from "../../../src/families/c2/rules.ts";

function slugByCodePoint(value: string): string {
  let out = "";
  let pendingDash = false;
  for (const ch of value) {
    const c = ch.charCodeAt(0);
    const alnum = ch.length === 1 && ((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122));
    if (alnum) {
      if (pendingDash && out !== "") out += "-";
      pendingDash = false;
      out += ch.toLowerCase();
    } else pendingDash = true;
  }
  return out;
}

function codePointsByIterator(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

function fnvByIterator(value: string): string {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(value)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, "0");
}

const samples = [
  "",
  "a",
  "My Plugin!",
  "skills/take-notes",
  "--Leading and trailing--",
  "ÄÖÜ äöü ß",
  "İstanbul KELVIN \u212a",
  "emoji 😀 in the middle",
  "😀",
  "a😀b",
  "lone \ud800 high",
  "lone \udc00 low",
  "\udc00\ud800 reversed pair",
  "\ud800",
  "x\ud83d",
  "ZZ99__zz",
  "tab\tnew\nline",
  "中文 名字",
  "a".repeat(300),
  "😀".repeat(81),
];

describe("index loops equal the for-of forms", () => {
  test("slug", () => {
    for (const s of samples) expect([s, slug(s)]).toEqual([s, slugByCodePoint(s)]);
  });

  test("codePoints", () => {
    for (const s of samples) expect([s, codePoints(s)]).toEqual([s, codePointsByIterator(s)]);
  });

  test("fnv1a32Hex, and the reference vectors of FNV-1a 32", () => {
    for (const s of samples) expect([s, fnv1a32Hex(s)]).toEqual([s, fnvByIterator(s)]);
    expect(fnv1a32Hex("")).toBe("811c9dc5");
    expect(fnv1a32Hex("a")).toBe("e40c292c");
    expect(fnv1a32Hex("foobar")).toBe("bf9cf968");
  });

  test("slugHash joins the two", () => {
    expect(slugHash("skills/take-notes")).toBe(`skills-take-notes-${fnvByIterator("skills/take-notes")}`);
  });
});
