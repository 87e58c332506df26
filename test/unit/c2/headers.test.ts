import { describe, expect, test } from "bun:test";
import { headerIssues } from "../../../src/policy/headers.ts";

const problems = (h: Record<string, unknown>) => headerIssues(h).map((i) => [i.name, i.part]);

describe("declared HTTP header rules (RFC 9110)", () => {
  test("token names with visible-ASCII values pass, inner SP/HTAB allowed, empty value allowed", () => {
    expect(
      headerIssues({ Authorization: "Bearer abc.def", "X-Client_Id!#$%&'*+.^`|~": "a\tb c", "X-Empty": "" }),
    ).toEqual([]);
  });

  test("names must be tokens", () => {
    expect(problems({ "X Bad": "v", "X:Colon": "v", "": "v", Ünicode: "v" })).toEqual([
      ["X Bad", "name"],
      ["X:Colon", "name"],
      ["", "name"],
      ["Ünicode", "name"],
    ]);
  });

  test("Host and framing / hop-by-hop headers are refused in any case", () => {
    for (const name of [
      "Host",
      "content-length",
      "Transfer-Encoding",
      "CONNECTION",
      "Keep-Alive",
      "Proxy-Connection",
      "TE",
      "Trailer",
      "Upgrade",
      "Proxy-Authorization",
    ]) {
      expect(problems({ [name]: "x" })).toEqual([[name, "name"]]);
    }
  });

  test("names are unique case-insensitively", () => {
    expect(problems({ "X-Token": "a", "x-token": "b" })).toEqual([["x-token", "name"]]);
  });

  test("values: no ${ placeholder, no CR/LF/controls, no non-ASCII, no edge whitespace, strings only", () => {
    expect(problems({ A: "Bearer ${TOKEN}" })).toEqual([["A", "value"]]);
    expect(problems({ A: "a\r\nB: c" })).toEqual([["A", "value"]]);
    expect(problems({ A: "a\u0000" })).toEqual([["A", "value"]]);
    expect(problems({ A: "café" })).toEqual([["A", "value"]]);
    expect(problems({ A: " lead" })).toEqual([["A", "value"]]);
    expect(problems({ A: "trail\t" })).toEqual([["A", "value"]]);
    expect(problems({ A: 5 })).toEqual([["A", "value"]]);
  });

  test("messages never echo the value (it may be a secret)", () => {
    const [issue] = headerIssues({ Authorization: "Bearer s3cr3t\n" });
    expect(issue.problem).not.toContain("s3cr3t");
  });
});
