import { describe, expect, test } from "bun:test";
import { DiagnosticSink } from "../../../src/core/diagnostics.ts";
import { parseHookEntry, parseHooks } from "../../../src/families/gjc/parse-hooks.ts";
import { parseToolEntry, parseTools } from "../../../src/families/gjc/parse-tools.ts";

// parseTools and parseHooks take well-formed entries in one inline pass and hand everything
// else to the checked parser. Over every combination of good and bad fields, the result (the
// entry and every diagnostic) must be exactly what the checked parser alone gives.

/** Every object made of one choice per field (undefined leaves the key out). */
function combinations(fields: Record<string, unknown[]>): Record<string, unknown>[] {
  let out: Record<string, unknown>[] = [{}];
  for (const [key, choices] of Object.entries(fields)) {
    const next: Record<string, unknown>[] = [];
    for (const base of out) for (const c of choices) next.push(c === undefined ? { ...base } : { ...base, [key]: c });
    out = next;
  }
  return out;
}

const HEX = "AbCdEf0123456789".repeat(4);
const names = [undefined, "ok-name", "x".repeat(128), "x".repeat(129), "bad name", "", "  ", 5, null];
const odd: unknown[] = [null, 7, "str", [], [{ name: "a" }], true, JSON.parse('{"__proto__": {"name": "p"}, "name": "a", "path": "a.ts"}'), Object.create(null), { name: "a", path: "a.ts", extra: 1 }, { name: "a", path: "a.ts", constructor: "x" }];

function viaParser(parse: (sink: DiagnosticSink, value: unknown[], at: string) => unknown[], raw: unknown) {
  const sink = new DiagnosticSink();
  const located = parse(sink, [raw], "#/list") as { at: string; entry: unknown }[];
  return { entries: located.map((l) => [l.at, l.entry]), diagnostics: sink.items };
}

function viaChecked(parse: (sink: DiagnosticSink, raw: unknown, label: string, here: string) => unknown, raw: unknown, label: string) {
  const sink = new DiagnosticSink();
  const entry = parse(sink, raw, label, "#/list/0");
  return { entries: entry === undefined ? [] : [["#/list/0", entry]], diagnostics: sink.items };
}

describe("the inline fast path of parseTools", () => {
  const cases = [
    ...combinations({
      name: names,
      path: [undefined, "tools/a.ts", "  ", "", 3],
      description: [undefined, "Looks things up", "", " ", "tab\there", "bell\u0007", 7],
      sha256: [undefined, HEX, HEX.toLowerCase(), "abc", "", 1],
    }),
    ...odd.filter((raw) => typeof raw !== "string"), // a string is a scoped tool path, not an entry
  ];
  test(`agrees with parseToolEntry on ${cases.length} entries`, () => {
    let fast = 0; // entries with no diagnostic: the ones the fast path is for
    for (const raw of cases) {
      const got = viaParser(parseTools, raw);
      expect({ raw, ...got }).toEqual({ raw, ...viaChecked(parseToolEntry, raw, "tools[0]") });
      if (got.diagnostics.length === 0) fast++;
    }
    expect(fast).toBe(12); // two names, two descriptions, three sha256 choices: all valid ones were compared
  });
});

describe("the inline fast path of parseHooks", () => {
  const cases = [
    ...combinations({
      name: [undefined, "audit", "bad name", 4],
      event: [undefined, "tool_call", "tool_result", "session_start", "no_such_event", "constructor", "bad event", 9],
      target: [undefined, "read", "bad target", ""],
      phase: [undefined, "before", "after", "during", 1],
      path: [undefined, "hooks/a.ts", " "],
      sha256: [undefined, HEX, "xyz"],
    }),
    ...odd,
    { name: "a", event: "tool_call", target: "read", phase: "before", path: "h.ts", matcher: "*" },
    { matcher: "*", hooks: [], source: "x" },
  ];
  test(`agrees with parseHookEntry on ${cases.length} entries`, () => {
    let fast = 0; // entries with no diagnostic: the ones the fast path is for
    for (const raw of cases) {
      const got = viaParser(parseHooks, raw);
      expect({ raw, ...got }).toEqual({ raw, ...viaChecked(parseHookEntry, raw, "hooks[0]") });
      if (got.diagnostics.length === 0) fast++;
    }
    expect(fast).toBe(10); // each valid combination: tool_call+read+before, tool_result(+read)+after, session_start(+read), times two sha256
  });
});

describe("pointers of canonical keys", () => {
  test("need no escaping, so the manifest parser builds them without escapeKey", async () => {
    const { CANONICAL_KEYS } = await import("../../../src/families/gjc/constants.ts");
    const { escapeKey } = await import("../../../src/families/gjc/fields.ts");
    for (const key of CANONICAL_KEYS) expect(escapeKey(key)).toBe(key);
  });
});
