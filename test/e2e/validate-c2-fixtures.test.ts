/**
 * The C2 fixture table: every case under fixtures/c2/ with the exact set of error and warning
 * codes it must produce and its exit status. A sample runs through the real CLI (--json and
 * human output); the rest call the same core pipeline the CLI uses.
 */
import { describe, expect, test } from "bun:test";
import { lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { validationOutcome } from "../../src/cli/render/validation.ts";
import { makeStyle } from "../../src/core/style.ts";
import { planC2Bundle, c2Report } from "../../src/families/c2/validate.ts";
import { fixturesDir, runCli } from "../helpers/cli.ts";
import { snapshotTree } from "../helpers/tmp.ts";

type Row = [name: string, exit: 0 | 1, errors: string[], warnings?: string[]];

// prettier-ignore
const TABLE: Row[] = [
  ["duplicate-command-id", 1, ["duplicate_command"]],
  ["duplicate-connector-id", 1, ["duplicate_connector"]],
  ["duplicate-language-server-id", 1, ["duplicate_language_server"]],
  ["duplicate-ui-id-across-slots", 1, ["duplicate_ui"]],
  ["invalid-author-string", 1, ["invalid_manifest"]],
  ["invalid-codetwo-not-object", 1, ["invalid_manifest"]],
  ["invalid-command-args-schema-array", 1, ["invalid_command"]],
  ["invalid-command-description-301-chars", 1, ["invalid_command"]],
  ["invalid-command-id-129-chars", 1, ["invalid_command"]],
  ["invalid-command-id-not-namespaced", 1, ["invalid_command"]],
  ["invalid-command-id-space", 1, ["invalid_command"]],
  ["invalid-command-id-trailing-dot", 1, ["invalid_command"]],
  ["invalid-command-title-81-chars", 1, ["invalid_command"]],
  ["invalid-command-title-blank", 1, ["invalid_command"]],
  ["invalid-connector-capabilities-empty", 1, ["invalid_connector"]],
  ["invalid-connector-capability-files", 1, ["invalid_connector"]],
  ["invalid-connector-capability-issues", 1, ["invalid_connector"]],
  ["invalid-connector-capability-observations", 1, ["invalid_connector"]],
  ["invalid-connector-provider-unsafe", 1, ["invalid_connector"]],
  ["invalid-extension-not-object", 1, ["invalid_manifest"]],
  ["invalid-keywords-not-strings", 1, ["invalid_manifest"]],
  ["invalid-language-server-17-languages", 1, ["invalid_language_server"]],
  ["invalid-language-server-language-space", 1, ["invalid_language_server"]],
  ["invalid-language-server-languages-empty", 1, ["invalid_language_server"]],
  ["invalid-manifest-json-syntax", 1, ["invalid_manifest"]],
  ["invalid-manifest-not-object", 1, ["invalid_manifest"]],
  ["invalid-mcp-command-without-dot-slash", 1, ["invalid_mcp"]],
  ["invalid-mcp-cwd-form", 1, ["invalid_mcp"]],
  ["invalid-mcp-env-plugin-root", 1, ["invalid_mcp"]],
  ["invalid-mcp-header-duplicate-case", 1, ["invalid_mcp"]],
  ["invalid-mcp-header-host", 1, ["invalid_mcp"]],
  ["invalid-mcp-header-name-not-token", 1, ["invalid_mcp"]],
  ["invalid-mcp-header-transfer-encoding", 1, ["invalid_mcp"]],
  ["invalid-mcp-header-value-control-char", 1, ["invalid_mcp"]],
  ["invalid-mcp-header-value-non-ascii", 1, ["invalid_mcp"]],
  ["invalid-mcp-header-value-placeholder", 1, ["invalid_mcp"]],
  ["invalid-mcp-json-syntax", 1, ["invalid_mcp"]],
  ["invalid-mcp-schema", 1, ["invalid_mcp"]],
  ["invalid-mcp-type-http", 1, ["invalid_mcp"]],
  ["invalid-mcp-type-missing", 1, ["invalid_mcp"]],
  ["invalid-mcp-url-credentials", 1, ["invalid_mcp"]],
  ["invalid-mcp-url-http-remote", 1, ["invalid_mcp"]],
  ["invalid-name-65-chars", 1, ["invalid_name"]],
  ["invalid-name-double-dash", 1, ["invalid_name"]],
  ["invalid-name-double-dot", 1, ["invalid_name"]],
  ["invalid-name-empty", 1, ["invalid_name"]],
  ["invalid-name-leading-dash", 1, ["invalid_name"]],
  ["invalid-name-missing", 1, ["invalid_name"]],
  ["invalid-name-trailing-dash", 1, ["invalid_name"]],
  ["invalid-name-uppercase", 1, ["invalid_name"]],
  ["invalid-runtime-command-empty", 1, ["invalid_runtime"]],
  ["invalid-runtime-command-variable", 1, ["invalid_runtime"]],
  ["invalid-runtime-protocol", 1, ["invalid_runtime"]],
  ["invalid-runtime-scope-team", 1, ["invalid_runtime"]],
  ["invalid-ui-description-null", 1, ["invalid_ui"]],
  ["invalid-ui-id-space", 1, ["invalid_ui"]],
  ["invalid-ui-label-81-chars", 1, ["invalid_ui"]],
  ["invalid-ui-order-101", 1, ["invalid_ui"]],
  ["invalid-ui-order-fraction", 1, ["invalid_ui"]],
  ["invalid-ui-order-minus-101", 1, ["invalid_ui"]],
  ["invalid-ui-order-string", 1, ["invalid_ui"]],
  ["invalid-ui-slot-sidebar", 1, ["invalid_ui"]],
  ["invalid-version-leading-zero", 1, ["invalid_version"]],
  ["invalid-version-missing", 1, ["invalid_version"]],
  ["invalid-version-partial", 1, ["invalid_version"]],
  ["invalid-version-v-prefix", 1, ["invalid_version"]],
  ["missing-codetwo", 1, ["missing_codetwo"]],
  ["missing-commands-runtime-without-commands", 1, ["missing_commands"]],
  ["missing-file-language-server-command", 1, ["missing_file"]],
  ["missing-file-mcp-command", 1, ["missing_file"]],
  ["missing-file-runtime-command", 1, ["missing_file"]],
  ["missing-runtime-commands-without-runtime", 1, ["missing_runtime"]],
  ["missing-runtime-connector-without-runtime", 1, ["missing_runtime", "undeclared_command"]],
  ["missing-runtime-ui-without-runtime", 1, ["missing_runtime", "undeclared_command"]],
  [
    "multiple-errors-one-run",
    1,
    ["invalid_command", "invalid_manifest", "invalid_name", "invalid_ui", "invalid_version", "missing_runtime"],
  ],
  ["no-components-standard-only", 1, ["no_components"]],
  ["reserved-namespace-git", 1, ["reserved_namespace"]],
  ["too-many-commands-101", 1, ["too_many_commands"]],
  ["undeclared-command-connector", 1, ["undeclared_command"]],
  ["undeclared-command-ui", 1, ["undeclared_command"]],
  ["unknown-field-author-twitter", 1, ["unknown_field"]],
  ["unknown-field-codetwo-runtimePath", 1, ["unknown_field"]],
  ["unknown-field-command-handler", 1, ["unknown_field"]],
  ["unknown-field-mcp-shell", 1, ["unknown_field"]],
  ["unknown-field-runtime-commandTimeoutMs", 1, ["unknown_field"]],
  ["unknown-field-top-level-displayName", 1, ["unknown_field"]],
  ["unknown-field-top-level-runtime", 1, ["unknown_field"]],
  ["unknown-field-top-level-typo", 1, ["unknown_field"]],
  ["unsafe-path-runtime-absolute", 1, ["unsafe_path"]],
  ["unsafe-path-runtime-parent", 1, ["unsafe_path"]],
  ["unsupported-schema-2.0.0", 1, ["unsupported_schema"]],
  ["unsupported-schema-missing", 1, ["unsupported_schema"]],
  ["unsupported-standard-1.1.0", 1, ["unsupported_standard"]],
  ["unsupported-standard-missing", 1, ["unsupported_standard"]],
  ["valid-args-schema-null", 0, [], ["runtime.requires_trust"]],
  ["valid-bundle-relative-runtime", 0, [], ["runtime.requires_trust"]],
  ["valid-command-id-forms", 0, [], ["runtime.requires_trust"]],
  ["valid-connector-duplicate-capability", 0, [], ["runtime.requires_trust"]],
  ["valid-empty-command-warning", 0, [], ["empty_command"]],
  ["valid-empty-skill-warning", 0, [], ["empty_skill"]],
  ["valid-foreign-extension-kept", 0, []],
  ["valid-hooks-shown-unsupported", 0, [], ["component_unsupported"]],
  ["valid-invalid-skill-isolated", 0, [], ["invalid_agent_skill"]],
  ["valid-lsp-without-runtime", 0, []],
  ["valid-mcp-three-transports", 0, []],
  ["valid-minimal-skill", 0, []],
  ["valid-name-64-chars", 0, []],
  ["valid-name-with-dots", 0, []],
  ["valid-prerelease-version", 0, []],
  ["valid-scaffold-template", 0, []],
  ["valid-scenes-skip-broken", 0, [], ["component_unsupported", "invalid_scene"]],
  ["valid-seed-example", 0, [], ["runtime.requires_trust"]],
];

const C2 = join(fixturesDir, "c2");
const codes = (ds: { code: string; severity: string }[], severity: string) =>
  [...new Set(ds.filter((d) => d.severity === severity).map((d) => d.code))].sort();
/** Every 5th case, plus the ones whose refusal matters most, go through the real CLI. */
const viaCli = new Set(
  TABLE.filter((_, i) => i % 5 === 0)
    .map(([n]) => n)
    .concat([
      "multiple-errors-one-run",
      "unknown-field-runtime-commandTimeoutMs",
      "invalid-connector-capability-issues",
      "valid-seed-example",
    ]),
);

describe("C2 fixtures", () => {
  test("the table lists every fixture directory exactly once, and fixtures hold no symlinks", () => {
    const dirs = readdirSync(C2).sort();
    expect(TABLE.map(([n]) => n).sort()).toEqual(dirs);
    expect(dirs.length).toBeGreaterThanOrEqual(50);
    const links: string[] = [];
    const walk = (d: string) => {
      for (const e of readdirSync(d, { withFileTypes: true })) {
        if (e.isSymbolicLink()) links.push(join(d, e.name));
        else if (e.isDirectory()) walk(join(d, e.name));
      }
    };
    walk(C2);
    expect(links).toEqual([]);
  });

  for (const [name, exit, errors, warnings = []] of TABLE) {
    if (viaCli.has(name)) {
      test(`${name} (CLI): exit ${exit}, errors ${errors.join(",") || "none"}`, async () => {
        const dir = join(C2, name);
        const before = snapshotTree(dir);
        const r = await runCli(["plugin", "validate", dir, "--json"]);
        expect(r.exitCode).toBe(exit);
        const doc = r.json();
        expect(doc.schema).toBe("gjc/validate@1");
        expect(doc.family).toBe("c2");
        expect(doc.ok).toBe(exit === 0);
        expect(codes(doc.diagnostics, "error")).toEqual(errors);
        expect(codes(doc.diagnostics, "warning")).toEqual(warnings);
        for (const d of doc.diagnostics) {
          expect(typeof d.message).toBe("string");
          expect(d.path.length).toBeGreaterThan(0);
        }
        const human = await runCli(["plugin", "validate", dir]);
        expect(human.exitCode).toBe(exit);
        for (const code of [...errors, ...warnings]) expect(human.stdout).toContain(`[${code}]`);
        expect(snapshotTree(dir)).toEqual(before); // validate never writes
      });
    } else {
      test(`${name}: exit ${exit}, errors ${errors.join(",") || "none"}`, () => {
        const plan = planC2Bundle(join(C2, name));
        const outcome = validationOutcome(c2Report(plan), false, makeStyle(false));
        expect(outcome.exit ?? 0).toBe(exit);
        expect(codes(plan.diagnostics, "error")).toEqual(errors);
        expect(codes(plan.diagnostics, "warning")).toEqual(warnings);
      });
    }
  }

  test("--strict turns warnings into exit 1", async () => {
    const dir = join(C2, "valid-hooks-shown-unsupported");
    expect((await runCli(["plugin", "validate", dir])).exitCode).toBe(0);
    const strict = await runCli(["plugin", "validate", dir, "--strict", "--json"]);
    expect(strict.exitCode).toBe(1);
    expect(strict.json().ok).toBe(false);
  });
});

describe("gjc plugin validate --format", () => {
  test("github: one annotation a diagnostic, at the file, line and column the JSON pointer names, escaped", async () => {
    const r = await runCli(
      ["plugin", "validate", join(fixturesDir, "c2", "unknown-field-runtime-commandTimeoutMs"), "--format", "github"],
      { cwd: fixturesDir },
    );
    expect(r.exitCode).toBe(1);
    const lines = r.stdout.trim().split("\n");
    expect(lines).toHaveLength(1);
    // "commandTimeoutMs": 60000 is line 20, its key at column 9 of plugin.json
    expect(lines[0]).toStartWith(
      "::error file=c2/unknown-field-runtime-commandTimeoutMs/plugin.json,line=20,col=9,title=gjc unknown_field::runtime has an unknown field",
    );
    expect(lines[0]).toContain("%0Ahint: runtime.commandTimeoutMs is newer");
    const catalog = await runCli(
      ["plugin", "validate", join(fixturesDir, "catalogs", "catalog-mismatch-name"), "--format=github"],
      { cwd: fixturesDir },
    );
    expect(catalog.stdout).toStartWith(
      "::error file=catalogs/catalog-mismatch-name/marketplace.json,line=8,col=7,title=gjc catalog_mismatch::",
    );
    const valid = await runCli([
      "plugin",
      "validate",
      join(fixturesDir, "examples", "notes-skills"),
      "--format",
      "github",
    ]);
    expect({ exit: valid.exitCode, out: valid.stdout }).toEqual({ exit: 0, out: "" });
  });

  test("json is --json; an unknown format is a usage error", async () => {
    const dir = join(fixturesDir, "c2", "invalid-name-uppercase");
    const a = await runCli(["plugin", "validate", dir, "--format", "json"]);
    const b = await runCli(["plugin", "validate", dir, "--json"]);
    expect(a.json()).toEqual(b.json());
    expect(a.exitCode).toBe(1);
    const bad = await runCli(["plugin", "validate", dir, "--format", "sarif"]);
    expect(bad.exitCode).toBe(2);
  });
});
