import { resolve } from "node:path";
import type { Context } from "../core/context.ts";
import { GjcError, usageError } from "../core/errors.ts";
import { ExitCode } from "../core/exit-codes.ts";
import { ROLE_AGENTS, WORKFLOW_PHASES } from "../families/gjc/constants.ts";
import { splitFrontmatter } from "../families/gjc/frontmatter.ts";
import type { Scope } from "../install/registry-types.ts";
import { loadSession, type SessionBundle, type SessionSurface } from "./load.ts";
import { initialPhase } from "./phases.ts";
import { subskillBlock } from "./subskill-block.ts";
import { isSubskill, subskillToolsOf, type StoredSubskill, type SubskillTool } from "./surfaces.ts";

export interface ActivationOptions {
  skill: string;
  /** The invocation's arguments; each is also split on whitespace. */
  args: string[];
  project?: string;
  /** The skill's current phase (default: its initial phase). */
  phase?: string;
}

export interface ActivatedSubskill {
  scope: Scope;
  plugin: string;
  surfaceId: string;
  name: string;
  parent: string;
  phase: string;
  activationArg: string;
  /** SHA-256 of the verified SKILL.md the body came from. */
  sha256: string;
  block: string;
  /** Its sub-skill-scoped tool modules: the host loads them while this sub-skill's phase is active. */
  tools: SubskillTool[];
}

export interface ActivationResult {
  skill: string;
  phase: string;
  /** The flag that was consumed (`--design`), or null when none named a sub-skill. */
  consumed: string | null;
  /** The invocation's tokens without the consumed flag. */
  args: string[];
  cleanedArgs: string;
  /** The sub-skill of the invoked skill that the flag named. */
  activation: ActivatedSubskill | null;
  /** Every binding of the same bundle with the same activation arg, across parents (the host persists these). */
  pack: ActivatedSubskill[];
  /** What to inject into the skill's prompt now (its block when the phase matches), or "". */
  inject: string;
}

interface Binding {
  bundle: SessionBundle;
  surface: SessionSurface;
  sub: StoredSubskill;
}

function bindingsOf(bundles: SessionBundle[]): Binding[] {
  const out: Binding[] = [];
  for (const bundle of bundles)
    for (const surface of bundle.surfaces)
      if (isSubskill(surface.surface)) out.push({ bundle, surface, sub: surface.surface });
  return out;
}

const isActive = (b: Binding) => b.bundle.status === "active" && b.surface.status === "active";

/** Why a binding cannot activate, as the error the invocation fails with. */
function refusal(b: Binding, flag: string): GjcError {
  const { entry } = b.bundle;
  const scopeFlag = entry.scope === "user" ? "--user" : "--project";
  const where = `sub-skill ${b.sub.extensionId} of ${entry.name} (${entry.scope})`;
  if (b.bundle.status === "disabled" || b.surface.status === "disabled") {
    return new GjcError({
      code: "surface_disabled",
      message: `${flag} names ${where}, which is disabled; it was not activated.`,
      hint:
        b.bundle.status === "disabled"
          ? `Enable the bundle with gjc plugin enable ${entry.name} ${scopeFlag}.`
          : `Enable it with gjc plugin enable ${entry.name} ${scopeFlag} --surface ${b.sub.extensionId}.`,
      details: { surfaceId: b.sub.extensionId, bundle: entry.name, scope: entry.scope },
      exit: ExitCode.failed,
    });
  }
  if (b.bundle.status === "excluded") {
    return new GjcError({
      code: "session_collision",
      message: `${flag} names ${where}, which is left out of this session: it collides with ${b.bundle.collision?.with.join(", ") ?? "an active bundle"} (${b.bundle.reasons
        .map((r) => r.message)
        .slice(0, 3)
        .join("; ")}); it was not activated.`,
      hint: `Disable or uninstall one of the two bundles (gjc plugin disable ${entry.name} ${scopeFlag}).`,
      details: {
        surfaceId: b.sub.extensionId,
        bundle: entry.name,
        scope: entry.scope,
        collision: b.bundle.collision,
        reasons: b.bundle.reasons,
      },
      exit: ExitCode.refused,
    });
  }
  const reasons = b.bundle.status === "quarantined" ? b.bundle.reasons : b.surface.reasons;
  return new GjcError({
    code: "quarantined",
    message: `${flag} names ${where}, which is quarantined (${reasons
      .map((r) => `${r.code}: ${r.message}`)
      .slice(0, 3)
      .join("; ")}); it was not activated.`,
    hint: `Run "gjc plugin verify ${entry.name}" after restoring the files, or reinstall the bundle with gjc plugin install <source> ${scopeFlag} --force.`,
    details: { surfaceId: b.sub.extensionId, bundle: entry.name, scope: entry.scope, reasons },
    exit: ExitCode.refused,
  });
}

