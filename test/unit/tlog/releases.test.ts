import { describe, expect, test } from "bun:test";
import { isGjcError } from "../../../src/core/errors.ts";
import { parseReleases, releaseLine, releaseProblem, releasesText } from "../../../src/tlog/releases.ts";

const D = `sha256:${"ab".repeat(32)}`;
const FPR = "SHA256:uNiVztksCsDhcc0u9e8BujQXVUpKZIDTMczCvj3tD2s";
const codeOf = (f: () => unknown) => {
  try {
    f();
    return "no error";
  } catch (e) {
    return isGjcError(e) ? e.code : String(e);
  }
};

describe("the releases file", () => {
  test("round trip, signed and unsigned", () => {
    const rs = [
      { name: "a", version: "1.0.0", digest: D, signer: FPR },
      { name: "b", version: "0.1.0-rc.1+x", digest: D },
    ];
    const text = releasesText(rs);
    expect(text).toBe(`a 1.0.0 ${D} ${FPR}\nb 0.1.0-rc.1+x ${D} -\n`);
    expect(parseReleases(text, "releases")).toEqual(rs);
    expect(parseReleases("", "releases")).toEqual([]);
    expect(releaseLine(rs[1])).toBe(`b 0.1.0-rc.1+x ${D} -`);
  });

  test("anything not exactly one release a line is refused", () => {
    for (const bad of [
      `a 1.0.0 ${D} -`, // no final newline
      `a  1.0.0 ${D} -\n`,
      `a 1.0.0 ${D} - \n`,
      ` a 1.0.0 ${D} -\n`,
      `a 1.0.0 ${D} -\r\n`,
      `a 1.0.0 ${D}\n`,
      `a 1.0.0 sha256:${"AB".repeat(32)} -\n`,
      `a 1.0.0 ${D} md5:abc\n`,
      `a\t1.0.0 ${D} -\n`,
      `a 1.0.0 ${D} -\n\n`,
      `é 1.0.0 ${D} -\n`,
    ])
      expect({ bad, code: codeOf(() => parseReleases(bad, "releases")) }).toEqual({ bad, code: "invalid_log" });
  });

  test("releaseProblem names what cannot be logged", () => {
    expect(releaseProblem({ name: "a b", version: "1", digest: D })).toContain("name");
    expect(releaseProblem({ name: "a", version: "", digest: D })).toContain("version");
    expect(releaseProblem({ name: "a", version: "1", digest: "sha256:00" })).toContain("digest");
    expect(releaseProblem({ name: "a", version: "1", digest: D, signer: "ssh-ed25519 AAAA" })).toContain("signer");
    expect(releaseProblem({ name: "a", version: "1", digest: D, signer: FPR })).toBeUndefined();
  });
});
