import type { ArgsDef } from "citty";
import { gjc, isGroup, resolveEntry, type GjcCommand } from "../verbs.ts";

/** One command path with the options it accepts, as the shells need it. */
export interface CompletionEntry {
  path: string[];
  description: string;
  /** Sub-commands when this is a group. */
  children: { name: string; description: string }[];
  options: { name: string; description: string; takesValue: boolean; values?: string[] }[];
}

/**
 * Walks the same command tree the CLI dispatches on (loading every verb, which is fine for
 * a one-off completion script), so completions can never drift from the real flags.
 */
export async function completionModel(): Promise<CompletionEntry[]> {
  const out: CompletionEntry[] = [];
  const visit = async (path: string[], description: string, command: GjcCommand) => {
    const children = isGroup(command) ? Object.entries(command.subCommands) : [];
    out.push({
      path,
      description,
      children: children.map(([name, child]) => ({ name, description: child.meta.description })),
      options: [
        { name: "help", description: "Show help", takesValue: false },
        ...(isGroup(command) ? [] : optionsOf(command.args)),
      ],
    });
    for (const [name, child] of children)
      await visit([...path, name], child.meta.description, await resolveEntry(child));
  };
  await visit([], "gjc", gjc);
  out[0].options.push({ name: "version", description: "Print the version", takesValue: false });
  return out;
}

function optionsOf(args: ArgsDef): CompletionEntry["options"] {
  return Object.entries(args)
    .filter(([, a]) => a.type !== "positional")
    .map(([name, a]) => ({
      name,
      description: a.description ?? "",
      takesValue: a.type !== "boolean",
      ...(a.type === "enum" ? { values: (a as { options: string[] }).options } : {}),
    }));
}
