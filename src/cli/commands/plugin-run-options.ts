export { jsonOption, timeoutOption } from "../options.ts";

export const projectArg = {
  project: { type: "string", description: "Run in this project's realm (project-capable runtimes)", valueHint: "dir" },
} as const;
