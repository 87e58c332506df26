import { formatBytes } from "../../bundle/collect.ts";
import type { GjcInstallResult } from "../../install/install.ts";
import { installFromSpec } from "../../install/install-command.ts";
import { defineVerb, jsonArg, scopeArgs } from "../define-verb.ts";
import { describeCapabilityDiff } from "../render/capability-diff.ts";

export function describeInstall(r: GjcInstallResult, verb = "install"): string {
  const where = `the ${r.scope} scope`;
  const head: Record<GjcInstallResult["status"], string> = {
    installed: `Installed ${r.name} ${r.version} into ${where} (${r.files} files, ${formatBytes(r.bytes)}).`,
    updated: `Updated ${r.name} ${r.previousVersion} -> ${r.version} in ${where}.`,
    repaired: `Reinstalled ${r.name} ${r.version} in ${where}: the installed copy was damaged or quarantined and is whole again.`,
    unchanged: `${r.name} ${r.version} is already installed in ${where} with the same content; nothing to do.`,
    "would-install": `[dry-run] Would ${verb} ${r.name} ${r.version} into ${where} (${r.files} files, ${formatBytes(r.bytes)}).`,
    "would-update": `[dry-run] Would update ${r.name} ${r.previousVersion} -> ${r.version} in ${where}.`,
    "would-repair": `[dry-run] Would reinstall ${r.name} ${r.version} in ${where} to repair the installed copy.`,
  };
  const lines = [head[r.status]];
  if (r.previousVersion !== undefined && r.status !== "unchanged") {
    for (const id of r.surfaces.added) lines.push(`  + ${id}`);
    for (const id of r.surfaces.removed) lines.push(`  - ${id}`);
    if (r.surfaces.kept.length) lines.push(`  = ${r.surfaces.kept.length} surface${r.surfaces.kept.length === 1 ? "" : "s"} kept`);
  } else if (r.status !== "unchanged") {
    for (const id of r.surfaces.added) lines.push(`  + ${id}`);
  }
  for (const w of r.warnings) lines.push(`  warning [${w.code}] ${w.path}: ${w.message}`);
  if (r.capabilityDiff) lines.push(...describeCapabilityDiff(r.capabilityDiff));
  return lines.join("\n");
}

export default defineVerb({
  name: "plugin install",
  description: "Install a bundle from a directory, tarball, git URL or GitHub (GJC bundles need --user or --project)",
  schema: "gjc/install@1",
  args: {
    source: { type: "positional", description: "Directory, .tgz/.tar.gz/.tar (local or https://), git URL[#ref], or GitHub owner/repo", required: true },
    ...scopeArgs,
    force: { type: "boolean", description: "Replace an installed bundle of the same name whose content differs" },
    "dry-run": { type: "boolean", description: "Check everything and show what would happen, change nothing" },
    sha256: { type: "string", description: "Archive sources: the SHA-256 the archive must have (checked before anything is written)", valueHint: "hex" },
    catalog: { type: "string", description: "C2: install the entry named <source> from this marketplace.json (or <name>@<catalog>)", valueHint: "marketplace.json" },
    ...jsonArg,
  },
  examples: ["gjc plugin install ./my-bundle --user", "gjc plugin install hello-runtime@./catalog", "gjc plugin install hello-runtime --catalog ./catalog/marketplace.json", "gjc plugin install https://example.com/b.git#v1.2.0 --project", "gjc plugin install ./b.tgz --user --force"],
  async run({ args, ctx }) {
    const outcome = await installFromSpec(ctx, { spec: args.source, user: args.user, project: args.project, force: args.force, dryRun: args["dry-run"], catalog: args.catalog, sha256: args.sha256 });
    if (outcome.family === "c2") {
      const r = outcome.result as { human?: string };
      return { json: { schema: "gjc/install@1", ok: true, family: "c2", ...outcome.result }, human: r.human ?? "Installed." };
    }
    return { json: { schema: "gjc/install@1", ok: true, family: "gjc", ...outcome.result }, human: describeInstall(outcome.result) };
  },
});
