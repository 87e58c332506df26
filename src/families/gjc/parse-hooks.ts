import type { DiagnosticSink } from "../../core/diagnostics.ts";
import { didYouMean } from "../../core/suggest.ts";
import { HOOK_EVENT_PREFIXES, HOOK_EVENTS, HOOK_KEYS, PHASED_EVENTS } from "./constants.ts";
import {
  checkEntryKeys,
  checkSafeName,
  describeValue,
  isPlainObject,
  optionalSha256,
  optionalString,
  quote,
  requiredString,
} from "./fields.ts";
import type { GjcHookEntry, Located } from "./manifest-types.ts";

const CLAUDE_ENTRY_KEYS = ["matcher", "hooks", "source"];

/** A Claude Code hook entry carries one of these (`in`: inherited keys count too). */
const hasClaudeEntryKey = (raw: Record<string, unknown>): boolean => CLAUDE_ENTRY_KEYS.some((key) => key in raw);
const CANONICAL_SHAPE = "{ name, event, target?, phase?, path, sha256? }";
export const LOOSE_HOOKS_HINT = `Declare each hook as ${CANONICAL_SHAPE} (event "tool_call" with a target and phase "before", "tool_result" with phase "after", or a session event), or keep unconstrained hooks as loose .gjc/hooks/pre/<tool>.ts and .gjc/hooks/post/<tool>.ts files.`;

/** A Claude Code `hooks` map (event → matcher groups) in place of the array. */
export function reportClaudeHooksMap(sink: DiagnosticSink, value: unknown, at: string): void {
  const shape = isPlainObject(value)
    ? "; this looks like a Claude Code plugin.json hooks map (event → matcher groups), which a GJC bundle cannot carry"
    : `, not ${describeValue(value)}`;
  sink.error("invalid_manifest", at, `"hooks" must be an array of ${CANONICAL_SHAPE}${shape}.`, LOOSE_HOOKS_HINT);
}

/**
 * `hooks`: constrained hooks bound to one declared event. `tool_call` runs before a named
 * tool, `tool_result` after one; other events take neither phase nor need a target.
 */
export function parseHooks(sink: DiagnosticSink, value: unknown[], at: string): Located<GjcHookEntry>[] {
  const out: Located<GjcHookEntry>[] = [];
  for (const [i, raw] of value.entries()) {
    const here = `${at}/${i}`;
    const entry = parseHookEntry(sink, raw, `hooks[${i}]`, here);
    if (entry) out.push({ at: here, entry });
  }
  return out;
}

/** One entry of `hooks`, every rule checked and reported; undefined when it is refused. */
export function parseHookEntry(
  sink: DiagnosticSink,
  raw: unknown,
  label: string,
  here: string,
): GjcHookEntry | undefined {
  if (!isPlainObject(raw)) {
    sink.error("invalid_manifest", here, `${label} must be an object ${CANONICAL_SHAPE}, not ${describeValue(raw)}.`);
    return undefined;
  }
  if (hasClaudeEntryKey(raw)) {
    sink.error(
      "invalid_manifest",
      here,
      `${label} looks like a Claude Code plugin.json hook entry ({ matcher, hooks, source }), which a GJC bundle cannot carry.`,
      LOOSE_HOOKS_HINT,
    );
    return undefined;
  }
  const before = sink.items.length;
  checkEntryKeys(sink, raw, HOOK_KEYS, label, here);
  const name = checkSafeName(sink, requiredString(sink, raw, "name", label, here), `${label}.name`, `${here}/name`);
  const event = checkSafeName(sink, requiredString(sink, raw, "event", label, here), `${label}.event`, `${here}/event`);
  const target = checkSafeName(
    sink,
    optionalString(sink, raw, "target", label, here),
    `${label}.target`,
    `${here}/target`,
  );
  const path = requiredString(sink, raw, "path", label, here);
  const sha256 = optionalSha256(sink, raw, label, here);
  let phase: "before" | "after" | undefined;
  if (raw.phase !== undefined) {
    if (raw.phase === "before" || raw.phase === "after") phase = raw.phase;
    else
      sink.error(
        "invalid_manifest",
        `${here}/phase`,
        `${label}.phase must be "before" or "after", not ${typeof raw.phase === "string" ? quote(raw.phase) : describeValue(raw.phase)}.`,
      );
  }
  if (sink.items.length !== before || name === undefined || event === undefined || path === undefined) return undefined;

  const who = `Hook ${quote(name)}`;
  const wanted = PHASED_EVENTS[event];
  const known =
    (HOOK_EVENTS as readonly string[]).includes(event) || HOOK_EVENT_PREFIXES.some((p) => event.startsWith(p));
  const warnUnknown = () =>
    sink.warning(
      "unknown_hook_event",
      `${here}/event`,
      `${who} binds to ${quote(event)}, an event the GJC runtime is not known to emit; it may never fire.${didYouMean(event, HOOK_EVENTS)}`,
      `Known events: ${HOOK_EVENTS.join(", ")}, and the ${HOOK_EVENT_PREFIXES.map((p) => `${p}*`).join(", ")} families.`,
    );
  if (wanted === undefined && phase !== undefined) {
    sink.error(
      "invalid_hook",
      `${here}/phase`,
      `${who}: a phase only applies to tool_call and tool_result events, not ${quote(event)}.${known ? "" : didYouMean(event, HOOK_EVENTS)}`,
      "Remove the phase.",
    );
  } else if (wanted !== undefined) {
    if (event === "tool_call" && target === undefined) {
      sink.error(
        "invalid_hook",
        here,
        `${who}: tool_call requires a target (the tool the hook watches).`,
        'Add "target": "<tool name>", for example "read".',
      );
    }
    if (phase !== wanted) {
      sink.error(
        "invalid_hook",
        `${here}/phase`,
        `${who}: ${event} requires the "${wanted}" phase${phase === undefined ? "" : `, not "${phase}"`}.`,
        `Set "phase": "${wanted}".`,
      );
    }
  }
  if (sink.items.length !== before) return undefined;
  // A warning only, and after the checks above: it does not make the entry invalid.
  if (!known) warnUnknown();
  return {
    name,
    event,
    ...(target !== undefined && { target }),
    ...(phase !== undefined && { phase }),
    path,
    ...(sha256 !== undefined && { sha256 }),
  } as GjcHookEntry;
}
