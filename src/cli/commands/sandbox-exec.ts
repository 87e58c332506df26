import type { ExitCodeValue } from "../../core/exit-codes.ts";
import { startSandboxed } from "../../app/sandbox-exec.ts";
import { defineVerb } from "../define-verb.ts";

/** Signals a host sends to stop a server: passed on to the whole sandboxed tree. */
const FORWARDED = ["SIGTERM", "SIGINT", "SIGHUP"] as const;

export default defineVerb({
  name: "sandbox exec",
  description:
    "Run a command in an installed bundle's sandbox, with gjc's standard streams (what session plans hand to hosts)",
  schema: "gjc/sandbox-exec@1",
  args: {
    bundle: {
      type: "string",
      description: "The installed bundle whose sandbox profile applies",
      valueHint: "name",
      required: true,
    },
    server: { type: "string", description: "The process is this MCP server of the bundle", valueHint: "id" },
    runtime: { type: "boolean", description: "The process is the bundle's C2 runtime" },
    lsp: { type: "string", description: "The process is this language server of the bundle", valueHint: "id" },
    project: {
      type: "string",
      description: "The bundle is in this project's scope (default: the user scope)",
      valueHint: "dir",
    },
  },
  rest: "command",
  examples: ["gjc sandbox exec --bundle docs-bundle --server docs -- node server.mjs"],
  async run({ args, rest, ctx }) {
    const run = await startSandboxed(ctx, {
      bundle: args.bundle,
      server: args.server,
      runtime: args.runtime,
      lsp: args.lsp,
      project: args.project,
      command: rest,
    });
    const stop = () => void run.child.stop(2000);
    for (const s of FORWARDED) process.on(s, stop);
    const status = await run.status;
    for (const s of FORWARDED) process.off(s, stop);
    // The command's own status is the result (as with env(1) or exec): its output was its own.
    return {
      json: { schema: "gjc/sandbox-exec@1", ok: status === 0, status },
      human: "",
      exit: status as ExitCodeValue,
    };
  },
});
