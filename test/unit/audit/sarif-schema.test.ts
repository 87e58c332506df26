import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { checkJsonSchema } from "./json-schema-check.ts";

const schema = JSON.parse(readFileSync(join(import.meta.dir, "sarif-schema-2.1.0.subset.json"), "utf8"));
const minimal = () => ({
  version: "2.1.0",
  runs: [
    {
      tool: { driver: { name: "t", rules: [{ id: "r" }] } },
      results: [
        {
          ruleId: "r",
          level: "warning",
          message: { text: "m" },
          locations: [{ physicalLocation: { artifactLocation: { uri: "a.json" }, region: { startLine: 1 } } }],
        },
      ],
    },
  ],
});

describe("the vendored SARIF subset and its checker", () => {
  test("a well-formed log passes", () => {
    expect(checkJsonSchema(schema, minimal())).toEqual([]);
  });
  test("violations are reported", () => {
    const wrongLevel = minimal();
    (wrongLevel.runs[0].results[0] as any).level = "fatal";
    expect(checkJsonSchema(schema, wrongLevel)).toEqual([
      '/runs/0/results/0/level: "fatal" is not one of ["none","note","warning","error"]',
    ]);
    const noMessage = minimal();
    delete (noMessage.runs[0].results[0] as any).message;
    expect(checkJsonSchema(schema, noMessage)).toContain("/runs/0/results/0: missing required message");
    const extra = minimal() as any;
    extra.runs[0].results[0].locations[0].physicalLocation.region = { startLine: 0, bogus: 1 };
    expect(checkJsonSchema(schema, extra)).toEqual([
      "/runs/0/results/0/locations/0/physicalLocation/region/startLine: 0 < minimum 1",
      "/runs/0/results/0/locations/0/physicalLocation/region: unknown property bogus",
    ]);
    const version = minimal() as any;
    version.version = "2.0.0";
    expect(checkJsonSchema(schema, version)).toHaveLength(1);
    const noRegion = minimal() as any;
    noRegion.runs[0].results[0].locations[0].physicalLocation = {};
    expect(checkJsonSchema(schema, noRegion)).toEqual([
      "/runs/0/results/0/locations/0/physicalLocation: matches none of anyOf",
    ]);
  });
});

describe("docs/json schemas of the audit area", () => {
  test("are what scripts/gen-audit-schemas.ts writes (run it when this fails)", () => {
    const r = Bun.spawnSync(
      [process.execPath, join(import.meta.dir, "../../../scripts/gen-audit-schemas.ts"), "--check"],
      { stdout: "pipe", stderr: "pipe" },
    );
    expect({ exit: r.exitCode, stale: r.stderr.toString().includes("stale") }).toEqual({ exit: 0, stale: false });
  });
});
