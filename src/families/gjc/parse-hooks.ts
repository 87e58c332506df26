import type { DiagnosticSink } from "../../core/diagnostics.ts";
import { didYouMean } from "../../core/suggest.ts";
import { HOOK_EVENTS, HOOK_KEYS, PHASED_EVENTS, SAFE_NAME, SHA256_HEX } from "./constants.ts";
import { checkEntryKeys, checkSafeName, describeValue, isPlainObject, optionalSha256, optionalString, quote, requiredString } from "./fields.ts";
import type { GjcHookEntry, Located } from "./manifest-types.ts";

const CLAUDE_ENTRY_KEYS = ["matcher", "hooks", "source"];

/** A Claude Code hook entry carries one of these (`in`, as before: inherited keys count too). */
function hasClaudeEntryKey(raw: Record<string, unknown>): boolean {
  for (let i = 0; i < CLAUDE_ENTRY_KEYS.length; i++) if (CLAUDE_ENTRY_KEYS[i] in raw) return true;
  return false;
}
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
  for (let i = 0; i < value.length; i++) {
    const raw = value[i];
    const here = `${at}/${i}`;
    // The usual entry, a well-formed hook, is taken here in one pass without the per-field
    // helpers (called once per entry, they got JIT-compiled during a single validate run).
    // It accepts a subset of what parseHookEntry accepts and builds the same entry (tested);
    // anything else goes through parseHookEntry, which reports every problem.
    if (typeof raw === "object" && raw !== null && !Array.isArray(raw) && Object.getPrototypeOf(raw) === Object.prototype) {
      const { name, event, target, phase, path, sha256 } = raw as Record<string, unknown>;
      const present =
        (name !== undefined ? 1 : 0) + (event !== undefined ? 1 : 0) + (target !== undefined ? 1 : 0) +
        (phase !== undefined ? 1 : 0) + (path !== undefined ? 1 : 0) + (sha256 !== undefined ? 1 : 0);
      if (
        typeof name === "string" && SAFE_NAME.test(name) &&
        typeof event === "string" && SAFE_NAME.test(event) && (HOOK_EVENTS as readonly string[]).includes(event) &&
        (target === undefined || (typeof target === "string" && SAFE_NAME.test(target))) &&
        (phase === undefined || phase === "before" || phase === "after") &&
        typeof path === "string" && path.trim() !== "" &&
        (sha256 === undefined || (typeof sha256 === "string" && SHA256_HEX.test(sha256))) &&
        Object.keys(raw).length === present
      ) {
        const wanted = PHASED_EVENTS[event];
        if (wanted === undefined ? phase === undefined : phase === wanted && (event !== "tool_call" || target !== undefined)) {
          const entry = { name, event } as GjcHookEntry;
          if (target !== undefined) entry.target = target as string;
          if (phase !== undefined) entry.phase = phase as "before" | "after";
          entry.path = path;
          if (sha256 !== undefined) entry.sha256 = (sha256 as string).toLowerCase();
          out.push({ at: here, entry });
          continue;
        }
      }
    }
    const entry = parseHookEntry(sink, raw, `hooks[${i}]`, here);
    if (entry) out.push({ at: here, entry });
  }
  return out;
}

/** One entry of `hooks`, every rule checked and reported; undefined when it is refused. */
export function parseHookEntry(sink: DiagnosticSink, raw: unknown, label: string, here: string): GjcHookEntry | undefined {
  if (!isPlainObject(raw)) {
    sink.error("invalid_manifest", here, `${label} must be an object ${CANONICAL_SHAPE}, not ${describeValue(raw)}.`);
    return undefined;
  }
  if (hasClaudeEntryKey(raw)) {
    sink.error("invalid_manifest", here, `${label} looks like a Claude Code plugin.json hook entry ({ matcher, hooks, source }), which a GJC bundle cannot carry.`, LOOSE_HOOKS_HINT);
    return undefined;
  }
  const before = sink.items.length;
  checkEntryKeys(sink, raw, HOOK_KEYS, label, here);
  const name = checkSafeName(sink, requiredString(sink, raw, "name", label, here), `${label}.name`, `${here}/name`);
  const event = checkSafeName(sink, requiredString(sink, raw, "event", label, here), `${label}.event`, `${here}/event`);
  const target = checkSafeName(sink, optionalString(sink, raw, "target", label, here), `${label}.target`, `${here}/target`);
  const path = requiredString(sink, raw, "path", label, here);
  const sha256 = optionalSha256(sink, raw, label, here);
  let phase: "before" | "after" | undefined;
  if (raw.phase !== undefined) {
    if (raw.phase === "before" || raw.phase === "after") phase = raw.phase;
    else sink.error("invalid_manifest", `${here}/phase`, `${label}.phase must be "before" or "after", not ${typeof raw.phase === "string" ? quote(raw.phase) : describeValue(raw.phase)}.`);
  }
  if (sink.items.length !== before || name === undefined || event === undefined || path === undefined) return undefined;

  const who = `Hook ${quote(name)}`;
  const wanted = PHASED_EVENTS[event];
  if (!(HOOK_EVENTS as readonly string[]).includes(event)) {
    sink.error("invalid_hook", `${here}/event`, `${who} binds to the unknown event ${quote(event)}; it would never fire.${didYouMean(event, HOOK_EVENTS)}`, `Use one of: ${HOOK_EVENTS.join(", ")}.`);
  } else if (wanted === undefined && phase !== undefined) {
    sink.error("invalid_hook", `${here}/phase`, `${who}: a phase only applies to tool_call and tool_result events, not ${quote(event)}.`, "Remove the phase.");
  } else if (wanted !== undefined) {
    if (event === "tool_call" && target === undefined) {
      sink.error("invalid_hook", here, `${who}: tool_call requires a target (the tool the hook watches).`, 'Add "target": "<tool name>", for example "read".');
    }
    if (phase !== wanted) {
      sink.error("invalid_hook", `${here}/phase`, `${who}: ${event} requires the "${wanted}" phase${phase === undefined ? "" : `, not "${phase}"`}.`, `Set "phase": "${wanted}".`);
    }
  }
  if (sink.items.length !== before) return undefined;
  // Assignments in key order rather than conditional spreads: each spread runs a
  // JS-implemented builtin (copyDataProperties), and this runs once per hook.
  const entry = { name, event } as GjcHookEntry;
  if (target !== undefined) entry.target = target;
  if (phase !== undefined) entry.phase = phase;
  entry.path = path;
  if (sha256 !== undefined) entry.sha256 = sha256;
  return entry;
}
