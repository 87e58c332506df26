/**
 * `gjc plugin outdated`: per installed bundle, the installed pin and the newest available.
 *   git / GitHub   the head of the recorded branch (`git ls-remote` through the sources layer's
 *                  hardened git runner); when the recorded ref is a tag, the highest semver tag
 *   catalog (C2)   the catalog entry's version
 *   archive, path  not checkable (an archive has no "newer"; a directory is read as it is)
 * Reading only. A source that cannot be reached is reported per bundle, never a failure of the
 * whole check; "updates exist" is never an error (exit 0 unless the caller asks, --exit-code).
 */
import type { Context } from "../core/context.ts";
import type { Scope } from "../install/registry-types.ts";
import { installedBundles, type InstalledBundle } from "./installed.ts";
import { reasonOf, type SetReason } from "../core/reason.ts";

export type OutdatedStatus = "current" | "outdated" | "not-checkable" | "unreachable";

export interface OutdatedRow {
  name: string;
  family: "gjc" | "c2";
  scope: Scope;
  source: string;
  installed: { version: string; commit?: string; ref?: string };
  latest?: { commit?: string; tag?: string; version?: string };
  status: OutdatedStatus;
  /** Why the bundle is not-checkable or unreachable; empty for current and outdated. */
  reasons: SetReason[];
}

export interface OutdatedResult {
  rows: OutdatedRow[];
  outdated: number;
}

const GIT_TIMEOUT_MS = 60_000;

async function lsRemote(ctx: Context, url: string, patterns: string[]): Promise<{ sha: string; ref: string }[]> {
  const { runGit } = await import("../sources/run-git.ts");
  const out = await runGit(ctx, ["ls-remote", "--", url, ...patterns], {
    cwd: ctx.home,
    timeoutMs: GIT_TIMEOUT_MS,
    action: `ls-remote of ${url}`,
    maxStdoutBytes: 16 * 1024 * 1024,
  });
  return out.stdout
    .split("\n")
    .filter((l) => l.includes("\t"))
    .map((l) => {
      const [sha, ref] = l.split("\t");
      return { sha: sha.toLowerCase(), ref };
    });
}

/** The highest semver tag (a leading `v` allowed), or undefined. Peeled `^{}` lines name the commit a tag points at. */
function highestTag(refs: { sha: string; ref: string }[]): { tag: string; sha: string } | undefined {
  const tags = new Map<string, string>();
  for (const r of refs) {
    if (!r.ref.startsWith("refs/tags/")) continue;
    const name = r.ref.slice("refs/tags/".length);
    if (name.endsWith("^{}")) tags.set(name.slice(0, -3), r.sha);
    else if (!tags.has(name)) tags.set(name, r.sha);
  }
  let best: { tag: string; sha: string } | undefined;
  for (const [tag, sha] of tags) {
    const v = tag.replace(/^v/, "");
    if (!/^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/.test(v)) continue;
    if (!best || Bun.semver.order(v, best.tag.replace(/^v/, "")) > 0) best = { tag, sha };
  }
  return best;
}

async function checkGit(ctx: Context, b: InstalledBundle, row: OutdatedRow): Promise<void> {
  const s = b.entry.source;
  const url = s.kind === "github" ? `https://github.com/${s.repository}.git` : (s.url ?? "");
  const commit = b.entry.pin.commit;
  const ref = s.ref;
  if (ref !== undefined && /^[0-9a-f]{40}$|^[0-9a-f]{64}$/i.test(ref)) {
    row.status = "not-checkable";
    row.reasons = [{ code: "not_checkable", message: "pinned to a commit" }];
    return;
  }
  const refs = await lsRemote(ctx, url, ref === undefined ? ["HEAD"] : [`refs/heads/${ref}`, "refs/tags/*"]);
  const isTag = ref !== undefined && refs.some((r) => r.ref === `refs/tags/${ref}`);
  if (isTag) {
    const best = highestTag(refs);
    row.latest = best ? { tag: best.tag, commit: best.sha } : { tag: ref };
    row.status = best && best.tag !== ref ? "outdated" : "current";
    return;
  }
  const head = refs.find((r) => r.ref === (ref === undefined ? "HEAD" : `refs/heads/${ref}`));
  if (!head) {
    row.status = "unreachable";
    row.reasons = [
      { code: "ref_not_found", message: `the remote has no ${ref === undefined ? "HEAD" : `branch or tag ${ref}`}` },
    ];
    return;
  }
  row.latest = { commit: head.sha };
  row.status = head.sha === commit ? "current" : "outdated";
}

/**
 * The entry's version in the C2 catalog the bundle came from, read as every catalog is (bounded,
 * no links followed, its schema: families/c2/catalog.ts); a catalog that is not one any more
 * makes the row unreachable with its first problem's code.
 */
async function checkCatalog(ctx: Context, b: InstalledBundle, row: OutdatedRow): Promise<void> {
  const cat = b.entry.source.catalog!;
  const [{ resolveCatalogFile }, { parseCatalog, readCatalogFile }] = await Promise.all([
    import("../c2store/catalog-install.ts"),
    import("../families/c2/catalog.ts"),
  ]);
  const read = readCatalogFile(resolveCatalogFile(ctx, cat.path));
  const parsed = read.raw === undefined ? undefined : parseCatalog(read.raw);
  if (!parsed?.catalog) {
    const first = [...read.diagnostics, ...(parsed?.diagnostics ?? [])].find((d) => d.severity === "error");
    row.status = "unreachable";
    row.reasons = [{ code: first?.code ?? "invalid_catalog", message: first?.message ?? "the catalog is not valid" }];
    return;
  }
  const found = parsed.catalog.plugins.find((p) => p.name === cat.entry);
  if (!found) {
    row.status = "unreachable";
    row.reasons = [{ code: "not_in_catalog", message: `the catalog no longer lists ${cat.entry} (as a valid entry)` }];
    return;
  }
  row.latest = { version: found.version };
  row.status = Bun.semver.order(found.version, b.entry.version) > 0 ? "outdated" : "current";
}

function sourceLabel(b: InstalledBundle): string {
  const s = b.entry.source;
  if (s.catalog) return `catalog ${s.catalog.path} (${s.catalog.entry})`;
  return `${s.kind} ${s.url ?? s.repository ?? s.path ?? ""}${s.ref !== undefined ? `#${s.ref}` : ""}`;
}

export async function outdated(ctx: Context, scopes: Scope[]): Promise<OutdatedResult> {
  const rows: OutdatedRow[] = [];
  for (const scope of scopes) {
    for (const b of await installedBundles(ctx, scope)) {
      const row: OutdatedRow = {
        name: b.entry.name,
        family: b.entry.family,
        scope,
        source: sourceLabel(b),
        installed: {
          version: b.entry.version,
          ...(b.entry.pin.commit ? { commit: b.entry.pin.commit } : {}),
          ...(b.entry.source.ref !== undefined ? { ref: b.entry.source.ref } : {}),
        },
        status: "not-checkable",
        reasons: [],
      };
      try {
        if (b.entry.source.catalog) await checkCatalog(ctx, b, row);
        else if (b.entry.source.kind === "git" || b.entry.source.kind === "github") await checkGit(ctx, b, row);
        else
          row.reasons = [
            {
              code: "not_checkable",
              message:
                b.entry.source.kind === "tarball"
                  ? "an archive has no newer version to ask for"
                  : "a local directory is read as it is",
            },
          ];
      } catch (error) {
        row.status = "unreachable";
        row.reasons = [reasonOf(error)];
      }
      rows.push(row);
    }
  }
  return { rows, outdated: rows.filter((r) => r.status === "outdated").length };
}