function activated(b: Binding): ActivatedSubskill {
  const bytes = b.bundle.texts.get(b.sub.path);
  if (!bytes) {
    throw new GjcError({
      code: "runtime_mismatch",
      message: `The verified text of ${b.sub.extensionId} is not available.`,
      hint: `Run "gjc plugin verify ${b.bundle.entry.name}".`,
      exit: ExitCode.refused,
    });
  }
  const { body } = splitFrontmatter(new TextDecoder().decode(bytes));
  const { entry } = b.bundle;
  return {
    scope: entry.scope,
    plugin: entry.name,
    surfaceId: b.sub.extensionId,
    name: b.sub.name,
    parent: b.sub.parent,
    phase: b.sub.phase,
    activationArg: b.sub.activation_arg,
    sha256: b.sub.sha256,
    block: subskillBlock({
      plugin: entry.name,
      name: b.sub.name,
      parent: b.sub.parent,
      phase: b.sub.phase,
      arg: b.sub.activation_arg,
      body,
    }),
    tools: subskillToolsOf(entry, b.sub),
  };
}

/**
 * Tier-2 activation through the registry (gjc-notes §6.8, with the registry gate the reference
 * lacked): the first `--<arg>` token (no `=`) that names a sub-skill bound to the invoked skill
 * is consumed; only an enabled, verified, unquarantined bundle and surface activates, and a
 * flag naming one that is not fails instead of passing silently. The activation pack is every
 * binding of that bundle with the same arg, across parents.
 */
export async function activateSkill(ctx: Context, options: ActivationOptions): Promise<ActivationResult> {
  const skill = options.skill;
  // Only the protected parents have sub-skills: any other name is a mistake, never an empty activation.
  if (!Object.hasOwn(WORKFLOW_PHASES, skill) && !(ROLE_AGENTS as readonly string[]).includes(skill)) {
    throw usageError(
      `"${skill}" is not a skill or agent that sub-skills bind to.`,
      `Use one of: ${[...Object.keys(WORKFLOW_PHASES), ...ROLE_AGENTS].join(", ")}.`,
      "invalid_parent",
    );
  }
  const phases = WORKFLOW_PHASES[skill] ?? [];
  const phase = options.phase ?? initialPhase(skill);
  if (options.phase !== undefined && Object.hasOwn(WORKFLOW_PHASES, skill) && !phases.includes(phase)) {
    throw usageError(`"${phase}" is not a phase of ${skill}.`, `Use one of: ${phases.join(", ")}.`, "invalid_phase");
  }
  const tokens = options.args.flatMap((a) => a.split(/\s+/)).filter((t) => t !== "");
  const result: ActivationResult = {
    skill,
    phase,
    consumed: null,
    args: tokens,
    cleanedArgs: tokens.join(" "),
    activation: null,
    pack: [],
    inject: "",
  };

  const state = await loadSession(ctx, { projectDir: resolve(ctx.cwd, options.project ?? ".") });
  const bound = bindingsOf(state.bundles).filter((b) => b.sub.parent === skill);
  if (bound.length === 0) return result;

  for (const [i, token] of tokens.entries()) {
    if (!token.startsWith("--") || token.includes("=")) continue;
    const arg = token.slice(2);
    const named = bound.filter((b) => b.sub.activation_arg === arg);
    if (named.length === 0) continue;
    const direct = named.find(isActive);
    if (!direct) throw refusal(named[0], token);
    const pack = bindingsOf(state.bundles)
      .filter((b) => b.bundle === direct.bundle && b.sub.activation_arg === arg && isActive(b))
      .map(activated);
    const activation = pack.find((p) => p.surfaceId === direct.sub.extensionId) ?? activated(direct);
    const rest = tokens.filter((_, j) => j !== i);
    return {
      ...result,
      consumed: token,
      args: rest,
      cleanedArgs: rest.join(" "),
      activation,
      pack,
      inject: pack.find((p) => p.parent === skill && p.phase === phase)?.block ?? "",
    };
  }
  return result;
}
