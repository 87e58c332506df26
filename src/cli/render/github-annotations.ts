import type { LocatedDiagnostic } from "../../authoring/annotations.ts";

/**
 * GitHub Actions workflow commands (`::error file=…,line=…,col=…,title=…::message`): a CI step
 * that runs `gjc plugin validate . --format github` shows each diagnostic inline on the pull
 * request. Escaping follows @actions/core: `%`, CR and LF in the message; also `:` and `,` in
 * property values.
 */
export function githubAnnotations(located: LocatedDiagnostic[]): string {
  return located
    .map(({ diagnostic: d, file, line, column }) => {
      const properties = [
        `file=${escapeProperty(file)}`,
        `line=${line}`,
        `col=${column}`,
        `title=${escapeProperty(`gjc ${d.code}`)}`,
      ].join(",");
      const message = d.hint ? `${d.message}\nhint: ${d.hint}` : d.message;
      return `::${d.severity === "error" ? "error" : "warning"} ${properties}::${escapeData(message)}`;
    })
    .join("\n");
}

function escapeData(s: string): string {
  return s.replaceAll("%", "%25").replaceAll("\r", "%0D").replaceAll("\n", "%0A");
}

function escapeProperty(s: string): string {
  return escapeData(s).replaceAll(":", "%3A").replaceAll(",", "%2C");
}
