export { jsonOption, timeoutOption } from "../options.ts";

export const projectArg = {
  project: { type: "string", description: "Run in this project's realm (project-capable runtimes)", valueHint: "dir" },
} as const;

export function pretty(value: unknown): string {
  return JSON.stringify(value, null, 2) ?? "null";
}
