/**
 * The one reader of state files (src/store/state-file.ts): size judged before reading, JSON
 * bounded like bundle JSON, regular files of this user only, and a MAC bound to its purpose.
 */
import { describe, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { chmodSync, chownSync, mkdirSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readStateJson, readStateText, signedStateText } from "../../../src/store/state-file.ts";
import { sandboxPerTest } from "../../helpers/sandbox.ts";

const box = sandboxPerTest();
const isRoot = process.getuid?.() === 0;

describe("readStateText", () => {
  test("a missing file is missing; a link, a directory or a world-writable file is foreign; another user's too", () => {
    const s = box();
    const dir = join(s.root, "state");
    mkdirSync(dir);
    expect(readStateText(join(dir, "none.json"))).toEqual({ kind: "missing" });
    writeFileSync(join(dir, "real.json"), "{}");
    symlinkSync(join(dir, "real.json"), join(dir, "link.json"));
    expect(readStateText(join(dir, "link.json"))).toEqual({ kind: "foreign", problem: "it is a symbolic link" });
    mkdirSync(join(dir, "d.json"));
    expect(readStateText(join(dir, "d.json"))).toEqual({ kind: "foreign", problem: "it is not a regular file" });
    writeFileSync(join(dir, "open.json"), "{}");
    chmodSync(join(dir, "open.json"), 0o666);
    expect(readStateText(join(dir, "open.json"))).toMatchObject({
      kind: "foreign",
      problem: expect.stringContaining("every user may write it"),
    });
    // A repository file (a lock) is judged by its content only.
    expect(readStateText(join(dir, "open.json"), { owned: false })).toEqual({ kind: "text", text: "{}" });
    if (isRoot) {
      chownSync(join(dir, "real.json"), 65534, 65534);
      expect(readStateText(join(dir, "real.json"))).toEqual({
        kind: "foreign",
        problem: "it belongs to another user (uid 65534)",
      });
    }
  });

  test("a file over the limit is file_too_large before a byte is read (a sparse 300 MiB file costs nothing)", () => {
    const s = box();
    const path = join(s.root, "big.json");
    writeFileSync(path, "{");
    truncateSync(path, 300 * 1024 * 1024);
    let error: { code?: string } = {};
    try {
      readStateText(path, { maxBytes: 1024 });
    } catch (e) {
      error = e as typeof error;
    }
    expect(error.code).toBe("file_too_large");
  });

  test("a FIFO is refused without blocking", () => {
    const s = box();
    const path = join(s.root, "fifo.json");
    execFileSync("mkfifo", [path]);
    expect(readStateText(path)).toEqual({ kind: "foreign", problem: "it is not a regular file" });
  });
});

describe("readStateJson", () => {
  test("deep nesting and repeated keys are invalid (never a stack overflow)", () => {
    const s = box();
    const ctx = s.context();
    const path = join(s.root, "deep.json");
    writeFileSync(path, `${"[".repeat(200000)}${"]".repeat(200000)}`);
    expect(readStateJson(ctx, path)).toMatchObject({
      kind: "invalid",
      problem: expect.stringContaining("nested deeper than 128"),
    });
    writeFileSync(path, '{"a":1,"a":2}');
    expect(readStateJson(ctx, path)).toMatchObject({
      kind: "invalid",
      problem: expect.stringContaining("appears twice"),
    });
  });

  test("signed for a purpose: read back without its mac; unsigned, edited, signed for another purpose or with another key is foreign", () => {
    const s = box();
    const other = box();
    const ctx = s.context();
    const path = join(s.root, "j.json");
    const doc = { version: 1, scope: "user", list: ["a", "b"], n: 3 };
    writeFileSync(path, signedStateText(ctx, "transaction:user", doc, 2));
    expect(readStateJson(ctx, path, { purpose: "transaction:user" })).toEqual({ kind: "ok", value: doc });
    // Without a purpose nothing is believed beyond the bounds: the mac is just a member.
    expect(readStateJson(ctx, path)).toMatchObject({
      kind: "ok",
      value: { ...doc, mac: expect.stringMatching(/^hmac-sha256:/) },
    });
    const cases: [string, string][] = [
      [JSON.stringify(doc), "carries no gjc signature"],
      [signedStateText(ctx, "transaction:user", doc).replace('"b"', '"c"'), "not this user's"],
      [signedStateText(ctx, "transaction:project", doc), "not this user's"],
      [signedStateText(other.context(), "transaction:user", doc), "not this user's"],
      ["[1]", "not a JSON object"],
      ["{", "not valid JSON"],
    ];
    for (const [text, problem] of cases) {
      writeFileSync(path, text);
      expect(readStateJson(ctx, path, { purpose: "transaction:user" })).toMatchObject({
        kind: "foreign",
        problem: expect.stringContaining(problem),
      });
    }
  });
});
