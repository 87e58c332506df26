/**
 * An audit report as SARIF 2.1.0 (OASIS): one run, the rule catalog as tool.driver.rules
 * (with help text), one result per finding located in the manifest it was declared in
 * (artifactLocation.uri relative to the bundle root, region start line/column).
 */
import type { AuditReport } from "./audit.ts";
import { AUDIT_RULES } from "./rules.ts";

export const SARIF_SCHEMA_URI =
  "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

export function toSarif(report: AuditReport): Record<string, unknown> {
  const index = new Map(AUDIT_RULES.map((r, i) => [r.id, i]));
  return {
    $schema: SARIF_SCHEMA_URI,
    version: "2.1.0",
    runs: [
      {
        tool: {
          driver: {
            name: "gjc plugin audit",
            rules: AUDIT_RULES.map((r) => ({
              id: r.id,
              name: r.id.replace(/(^|-)([a-z])/g, (_m, _d, c: string) => c.toUpperCase()),
              shortDescription: { text: r.summary },
              fullDescription: { text: `${r.summary} ${r.help}` },
              help: { text: r.help },
              defaultConfiguration: { level: r.level },
            })),
          },
        },
        columnKind: "utf16CodeUnits",
        results: report.findings.map((f) => ({
          ruleId: f.ruleId,
          ruleIndex: index.get(f.ruleId) ?? -1,
          level: f.level,
          message: { text: `${f.message} ${f.hint}` },
          locations: [
            {
              physicalLocation: {
                artifactLocation: { uri: f.at.file },
                region: { startLine: f.region.line, startColumn: f.region.column },
              },
              logicalLocations: [
                { name: f.subject, kind: "member", fullyQualifiedName: `${report.subject.name}/${f.subject}` },
              ],
            },
          ],
          partialFingerprints: {
            "gjcCapability/v1": `${report.subject.name}:${f.ruleId}:${f.subject}:${f.at.file}#${f.at.pointer}`,
          },
        })),
        properties: {
          bundle: report.subject.name,
          version: report.subject.version,
          family: report.subject.family,
          subject: report.subject.kind,
        },
      },
    ],
  };
}
