import { usageError } from "../../core/errors.ts";
import { requireScope } from "../../store/resolve.ts";
import { defineVerb, jsonArg, scopeArgs } from "../define-verb.ts";

export default defineVerb({
  name: "plugin lock",
  description:
    "Write the scope's plugins.lock.json from what is installed; --check compares (exit 1 on a difference); --export writes a deterministic set archive",
  schema: "gjc/lock@1",
  args: {
    ...scopeArgs,
    export: {
      type: "string",
      description: "Write the lock and the content of every entry as one deterministic .tgz (for sync --from)",
      valueHint: "set.tgz",
    },
    check: {
      type: "boolean",
      description:
        "Compare the lock with the installed state (files included); change nothing; exit 1 when they differ",
    },
    ...jsonArg,
  },
  examples: [
    "gjc plugin lock --project",
    "gjc plugin lock --project --check",
    "gjc plugin lock --project --export team-set.tgz",
  ],
  async run({ args, ctx }) {
    const scope = requireScope(args, "gjc plugin lock");
    const { describeExport, describeLockCheck, describeLockWrite } = await import("../render/sets.ts");
    if (args.export !== undefined) {
      if (args.check) throw usageError("Give either --check or --export, not both.", "Check first, then export.");
      const { exportSet } = await import("../../sets/set-archive.ts");
      const r = await exportSet(ctx, scope, args.export);
      return { json: { schema: "gjc/lock@1", ok: true, ...r }, human: describeExport(r) };
    }
    if (args.check) {
      const { checkScopeLock } = await import("../../sets/lock.ts");
      const r = await checkScopeLock(ctx, scope);
      return { json: { schema: "gjc/lock@1", ...r }, human: describeLockCheck(r), exit: r.ok ? 0 : 1 };
    }
    const { writeScopeLock } = await import("../../sets/lock.ts");
    const r = await writeScopeLock(ctx, scope);
    return { json: { schema: "gjc/lock@1", ok: true, ...r }, human: describeLockWrite(r) };
  },
});
