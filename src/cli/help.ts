import type { VerbCommand } from "./define-verb.ts";
import type { GroupCommand } from "./verbs.ts";

/** Help for a command group: its sub-commands with one line each (their `meta`, none loaded). */
export function groupHelp(path: string[], group: GroupCommand): string {
  const name = ["gjc", ...path].join(" ");
  const children = group.subCommands;
  const width = Math.max(...Object.keys(children).map((k) => k.length));
  const lines = [
    `${name} — ${group.meta.description}`,
    "",
    `Usage: ${name} <command> [options]`,
    "",
    "Commands:",
    ...Object.entries(children).map(([k, v]) => `  ${k.padEnd(width)}  ${v.meta.description}`),
    "",
    `Run "${name} <command> --help" for the options of one command.`,
  ];
  if (path.length === 0) {
    lines.push("", "Global options:", "  --version   Print the version", "  --help, -h  Show help");
    lines.push(
      "",
      "Exit codes: 0 ok · 1 failed · 2 usage · 3 refused (integrity, trust, policy) · 4 source unreachable · 5 lock busy · 70 internal",
    );
  }
  return `${lines.join("\n")}\n`;
}

/** Help for one verb: usage line, arguments, options and examples. */
export function verbHelp(def: VerbCommand): string {
  const positionals = Object.entries(def.args).filter(([, a]) => a.type === "positional");
  const options = Object.entries(def.args).filter(([, a]) => a.type !== "positional");
  const usage = [
    `gjc ${def.meta.name}`,
    ...positionals.map(([n, a]) => (a.required === false ? `[${n}]` : `<${n}>`)),
    ...(def.rest ? [`[${def.rest}…]`] : []),
    "[options]",
  ].join(" ");
  const optionRows = options.map(([n, a]) => {
    const aliases = "alias" in a && a.alias ? (Array.isArray(a.alias) ? a.alias : [a.alias]) : [];
    const hint =
      a.type === "boolean"
        ? ""
        : ` <${(a as { valueHint?: string }).valueHint ?? (a.type === "enum" ? (a as { options: string[] }).options.join("|") : "value")}>`;
    return [`${aliases.map((x) => `-${x}, `).join("")}--${n}${hint}`, a.description ?? ""] as const;
  });
  optionRows.push(["--help, -h", "Show this help"]);
  const width = Math.max(...optionRows.map(([l]) => l.length), ...positionals.map(([n]) => n.length + 2));
  const lines = [`gjc ${def.meta.name} — ${def.meta.description}`, "", `Usage: ${usage}`];
  if (positionals.length > 0) {
    lines.push("", "Arguments:", ...positionals.map(([n, a]) => `  ${`<${n}>`.padEnd(width)}  ${a.description ?? ""}`));
  }
  lines.push("", "Options:", ...optionRows.map(([l, d]) => `  ${l.padEnd(width)}  ${d}`));
  if (def.examples?.length) lines.push("", "Examples:", ...def.examples.map((e) => `  ${e}`));
  return `${lines.join("\n")}\n`;
}
