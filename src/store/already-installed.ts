/**
 * The one rule for installing over what is already installed, for both families: the same
 * content is a no-op (or a repair of a damaged copy); other content from the same source is an
 * update, which a plain install refuses (--force or `gjc plugin upgrade` replace it); the same
 * name held by another source is refused too, unless --force replaces it. The refusal,
 * `already_installed`, is decided and worded here only.
 */
import { GjcError } from "../core/errors.ts";
import { ExitCode } from "../core/exit-codes.ts";
import type { Scope } from "./documents.ts";

/** What an install is over what it found: the family decides which, by its own content check. */
export type InstallAction = "install" | "unchanged" | "repair" | "update";

/** What holds the place an install wants, as the refusal names it. */
export type Occupant =
  | {
      family: "gjc";
      held: "other-content";
      name: string;
      scope: Scope;
      installedVersion: string;
      candidateVersion: string;
    }
  | {
      family: "c2";
      held: "other-content";
      name: string;
      id: string;
      installedVersion?: string;
      candidateVersion: string;
    }
  | {
      family: "c2";
      held: "other-source";
      name: string;
      installedId: string;
      installedSource: string;
      candidateSource: string;
    };

/**
 * Throws `already_installed` when the install would replace other content (`update`) or
 * another source's bundle (`other-source`) and the caller has not allowed it (--force, or an
 * upgrade against its baseline). `occupant` is asked only when refusing.
 */
export function assertMayReplace(
  action: InstallAction | "other-source",
  allowed: boolean,
  occupant: () => Occupant,
): void {
  if ((action === "update" || action === "other-source") && !allowed) throw alreadyInstalled(occupant());
}

function alreadyInstalled(o: Occupant): GjcError {
  const exit = ExitCode.failed;
  const code = "already_installed";
  if (o.family === "gjc") {
    return new GjcError({
      code,
      message: `${o.name} ${o.installedVersion} is already installed in the ${o.scope} scope with different content (new: ${o.candidateVersion}).`,
      hint: `Pass --force to replace it (its enabled state and per-surface choices are kept), or run "gjc plugin upgrade ${o.name} ${o.scope === "user" ? "--user" : "--project"}" to update it from its recorded source.`,
      details: { name: o.name, installedVersion: o.installedVersion, candidateVersion: o.candidateVersion },
      exit,
    });
  }
  if (o.held === "other-source") {
    return new GjcError({
      code,
      message: `A C2 bundle named ${o.name} is already installed from ${o.installedSource} (${o.installedId}); ${o.candidateSource} is another source.`,
      hint: `Add --force to replace it with this source (its trust and policy do not carry over), or uninstall ${o.installedId} first.`,
      details: {
        name: o.name,
        installedId: o.installedId,
        installedSource: o.installedSource,
        candidateSource: o.candidateSource,
      },
      exit,
    });
  }
  return new GjcError({
    code,
    message: `${o.name} is already installed from this source (${o.id}${o.installedVersion !== undefined ? `, version ${o.installedVersion}` : ""}) with different content.`,
    hint: "Add --force to replace it (enabled/trusted are kept), or run gjc plugin upgrade.",
    details: { name: o.name, id: o.id, installedVersion: o.installedVersion, candidateVersion: o.candidateVersion },
    exit,
  });
}
