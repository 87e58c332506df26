import { doctorGjc } from "../../install/doctor.ts";
import { defineVerb, jsonArg } from "../define-verb.ts";

export default defineVerb({
  name: "plugin doctor",
  description: "Find leftovers, stale locks, damaged registries and missing bundle directories; --fix repairs what is safe",
  schema: "gjc/doctor@1",
  args: {
    fix: { type: "boolean", description: "Repair: take over stale locks, restore the last good registry, remove leftovers" },
    ...jsonArg,
  },
  examples: ["gjc plugin doctor", "gjc plugin doctor --fix"],
  async run({ args, ctx }) {
    const r = await doctorGjc(ctx, { fix: args.fix });
    const lines: string[] = [];
    for (const s of r.scopes) {
      lines.push(`${s.scope} scope ${s.root}: ${!s.exists ? "not created yet" : `registry ${s.registry}, ${s.bundles} bundle${s.bundles === 1 ? "" : "s"}`}`);
      for (const f of r.findings.filter((x) => x.scope === s.scope)) {
        const tag = f.fixed ? "fixed" : f.severity;
        lines.push(`  ${tag.padEnd(7)} ${f.message} (${f.path})`);
        if (!f.fixed) lines.push(`          ${r.fix || !f.fixable ? "" : "--fix would "}${f.fix}`);
      }
    }
    lines.push(r.ok ? "No problems found." : r.fix ? "Some problems need you (see above)." : 'Run "gjc plugin doctor --fix" to repair what can be repaired safely.');
    return { json: { schema: "gjc/doctor@1", ...r }, human: lines.join("\n"), exit: r.ok ? 0 : 1 };
  },
});
