import type { LogAppendResult, LogInitResult, LogMonitorResult, LogVerifyResult } from "../../sets/release-log.ts";
import type { TreeHeadSummary } from "../../tlog/errors.ts";

const head = (c: TreeHeadSummary) => `${c.size} release${c.size === 1 ? "" : "s"}, root ${c.root}`;

export function describeLogInit(r: LogInitResult): string {
  return [
    `Made the release log ${r.origin} in ${r.dir} (${head(r.checkpoint)}).`,
    `  note key:  ${r.key}`,
    `  signer:    ${r.keyFile}${r.keyCreated ? " (new; keep it private and backed up: without it the log cannot grow)" : ""}`,
    "Publish the directory with your bundle or catalog; add releases with gjc plugin log append.",
  ].join("\n");
}

export function describeLogAppend(r: LogAppendResult): string {
  const rel = `${r.release.name} ${r.release.version} (${r.release.digest}${r.release.signer ? `, signed by ${r.release.signer}` : ""})`;
  if (r.status === "unchanged")
    return `${rel} is already release ${r.release.index + 1} of ${r.origin}; nothing to do.`;
  return `Logged ${rel} as release ${r.release.index + 1} of ${r.origin}; new checkpoint: ${head(r.checkpoint)}.`;
}

export function describeLogVerify(r: LogVerifyResult): string {
  const lines = [`The release log ${r.origin} in ${r.dir} verifies: ${head(r.checkpoint)}, signed by ${r.key}.`];
  lines.push(
    r.remembered
      ? `  It extends the checkpoint this gjc remembers (${head(r.remembered)}).`
      : "  This gjc remembers no checkpoint of this log yet.",
  );
  if (r.against) lines.push(`  It extends the checkpoint given with --against (${head(r.against)}).`);
  return lines.join("\n");
}

export function describeLogMonitor(r: LogMonitorResult): string {
  const keys = r.keys.length ? `one of ${r.keys.join(", ")}` : "a key given with --key";
  if (r.releases.length === 0) return `Every release of ${r.origin} (${head(r.checkpoint)}) is signed by ${keys}.`;
  const lines = [
    `${r.releases.length} release${r.releases.length === 1 ? "" : "s"} of ${r.origin} not signed by ${keys}:`,
  ];
  for (const x of r.releases)
    lines.push(
      `  ${x.index + 1}. ${x.name} ${x.version} ${x.digest} ${x.signer ? `signed by ${x.signer}` : "unsigned"}`,
    );
  return lines.join("\n");
}
