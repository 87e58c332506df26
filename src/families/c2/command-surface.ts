import type { C2Command } from "./types.ts";

/** A declared runtime command as every listing shows it (store/documents.ts CommandSurfaceSchema). */
export interface CommandSurface {
  id: string;
  title: string;
  description: string;
  /** The bundle's JSON Schema for the command's args, verbatim; null when it declares none. */
  argsSchema: unknown;
}

export function commandSurface(commands: readonly (C2Command | CommandSurface)[]): CommandSurface[] {
  return commands.map((c) => ({ id: c.id, title: c.title, description: c.description, argsSchema: c.argsSchema }));
}
