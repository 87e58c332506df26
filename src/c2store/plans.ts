/**
 * Stored policy plans: `plugin-plans/<token>.json` beside the policy, so `policy plan` and
 * `policy apply` can be two processes. A plan is single-use: apply claims it by renaming the
 * file away, which only one process can do, and the claimed file is deleted whatever happens
 * next. Plans expire; expired ones are swept on every plan and apply.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Static } from "typebox";
import { writeFileAtomic } from "../bundle/atomic-fs.ts";
import { GjcError } from "../core/errors.ts";
import type { C2Layout } from "./paths.ts";
import { Plan } from "./disk-schemas.generated.ts";
import type * as Schema from "./plan-schema.ts";
import { documentProblem } from "../store/document-problem.ts";
import { ExitCode } from "../core/exit-codes.ts";
import { PLAN_TOKEN_PATTERN } from "./plan-token.ts";
import { parseStateJson } from "../store/state-file.ts";

export const PLAN_TTL_MS = 15 * 60 * 1000;
const TOKEN = new RegExp(PLAN_TOKEN_PATTERN);

export type PlanRequest = Static<typeof Schema.PlanRequest>;
export type StoredPlan = Static<typeof Schema.StoredPlanSchema>;

export function newToken(): string {
  return crypto.randomUUID().replace(/-/g, "");
}

export function isPlanToken(value: string): boolean {
  return TOKEN.test(value);
}

export function savePlan(layout: C2Layout, plan: StoredPlan): void {
  mkdirSync(layout.plans, { recursive: true, mode: 0o700 });
  writeFileAtomic(join(layout.plans, `${plan.token}.json`), `${JSON.stringify(plan, null, 2)}\n`, 0o600);
}

/**
 * Takes a plan out of the store. Missing (never made, already used, or swept after expiry)
 * is one answer: the token cannot be applied.
 */
export function claimPlan(layout: C2Layout, token: string): StoredPlan {
  const path = join(layout.plans, `${token}.json`);
  const claimed = `${path}.claimed-${process.pid}-${crypto.randomUUID().slice(0, 8)}`;
  try {
    renameSync(path, claimed);
  } catch {
    throw new GjcError({
      code: "plan_not_found",
      message: `The policy plan ${token} was not found or was already used.`,
      hint: 'Plans are single-use and expire; run "gjc plugin policy plan …" again.',
      exit: ExitCode.refused,
    });
  }
  try {
    const text = readFileSync(claimed, "utf8");
    const problem = storedPlanProblem(text, token);
    if (problem !== undefined) {
      throw new GjcError({
        code: "stale_plan",
        message: `The policy plan ${token} is damaged and was discarded: ${problem}.`,
        hint: 'Run "gjc plugin policy plan …" again and apply the new token.',
        exit: ExitCode.refused,
      });
    }
    return JSON.parse(text) as StoredPlan;
  } finally {
    rmSync(claimed, { force: true });
    removeDirIfEmpty(layout.plans);
  }
}

/** Why a stored plan's text is not a plan made for `token` (plan-schema.ts), or undefined. */
export function storedPlanProblem(text: string, token: string): string | undefined {
  const json = parseStateJson(text);
  if (!json.ok) return json.problem;
  const value = json.value;
  const problem = documentProblem(Plan, value);
  if (problem !== undefined) return problem;
  return (value as StoredPlan).token === token ? undefined : `it was made for another token (at /token)`;
}

/** Deletes expired plans and claim leftovers of crashed applies. */
export function sweepPlans(layout: C2Layout, now: Date): void {
  let names: string[];
  try {
    names = readdirSync(layout.plans);
  } catch {
    return;
  }
  for (const name of names) {
    const path = join(layout.plans, name);
    if (name.includes(".claimed-")) {
      // A claim is deleted right after it is read; one that survived belongs to a dead apply.
      try {
        if (now.getTime() - statSync(path).mtimeMs > 60_000) rmSync(path, { force: true });
      } catch {}
      continue;
    }
    if (!name.endsWith(".json")) continue;
    try {
      const text = readFileSync(path, "utf8");
      // A plan that is not one can never be applied: swept like an expired one.
      if (storedPlanProblem(text, name.slice(0, -".json".length)) !== undefined) throw new Error("not a plan");
      const plan = JSON.parse(text) as StoredPlan;
      if (Date.parse(plan.expires_at) <= now.getTime()) rmSync(path, { force: true });
    } catch {
      rmSync(path, { force: true });
    }
  }
  removeDirIfEmpty(layout.plans);
}

function removeDirIfEmpty(dir: string): void {
  try {
    if (readdirSync(dir).length === 0) rmdirSync(dir);
  } catch {}
}
