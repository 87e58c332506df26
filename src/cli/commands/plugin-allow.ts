import { allowGrants, type GrantProcess } from "../../app/grant-verbs.ts";
import { usageError } from "../../core/errors.ts";
import { defineVerb, familyArg, jsonArg } from "../define-verb.ts";
import { describeAllow } from "../render/grants.ts";

/** At most one of --server, --runtime, --lsp. */
function selectedProcess(args: { server?: string; runtime?: boolean; lsp?: string }): GrantProcess | undefined {
  const picked = [args.server !== undefined, args.runtime === true, args.lsp !== undefined].filter(Boolean).length;
  if (picked > 1)
    throw usageError(
      "Give at most one of --server, --runtime and --lsp.",
      "A grant applies to one process, or to every process of the bundle when none is given.",
      "invalid_option_value",
    );
  if (args.server !== undefined) return { kind: "server", id: args.server };
  if (args.lsp !== undefined) return { kind: "lsp", id: args.lsp };
  return args.runtime ? { kind: "runtime" } : undefined;
}

export default defineVerb({
  name: "plugin allow",
  description: "Let a bundle's sandboxed processes read, write or connect beyond the default profile",
  schema: "gjc/allow@1",
  repeatable: ["read", "write", "net"],
  args: {
    name: { type: "positional", description: "Installed bundle name", required: true },
    server: { type: "string", description: "Only this stdio MCP server of the bundle", valueHint: "id" },
    runtime: { type: "boolean", description: "Only the bundle's C2 runtime" },
    lsp: { type: "string", description: "Only this C2 language server", valueHint: "id" },
    read: { type: "string", description: "A file or directory the process may read (repeatable)", valueHint: "path" },
    write: {
      type: "string",
      description: "A file or directory the process may read and write (repeatable)",
      valueHint: "path",
    },
    net: {
      type: "string",
      description: "A host it may open TCP connections to, any port or one (repeatable; IPv6 in brackets)",
      valueHint: "host[:port]",
    },
    project: {
      type: "string",
      description: "Access to the project directory the process runs for",
      valueHint: "read|write",
    },
    reset: { type: "boolean", description: "Take back the grants (of the process, or of the whole bundle)" },
    force: {
      type: "boolean",
      description: "Allow a grant of the whole home, / or a sensitive path (~/.ssh, ~/.gjc, …)",
    },
    user: { type: "boolean", description: "The bundle in the user scope (when the name is in both)" },
    scope: {
      type: "enum",
      options: ["user", "project"],
      description: "Which scope's bundle, when the name is installed in both",
      valueHint: "user|project",
    },
    "dry-run": { type: "boolean", description: "Show what would be granted; change nothing" },
    ...familyArg,
    ...jsonArg,
  },
  examples: [
    "gjc plugin allow weather --net api.weather.example:443",
    "gjc plugin allow notes --server notes --write ~/notes",
    "gjc plugin allow linter --lsp eslint --project read",
    "gjc plugin allow weather --reset",
  ],
  async run({ args, repeated, ctx }) {
    const scope = args.user ? "user" : args.scope;
    const r = await allowGrants(
      ctx,
      args.name,
      { user: scope === "user", project: scope === "project", family: args.family },
      {
        read: repeated.read,
        write: repeated.write,
        net: repeated.net,
        project: args.project,
        process: selectedProcess(args),
        reset: args.reset,
        force: args.force,
        dryRun: args["dry-run"],
      },
    );
    for (const w of r.warnings) if (args.json) ctx.log.warn(w.message);
    return { json: { schema: "gjc/allow@1", ok: true, ...r }, human: describeAllow(ctx, r) };
  },
});
