/**
 * Where the install and upgrade pipelines of both families meet release logs (sync and lock
 * meet them in src/sets/release-log-hook.ts). This module is loaded on every install, so it
 * decides cheaply whether a log is involved (a directory there, a source remembered as logged)
 * and loads the checks only then.
 */
import { join } from "node:path";
import type { Context } from "../core/context.ts";
import { GjcError } from "../core/errors.ts";
import { ExitCode } from "../core/exit-codes.ts";
import type { InstallResult } from "./documents.ts";
import { hasReleaseLog, LOG_DIR } from "../tlog/layout.ts";
import { readReleaseLogState, rememberVerified } from "./release-log-state.ts";
import type { CheckedRelease } from "./release-log-check.ts";

type SignatureText = { text: string; label: string };

/**
 * The install pipeline's hook: each release log of the source (`gjc-log/` at the fetched bundle
 * root, and for catalog entries the one beside the catalog) must hold the release, checked
 * before `install` runs so a refusal writes nothing; the verified heads and proofs are
 * remembered after a real install, with the source, which may then not drop its log.
 */
export async function withReleaseLog<T extends InstallResult>(
  ctx: Context,
  source: { dir: string; identity: string; record: { kind: string; uri?: string }; signature?: SignatureText },
  dryRun: boolean | undefined,
  install: () => Promise<T>,
  otherLogDirs: readonly string[] = [],
): Promise<T> {
  const logDirs = [...otherLogDirs, join(source.dir, LOG_DIR)].filter(hasReleaseLog);
  if (logDirs.length === 0) {
    const origin = readReleaseLogState(ctx).sources[source.identity];
    if (origin !== undefined) throw logDropped(source.identity, origin);
    return install();
  }
  const [
    { judgeBundle },
    { checkRelease, holdSourceSigner },
    { readReleaseLog },
    { claimedSigner },
    { locateSignature },
  ] = await Promise.all([
    import("./bundle-digest.ts"),
    import("./release-log-check.ts"),
    import("../tlog/log-dir.ts"),
    import("../signing/check.ts"),
    import("../signing/locate.ts"),
  ]);
  const judged = await judgeBundle(source.dir);
  const release = { name: judged.name, version: judged.version, digest: judged.integrity };
  const checked = logDirs.map((d) => checkRelease(ctx, readReleaseLog(d), release));
  // The line names who signed the release; these bytes must carry that key's signature (which
  // the install verifies before it writes), or none when the line says "-".
  const signature = locateSignature(source);
  const signer = signature ? claimedSigner(judged.name, signature) : undefined;
  for (const c of checked) holdSourceSigner(release, c, signer);
  const result = await install();
  // The document (and the source's memory) names the first log: the catalog's, when there is one.
  const [first] = checked;
  if (!dryRun)
    rememberVerified(
      ctx,
      checked.map((c) => c.head),
      checked.map((c) => ({ digest: c.digest, evidence: c.evidence })),
      { identity: source.identity, origin: first.head.origin },
    );
  return {
    ...result,
    releaseLog: {
      origin: first.head.origin,
      size: first.head.size,
      index: first.evidence.index,
      firstSeen: first.firstSeen,
    },
  };
}

function logDropped(identity: string, origin: string): GjcError {
  return new GjcError({
    code: "log_missing",
    message: `This source came with the release log ${origin} before, and now has none (${identity}). Nothing was written.`,
    hint: "A source that publishes a release log keeps it: a log that disappears hides what was published. Ask the publisher why it is gone. If they really stopped publishing one, removing ~/.gjc/release-logs.json makes gjc forget every log it has seen (the next checkpoint of each is then believed on first use).",
    details: { identity, origin },
    exit: ExitCode.refused,
  });
}
