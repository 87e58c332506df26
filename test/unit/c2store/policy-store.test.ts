import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { c2Layout } from "../../../src/c2store/paths.ts";
import { emptyPolicy, parsePolicyDocument, serializePolicy } from "../../../src/c2store/policy-doc.ts";
import { commitPolicy, markLastGood, openPolicy } from "../../../src/c2store/policy-store.ts";
import { sandboxPerTest } from "../../helpers/sandbox.ts";
import { snapshotTree } from "../../helpers/tmp.ts";

const box = sandboxPerTest("gjc-c2policy-");

/** The C2 layout of a fresh sandbox; `root` is its C2 data directory, made empty up front. */
function layoutIn() {
  const s = box();
  mkdirSync(s.c2, { recursive: true });
  return { root: s.c2, layout: c2Layout(s.context()) };
}

const now = new Date("2026-01-02T03:04:05Z");

describe("policy document", () => {
  test("is closed: unknown fields, bad states and other schema versions are refused", () => {
    expect(parsePolicyDocument('{"schema_version":1,"revision":0,"user":{},"projects":{}}').ok).toBe(true);
    const bad = [
      '{"schema_version":2,"revision":0,"user":{},"projects":{}}',
      '{"schema_version":1,"revision":0,"user":{},"projects":{},"extra":1}',
      '{"schema_version":1,"revision":-1,"user":{}}',
      '{"schema_version":1,"revision":0,"user":{"bundle:a-1":{"state":"on"}}}',
      '{"schema_version":1,"revision":0,"user":{"bundle:a-1":{"mode":"enabled"}}}',
      '{"schema_version":1,"revision":0,"user":{"bundle:a-1":{"components":{"x":"maybe"}}}}',
      '{"schema_version":1,"revision":0,"projects":{"relative/dir":{}}}',
      "[1,2]",
      "{not json",
    ];
    for (const text of bad) expect(parsePolicyDocument(text).ok).toBe(false);
    const v2 = parsePolicyDocument('{"schema_version":2,"revision":0}');
    expect(v2.ok === false && v2.error).toContain("schema 2 is not supported");
  });

  test("a refusal names the bad field and its JSON pointer", () => {
    const cases: [string, string][] = [
      ['{"schema_version":1,"revision":0,"extra":1}', 'An unknown field "extra" (at /extra)'],
      ['{"schema_version":1,"revision":"7"}', "revision must be an integer, not a string (at /revision)"],
      [
        '{"schema_version":1,"revision":0,"user":{"bundle:a-1":{"mode":"enabled"}}}',
        'user.bundle:a-1 has an unknown field "mode" (at /user/bundle:a-1/mode)',
      ],
      [
        '{"schema_version":1,"revision":0,"user":{"bundle:a-1":{"components":{"x":"maybe"}}}}',
        'user.bundle:a-1.components.x "maybe" is not allowed (at /user/bundle:a-1/components/x)',
      ],
      [
        '{"schema_version":1,"revision":0,"projects":{"relative/dir":{}}}',
        'projects has an unknown field "relative/dir" (at /projects/relative~1dir)',
      ],
    ];
    for (const [text, error] of cases) expect([text, parsePolicyDocument(text)]).toEqual([text, { ok: false, error }]);
  });

  test("empty policies and project maps are dropped when written", () => {
    const doc = emptyPolicy(3);
    doc.user["bundle:a-11111111"] = {};
    doc.projects["/p"] = { "bundle:a-11111111": { components: {} } };
    expect(JSON.parse(serializePolicy(doc))).toEqual({ schema_version: 1, revision: 3, user: {}, projects: {} });
  });
});

describe("policy store", () => {
  test("a missing primary is an empty normal policy and opening writes nothing", () => {
    const { root, layout } = layoutIn();
    const before = snapshotTree(root);
    const view = openPolicy(layout);
    expect(view.recovery.kind).toBe("normal");
    expect(view.doc).toEqual(emptyPolicy());
    expect(snapshotTree(root)).toEqual(before);
  });

  test("revision goes up by one per changed document and not for an identical one; mode 0600", () => {
    const { layout } = layoutIn();
    let view = openPolicy(layout);
    const next = emptyPolicy();
    next.user["bundle:demo-12345678"] = { state: "disabled" };
    const first = commitPolicy(layout, view, next, now);
    expect(first).toMatchObject({ written: true });
    expect(first.doc.revision).toBe(1);
    expect(statSync(layout.policy).mode & 0o777).toBe(0o600);
    view = openPolicy(layout);
    const again = commitPolicy(layout, view, { ...next, revision: 99 }, now);
    expect(again.written).toBe(false);
    expect(openPolicy(layout).doc.revision).toBe(1);
    next.user["bundle:demo-12345678"] = { state: "enabled", config: { a: 1 } };
    expect(commitPolicy(layout, openPolicy(layout), next, now).doc.revision).toBe(2);
    expect(readFileSync(layout.policy, "utf8").endsWith("\n")).toBe(true);
  });

  test("a corrupt primary is left as evidence and the last good copy is used", () => {
    const { layout } = layoutIn();
    const good = emptyPolicy();
    good.user["bundle:demo-12345678"] = { state: "disabled" };
    const committed = commitPolicy(layout, openPolicy(layout), good, now).doc;
    markLastGood(layout, committed);
    writeFileSync(layout.policy, "{ this is not json");
    const bytes = readFileSync(layout.policy);
    const view = openPolicy(layout);
    expect(view.recovery.kind).toBe("restored-last-good");
    expect(view.doc.user["bundle:demo-12345678"]).toEqual({ state: "disabled" });
    expect(readFileSync(layout.policy)).toEqual(bytes);
  });

  test("no usable copy means safe mode with an empty policy; writing a primary keeps the evidence", () => {
    const { root, layout } = layoutIn();
    writeFileSync(layout.policy, '{"schema_version":7}');
    const view = openPolicy(layout);
    expect(view.recovery.kind).toBe("safe-mode");
    expect(view.doc).toEqual(emptyPolicy());
    const result = commitPolicy(layout, view, emptyPolicy(), now);
    expect(result.written).toBe(true);
    expect(result.doc.revision).toBe(0);
    expect(JSON.parse(readFileSync(layout.policy, "utf8"))).toEqual({
      schema_version: 1,
      revision: 0,
      user: {},
      projects: {},
    });
    expect(result.evidence).toBeDefined();
    expect(readFileSync(result.evidence!, "utf8")).toBe('{"schema_version":7}');
    expect(existsSync(join(root, "plugin-config.json"))).toBe(true);
    expect(openPolicy(layout).recovery.kind).toBe("normal");
  });
});
