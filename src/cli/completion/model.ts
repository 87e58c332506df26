import type { ArgsDef } from "citty";
import { commandTree, type VerbNode } from "../verbs.ts";

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
  const visit = async (path: string[], node: VerbNode) => {
    const entry: CompletionEntry = {
      path,
      description: node.description,
      children: Object.entries(node.children ?? {}).map(([name, child]) => ({ name, description: child.description })),
      options: [{ name: "help", description: "Show help", takesValue: false }],
    };
    if (node.load) {
      const def = await node.load();
      entry.options.push(...optionsOf(def.args));
    }
    out.push(entry);
    for (const [name, child] of Object.entries(node.children ?? {})) await visit([...path, name], child);
  };
  await visit([], { description: "gjc", children: commandTree });
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
