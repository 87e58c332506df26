import { requireScope } from "../../install/install-command.ts";
import { defineVerb, jsonArg, scopeArgs } from "../define-verb.ts";

export default defineVerb({
  name: "plugin lock",
  description: "Write the scope's plugins.lock.json from what is installed; --check compares (exit 1 on a difference)",
  schema: "gjc/lock@1",
  args: {
    ...scopeArgs,
    check: { type: "boolean", description: "Compare the lock with the installed state (files included); change nothing; exit 1 when they differ" },
    ...jsonArg,
  },
  examples: ["gjc plugin lock --project", "gjc plugin lock --project --check"],
  async run({ args, ctx }) {
    const scope = requireScope(args, "gjc plugin lock");
    const { describeLockCheck, describeLockWrite } = await import("../render/sets.ts");
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
