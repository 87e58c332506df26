import { usageError } from "../core/errors.ts";
import type { Scope } from "./documents.ts";

/** What `--user`, `--project` and `--family` select; nothing given means every store. */
export interface StoreSelection {
  user?: boolean;
  project?: boolean;
  family?: string;
}

/** `--user` XOR `--project` → the scope, or undefined when neither was given. */
export function scopeFromFlags(sel: StoreSelection): Scope | undefined {
  selectedScopes(sel);
  return sel.user ? "user" : sel.project ? "project" : undefined;
}

/** The scope a command that acts on exactly one needs. */
export function requireScope(sel: StoreSelection, what: string): Scope {
  const scope = scopeFromFlags(sel);
  if (!scope) {
    throw usageError(
      `${what} needs exactly one of --user or --project.`,
      "--user acts on ~/.gjc/agent/gjc-plugins (or GJC_USER_DIR); --project on .gjc/gjc-plugins of the current directory.",
      "scope_required",
    );
  }
  return scope;
}

/** The scopes the flags select (both when none is given); both flags at once is a usage error. */
export function selectedScopes(sel: StoreSelection): Scope[] {
  if (sel.user && sel.project)
    throw usageError(
      "Give either --user or --project, not both.",
      "A bundle lives in exactly one scope per command.",
      "scope_conflict",
    );
  return sel.user ? ["user"] : sel.project ? ["project"] : ["user", "project"];
}
