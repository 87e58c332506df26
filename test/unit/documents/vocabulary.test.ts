/**
 * One vocabulary (issue #11): every `--json` document gjc prints has camelCase keys, and its
 * status, kind and other enumerated values are lower-case words joined by `-` (`needs-retrust`,
 * `would-install`), the spelling gjc's documents already used. The schemas under docs/json are
 * the documents' definitions, so holding them to the rule holds every verb to it.
 *
 * Not judged, by construction: JSON Schema keywords (only the names under `properties` are
 * document keys), and maps whose keys are data (env variable names, component ids, C2 wire
 * answers a runtime returns as `result`): those are `additionalProperties`/unknown, not
 * declared properties.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { repoRoot } from "../../helpers/cli.ts";

const dir = join(repoRoot, "docs", "json");

/**
 * Documents gjc keeps on disk, not prints: their formats are fixed by the files earlier
 * versions wrote (C2 records and policy are snake_case like the C2 reference's), and stay.
 */
const ON_DISK: Record<string, string> = {
  "files-stamp.schema.json": "C2 store stamp file",
  "installed-index.schema.json": "C2 records index (derived from the snake_case records)",
  "installed-plugin.schema.json": "C2 installed record installed-plugin.json",
  "plugin-config.schema.json": "C2 policy document plugin-config.json",
  "policy-plan.schema.json": "C2 stored policy plan plugin-plans/<token>.json",
  "registry-index.schema.json": "GJC derived list index",
  "registry.schema.json": "GJC registry.json",
  "plugins-lock.schema.json": "the plugins.lock.json a team commits",
  "mcp-pins.schema.json": "mcp-pins.json beside a GJC scope's registry",
  "store-lock.schema.json": "a store lock file's holder record (registry.lock, c2.lock, ...)",
  "runtime-verdicts.schema.json": "runtime-check verdicts beside a GJC scope's registry",
  "c2-live-host.schema.json": "a running gjc host's live file in the C2 data directory",
  "cache-entry.schema.json": "a content cache entry's entry.json (also inside set archives)",
  "set-history.schema.json": "a scope's plugin-set generations, plugins-history/generations.json",
  "set-journal.schema.json": "an unfinished sync or rollback, plugins-history/transaction.json",
  "known-projects.schema.json": "the content cache's projects.json (projects whose sets gjc recorded)",
};

/**
 * Property names whose values are codes by definition, not vocabulary words: an error or
 * diagnostic code is an identifier of `gjc explain` and keeps its snake_case spelling.
 */
const CODE_KEYS: Record<string, string> = {
  code: "error, diagnostic, reason and warning codes are gjc explain identifiers (trust_outdated, missing_service)",
};

/**
 * Other enumerated values that are not statuses but codes: they name a problem the way error and
 * diagnostic codes do, and keep that spelling (`gjc explain` knows the codes). Keyed by file
 * and the JSON pointer of the schema node.
 */
const CODE_VALUES: Record<string, string> = {
  "doctor.schema.json /anyOf/0/properties/findings/items/properties/kind":
    "a finding's kind is its problem code, like a diagnostic's (unsafe_scope_path and foreign_scope are the same problem's error codes)",
};

const KEY = /^[a-z][a-zA-Z0-9]*$/;
const VALUE = /^[a-z0-9]+(-[a-z0-9]+)*$/;

type Node = Record<string, unknown>;
const isNode = (v: unknown): v is Node => typeof v === "object" && v !== null && !Array.isArray(v);

/** Every declared property key and every enumerated string value, with where it is. */
function vocabulary(schema: unknown): { keys: { at: string; key: string }[]; values: { at: string; value: string }[] } {
  const keys: { at: string; key: string }[] = [];
  const values: { at: string; value: string }[] = [];
  const walk = (node: unknown, at: string, key: string | undefined) => {
    if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${at}/${i}`, key));
    if (!isNode(node)) return;
    // `schema` holds the document id (gjc/<verb>@1), not a vocabulary word.
    if (key !== "schema" && !(key !== undefined && key in CODE_KEYS)) {
      for (const v of [node.const, ...(Array.isArray(node.enum) ? node.enum : [])])
        if (typeof v === "string") values.push({ at, value: v });
    }
    for (const [k, child] of Object.entries(node)) {
      if (k === "properties" && isNode(child)) {
        for (const [name, sub] of Object.entries(child)) {
          keys.push({ at: `${at}/properties`, key: name });
          walk(sub, `${at}/properties/${name}`, name);
        }
      } else
        walk(child, `${at}/${k}`, k === "items" || k === "anyOf" || k === "oneOf" || k === "allOf" ? key : undefined);
    }
  };
  walk(schema, "", undefined);
  return { keys, values };
}

const files = readdirSync(dir)
  .filter((f) => f.endsWith(".schema.json"))
  .sort();
const printed = files.filter((f) => !(f in ON_DISK));

describe("one --json vocabulary", () => {
  test("every schema under docs/json is a printed document (gjc/<verb>@1) or a listed on-disk format", () => {
    const unclassified = printed.filter(
      (f) => !/^gjc\/[a-z0-9-]+@1$/.test(JSON.parse(readFileSync(join(dir, f), "utf8")).$id ?? ""),
    );
    expect(unclassified).toEqual([]);
    expect(Object.keys(ON_DISK).filter((f) => !files.includes(f))).toEqual([]);
  });

  test("printed documents declare only camelCase keys", () => {
    const bad = printed.flatMap((f) =>
      vocabulary(JSON.parse(readFileSync(join(dir, f), "utf8")))
        .keys.filter((k) => !KEY.test(k.key))
        .map((k) => `${f} ${k.at}: ${k.key}`),
    );
    expect(bad).toEqual([]);
  });

  test("printed documents spell enumerated values as lower-case words joined by -", () => {
    const bad: string[] = [];
    const excepted = new Set<string>();
    for (const f of printed) {
      for (const { at, value } of vocabulary(JSON.parse(readFileSync(join(dir, f), "utf8"))).values) {
        if (VALUE.test(value)) continue;
        if (`${f} ${at}` in CODE_VALUES) excepted.add(`${f} ${at}`);
        else bad.push(`${f} ${at}: ${value}`);
      }
    }
    expect(bad).toEqual([]);
    // An exception that no longer matches anything is removed, so the list stays the truth.
    expect(Object.keys(CODE_VALUES).filter((k) => !excepted.has(k))).toEqual([]);
  });

  test("every printed document says schema and ok (README Conventions)", () => {
    const variants = (s: Node): Node[] => (Array.isArray(s.anyOf) ? (s.anyOf as Node[]).flatMap(variants) : [s]);
    const bad = printed.flatMap((f) =>
      variants(JSON.parse(readFileSync(join(dir, f), "utf8")))
        .filter((v) => !["schema", "ok"].every((k) => (v.required as string[] | undefined)?.includes(k)))
        .map(() => f),
    );
    expect(bad).toEqual([]);
  });

  test("the checker sees snake_case keys and values (a schema like the old policy catalog fails)", () => {
    const old = {
      properties: {
        config_revision: { type: "integer" },
        plugins: { type: "array", items: { properties: { trust_state: { enum: ["trusted", "needs_retrust"] } } } },
      },
    };
    const { keys, values } = vocabulary(old);
    expect(keys.filter((k) => !KEY.test(k.key)).map((k) => k.key)).toEqual(["config_revision", "trust_state"]);
    expect(values.filter((v) => !VALUE.test(v.value)).map((v) => v.value)).toEqual(["needs_retrust"]);
  });
});
