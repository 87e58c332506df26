import { describe, expect, test } from "bun:test";
import { hasRedactedParts, redactText, redactUrl, storableUrl } from "../../../src/sources/redact.ts";

describe("redaction", () => {
  test("redactUrl hides userinfo and query values, keeps an ssh user name", () => {
    expect(redactUrl("https://user:tok@h.example/r.git")).toBe("https://***@h.example/r.git");
    expect(redactUrl("https://ghp_abc@h.example/r.git")).toBe("https://***@h.example/r.git");
    expect(redactUrl("https://h.example/b.tgz?X-Sig=abc&v=2#x")).toBe("https://h.example/b.tgz?X-Sig=***&v=***#x");
    expect(redactUrl("https://h.example/b.tgz?secret")).toBe("https://h.example/b.tgz?***");
    expect(redactUrl("ssh://git@h.example/r.git")).toBe("ssh://git@h.example/r.git");
    expect(redactUrl("ssh://git:pw@h.example/r.git")).toBe("ssh://***@h.example/r.git");
    expect(redactUrl("git@h.example:o/r.git")).toBe("git@h.example:o/r.git");
    expect(redactUrl("https://h.example/r.git")).toBe("https://h.example/r.git");
  });

  test("storableUrl drops userinfo so the credential helper answers next time", () => {
    expect(storableUrl("https://user:tok@h.example/r.git")).toBe("https://h.example/r.git");
    expect(storableUrl("ssh://git@h.example/r.git")).toBe("ssh://git@h.example/r.git");
    expect(storableUrl("https://h.example/b.tgz?sig=1")).toBe("https://h.example/b.tgz?sig=***");
    expect(hasRedactedParts(storableUrl("https://h.example/b.tgz?sig=1"))).toBe(true);
    expect(hasRedactedParts("https://h.example/b.tgz")).toBe(false);
  });

  test("redactText cleans URLs inside git's messages", () => {
    expect(redactText("fatal: unable to access 'https://u:p4ss@h.example/r.git/': 403")).toBe(
      "fatal: unable to access 'https://***@h.example/r.git/': 403",
    );
    expect(redactText("GET https://h.example/x?token=abc failed")).toBe("GET https://h.example/x?token=*** failed");
  });
});
