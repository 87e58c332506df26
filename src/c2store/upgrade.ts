/**
 * `gjc plugin upgrade <name>` for C2: fetch the recorded source again (the same location and
 * ref; a moved branch gives its new commit) and install it over the old one. The identity is
 * the same, so the installed id, `enabled`, `trusted` and the policy stay.
 */
import type { Context } from "../core/context.ts";
import { specFromRecord, type SourceRecord } from "../sources/index.ts";
import { installC2FromCatalog } from "./catalog-install.ts";
import { withFetchedC2 } from "./fetch.ts";
import { installFetched, type C2InstallResult } from "./install.ts";
import { c2Layout } from "./paths.ts";
import { requireRecord } from "./records.ts";

const RECORD_KIND = { local: "path", archive: "tarball", git: "git", github: "github" } as const;

export async function upgradeC2(
  ctx: Context,
  name: string,
  opts: { dryRun?: boolean; requireSigned?: boolean; acceptSigner?: boolean } = {},
): Promise<C2InstallResult> {
  const record = requireRecord(c2Layout(ctx), name);
  const source = record.source;
  if (source.catalog) {
    return installC2FromCatalog(ctx, {
      entryName: source.catalog.entry,
      catalogPath: source.catalog.path,
      force: true,
      dryRun: opts.dryRun,
      expectId: record.id,
      requireSigned: opts.requireSigned,
      acceptSigner: opts.acceptSigner,
    });
  }
  const spec = specFromRecord({ kind: RECORD_KIND[source.kind], ...source.resolved } as SourceRecord);
  const { withReleaseLog } = await import("../store/release-log-hook.ts");
  return withFetchedC2(ctx, spec, (fetched) =>
    withReleaseLog(ctx, fetched, opts.dryRun, () =>
      installFetched(ctx, {
        fetched,
        force: true,
        dryRun: opts.dryRun,
        expectId: record.id,
        requireSigned: opts.requireSigned,
        acceptSigner: opts.acceptSigner,
      }),
    ),
  );
}
