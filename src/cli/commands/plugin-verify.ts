import { verifyGjc } from "../../install/verify-scopes.ts";
import { defineVerb, jsonArg } from "../define-verb.ts";

export default defineVerb({
  name: "plugin verify",
  description: "Re-hash every installed file; drift quarantines the bundle (exit 3), a clean check clears it",
  schema: "gjc/verify@1",
  args: {
    name: { type: "positional", description: "Only this bundle (default: all)", required: false },
    ...jsonArg,
  },
  examples: ["gjc plugin verify", "gjc plugin verify my-bundle --json"],
  async run({ args, ctx }) {
    const r = await verifyGjc(ctx, args.name);
    const lines: string[] = [];
    for (const b of r.bundles) {
      if (b.ok) lines.push(`ok          ${b.name} ${b.version} [${b.scope}] (${b.checked} files)${b.change === "cleared" ? " — quarantine cleared" : ""}`);
      else {
        lines.push(`quarantined ${b.name} ${b.version} [${b.scope}]: ${b.problems.length} problem${b.problems.length === 1 ? "" : "s"} (runtime_mismatch)`);
        for (const p of b.problems.slice(0, 20)) lines.push(`  ${p.message}`);
        if (b.problems.length > 20) lines.push(`  …and ${b.problems.length - 20} more`);
      }
    }
    for (const c of r.corrupt) lines.push(`damaged     ${c.scope} registry ${c.path}: ${c.problem} — run "gjc plugin doctor --fix"`);
    if (r.bundles.length === 0 && r.corrupt.length === 0) lines.push("No GJC bundles installed.");
    if (!r.ok) lines.push("Reinstall a quarantined bundle (gjc plugin install <source> --user|--project) to repair it.");
    return { json: { schema: "gjc/verify@1", ...r }, human: lines.join("\n"), exit: r.ok ? 0 : 3 };
  },
});
