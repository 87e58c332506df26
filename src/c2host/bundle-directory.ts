import type { Context } from "../core/context.ts";
import type { InstalledC2 } from "../c2store/records.ts";

/**
 * What the runtime host needs to know about one installed C2 bundle: the store's facts
 * (project data lives under `projects/<hash>` inside `dataDir`), and what the host derives.
 */
export type HostedBundle = Pick<
  InstalledC2,
  "id" | "name" | "version" | "bundleDir" | "dataDir" | "enabled" | "trusted" | "manifest"
> & {
  quarantine?: { reason: string; files: string[] } | null;
  /** Host variables the user passed to this plugin by name (`gjc plugin trust --pass-env`). */
  passEnv?: readonly string[];
  /** Changes whenever the installed record changes (upgrade, trust, enable). */
  revision?: string;
  /**
   * Trusted, but an upgrade changed its process-relevant capabilities (src/families/c2/trust.ts):
   * nothing of it starts until `gjc plugin trust` again. `summary` says what changed.
   */
  trustOutdated?: { summary: string };
};

export interface RealmPolicy {
  state: "enabled" | "disabled";
  /** default | user | project | bundle-disabled | safe-mode */
  stateSource: string;
  config: unknown;
  components: Record<string, "enabled" | "disabled">;
}

/**
 * The installed bundles and their policy, as the runtime host reads them. Production reads
 * the C2 store (src/c2store) afresh on every call, so a long-running host sees trust, enable
 * and policy changes made by other gjc processes; tests may supply their own.
 */
export interface BundleDirectory {
  list(): HostedBundle[];
  policy(bundle: HostedBundle, projectPath?: string): RealmPolicy;
  normalizeProject(path: string): string;
  projectHash(normalizedPath: string): Promise<string>;
  /**
   * Before a process of the bundle starts: its installed files are still what was installed,
   * or this throws `runtime_mismatch` (and quarantines it). Directories without installed
   * records (tests that hand in their own bundles) leave it out.
   */
  checkFiles?(bundle: HostedBundle): Promise<void>;
}

/** The C2 store as a BundleDirectory (loaded lazily so `--help` never pays for it). */
export async function storeDirectory(ctx: Context): Promise<BundleDirectory> {
  const [
    { listInstalledC2 },
    { effectivePolicy },
    { normalizeProjectPath, projectHash },
    { checkC2FilesBeforeStart },
    { trustChangeSummary },
  ] = await Promise.all([
    import("../c2store/records.ts"),
    import("../c2store/policy.ts"),
    import("../c2store/project-key.ts"),
    import("../c2store/check-before-start.ts"),
    import("../families/capability-diff.ts"),
  ]);
  return {
    list: () =>
      listInstalledC2(ctx).map((b) => ({
        id: b.id,
        name: b.name,
        version: b.version,
        bundleDir: b.bundleDir,
        dataDir: b.dataDir,
        enabled: b.enabled,
        trusted: b.trusted,
        manifest: b.manifest,
        quarantine: b.quarantine,
        passEnv: b.passEnv,
        revision: `${b.updatedAt}|${b.version}|${b.trusted}|${b.enabled}|${b.trustState}`,
        ...(b.trustState === "needs-retrust" ? { trustOutdated: { summary: trustChangeSummary(b.record) } } : {}),
      })),
    policy: (bundle, projectPath) => {
      const p = effectivePolicy(ctx, bundle.id, projectPath);
      return { state: p.state, stateSource: p.stateSource, config: p.config, components: p.components };
    },
    normalizeProject: (path) => normalizeProjectPath(ctx, path),
    projectHash,
    checkFiles: async (bundle) => {
      await checkC2FilesBeforeStart(ctx, bundle.id);
    },
  };
}
