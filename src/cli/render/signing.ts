import type { DigestResult, SignResult } from "../../authoring/sign.ts";
import type { Style } from "../../core/style.ts";
import type { AddResult, RemoveResult, RevokeResult, SignersList } from "../../signing/signers.ts";

/** Exactly the signed message and nothing else, so it can be piped to ssh-keygen -Y verify. */
export const describeDigest = (r: DigestResult): string => r.message;

export function describeSign(r: SignResult, s: Style): string {
  const lines = [
    `Signed ${r.family === "c2" ? "C2" : "GJC"} bundle ${s.bold(`${r.name} ${r.version}`)} (${r.integrity})`,
    `  ${r.file}`,
    `  key ${r.fingerprint} (${r.keyType}), namespace ${r.namespace}`,
  ];
  if (r.allowedSignersLine)
    lines.push("", "Consumers trust this key with the allowed_signers line:", `  ${r.allowedSignersLine}`);
  return lines.join("\n");
}

export function describeSignersList(r: SignersList, s: Style): string {
  if (r.signers.length === 0 && r.revoked.length === 0 && r.problems.length === 0)
    return "No trusted publishers. Add one with gjc signers add <identity> <key.pub>.";
  const lines: string[] = [];
  for (const row of r.signers) {
    const limits = [
      row.namespaces ? `namespaces ${row.namespaces}` : "",
      row.forNames ? `for ${row.forNames}` : "",
      row.validAfter ? `after ${row.validAfter}` : "",
      row.validBefore ? `before ${row.validBefore}` : "",
    ].filter((x) => x !== "");
    const state = row.revoked ? s.red(" revoked") : row.unusable ? s.yellow(` unusable: ${row.unusable}`) : "";
    lines.push(
      `${s.bold(row.identity)} ${row.fingerprint ?? "?"} ${row.keyType ?? ""} [${row.scope}]${limits.length ? ` ${s.dim(limits.join(", "))}` : ""}${state}`,
    );
  }
  for (const k of r.revoked) lines.push(`${s.red("revoked")} ${k.fingerprint} ${k.keyType}`);
  for (const p of r.problems) lines.push(`${s.yellow("!")} ${p.file}:${p.line}: ${p.message}`);
  return lines.join("\n");
}

export function describeSignersAdd(r: AddResult): string {
  return r.status === "unchanged"
    ? `${r.identity} ${r.fingerprint} is already trusted (${r.file}).`
    : `Trusted ${r.identity} ${r.fingerprint}${r.forNames ? ` for ${r.forNames}` : ""} (${r.file}).`;
}

export const describeSignersRemove = (r: RemoveResult): string =>
  r.removed.map((x) => `Removed ${x.identity} ${x.fingerprint ?? ""} from ${r.file}.`).join("\n");

export const describeSignersRevoke = (r: RevokeResult): string =>
  [
    ...r.revoked.map((k) => `Revoked ${k.fingerprint} (${k.keyType}): bundles signed by it are refused from now on.`),
    ...(r.removed > 0 ? [`Removed ${r.removed} line(s) from your allowed_signers.`] : []),
  ].join("\n");
