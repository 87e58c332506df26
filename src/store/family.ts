/**
 * The one family interface the store verbs branch through. Each family supplies an adapter
 * (src/install/family.ts for GJC, src/c2store/family.ts for C2) for what really differs: its
 * layout, its record format, how it plans a bundle. The use cases (src/app/) never test
 * the family themselves.
 */
import type { Context } from "../core/context.ts";
import type { FetchedSource } from "../sources/types.ts";
import type { SignaturePolicy } from "../signing/check.ts";
import type {
  BundleRow,
  DoctorFinding,
  DoctorStore,
  EnablementResult,
  Family,
  ForeignBundle,
  InspectBundle,
  InstallResult,
  Scope,
  StoreProblem,
  UninstallResult,
  VerifiedBundle,
} from "./documents.ts";

export interface FamilyAdapter {
  family: Family;
  /** The scopes this family installs into (C2 bundles are user-wide). */
  scopes: readonly Scope[];
  /** The manifest file that marks a fetched root as this family's (detect). */
  manifest: string;
  /** Plans the fetched bundle (the pipeline validate runs) and commits it into `scope`. */
  /** `expectIntegrity`: the content integrity the bundle must have (`install --integrity`), else nothing is written. */
  install(
    ctx: Context,
    fetched: FetchedSource,
    opts: { scope: Scope; force?: boolean; dryRun?: boolean; expectIntegrity?: string } & SignaturePolicy,
  ): Promise<InstallResult>;
  /** Whether `name` is installed in `scope`; a scope that cannot be read says so in `problem`. */
  holds(ctx: Context, name: string, scope: Scope): Promise<{ found: boolean; problem?: Error }>;
  /** `foreign`: bundles another program installed in this family's store (shown, never acted on). */
  list(
    ctx: Context,
    scope: Scope,
  ): Promise<{ bundles: BundleRow[]; problems: StoreProblem[]; foreign?: ForeignBundle[] }>;
  inspect(ctx: Context, name: string, scope: Scope): Promise<InspectBundle | { foreign: ForeignBundle }>;
  uninstall(
    ctx: Context,
    name: string,
    scope: Scope,
    opts: { dryRun?: boolean; keepData?: boolean },
  ): Promise<UninstallResult>;
  setEnabled(ctx: Context, name: string, scope: Scope, enabled: boolean, surface?: string): Promise<EnablementResult>;
  upgrade(
    ctx: Context,
    name: string,
    scope: Scope,
    opts: { dryRun?: boolean } & SignaturePolicy,
  ): Promise<InstallResult>;
  verify(ctx: Context, scope: Scope, name?: string): Promise<{ bundles: VerifiedBundle[]; problems: StoreProblem[] }>;
  /** `adopt` (GJC, with fix): sign a scope an older gjc wrote for this user (src/store/state-mac.ts). */
  doctor(
    ctx: Context,
    scope: Scope,
    fix: boolean,
    opts?: { adopt?: boolean },
  ): Promise<{ store: DoctorStore; findings: DoctorFinding[] }>;
}
