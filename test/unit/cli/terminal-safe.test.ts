import { describe, expect, test } from "bun:test";
import { jsonText, terminalSafe } from "../../../src/cli/render/terminal-safe.ts";
import { makeStyle } from "../../../src/core/style.ts";

// Every code point that can steer a terminal, and the ones that must pass.
const C0 = Array.from({ length: 0x20 }, (_, i) => String.fromCharCode(i)).filter((c) => c !== "\n" && c !== "\t");
const C1 = Array.from({ length: 0x20 }, (_, i) => String.fromCharCode(0x80 + i));
const BIDI = [
  "\u200e",
  "\u200f",
  "\u202a",
  "\u202b",
  "\u202c",
  "\u202d",
  "\u202e",
  "\u2066",
  "\u2067",
  "\u2068",
  "\u2069",
];

describe("terminalSafe", () => {
  test("C0 (but tab and line feed), DEL, C1 and bidi controls become visible escapes", () => {
    for (const c of [...C0, "\x7f", ...C1, ...BIDI]) {
      const out = terminalSafe(`a${c}b`);
      expect(out).not.toContain(c);
      expect(out).toMatch(/^a\\(x[0-9a-f]{2}|u[0-9a-f]{4})b$/);
    }
    expect(terminalSafe("\x1b]0;title\x07")).toBe("\\x1b]0;title\\x07");
    expect(terminalSafe("\x9b2J")).toBe("\\x9b2J");
    expect(terminalSafe("evil\u202etxt.exe")).toBe("evil\\u202etxt.exe");
  });

  test("plain text, line feeds, tabs and non-ASCII letters are unchanged (the same string)", () => {
    const text = "name\tvalue\n  한국어 ✓ — é\n";
    expect(terminalSafe(text)).toBe(text);
  });

  test("keepStyle keeps exactly our own colours and escapes every other sequence", () => {
    const s = makeStyle(true);
    const ours = `${s.red(s.bold("error"))} ${s.dim("[x]")} ${s.green("ok")} ${s.yellow("w")} ${s.cyan("hint")}`;
    expect(terminalSafe(ours, { keepStyle: true })).toBe(ours);
    // A cursor move, a title, a hyperlink and a colour we never emit are made visible even then.
    for (const hostile of ["\x1b[2J", "\x1b]0;t\x07", "\x1b]8;;https://x\x1b\\", "\x1b[8m", "\x1b[31;1m", "\x1bc"]) {
      expect(terminalSafe(`${ours}${hostile}`, { keepStyle: true })).toBe(`${ours}${terminalSafe(hostile)}`);
    }
    // Without keepStyle our colours are escaped too (text styled by someone else).
    expect(terminalSafe(s.red("x"))).toBe("\\x1b[31mx\\x1b[39m");
  });
});

describe("jsonText", () => {
  test("the document parses back to exactly the same values, and no raw C1/DEL/bidi is left", () => {
    const value = { name: "a\x1b[2Jb", d: `x\x7f${C1.join("")}${BIDI.join("")}y`, n: [1, -0, "\t\n"] };
    const text = jsonText(value);
    expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
    for (const c of [...C0, "\x7f", ...C1, ...BIDI]) expect(text).not.toContain(c);
  });
});
