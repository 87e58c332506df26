import { codePoints, plainTextProblem, SAFE_ID_PATTERN } from "../families/c2/rules.ts";

/** One validated `host.actions` item, defaults filled in. */
export interface HostActionItem {
  id: string;
  label: string;
  detail: string;
  state: "default" | "running" | "attention" | "failure";
  enabled: boolean;
  input: Record<string, unknown> | null;
  accessibilityLabel: string;
}

export const MAX_HOST_ACTIONS = 8;
export const MAX_ACTION_INPUT_BYTES = 4096;
const ITEM_KEYS = new Set(["id", "label", "detail", "state", "enabled", "input", "accessibilityLabel"]);
const STATES = new Set(["default", "running", "attention", "failure"]);
const SAFE_ID = new RegExp(SAFE_ID_PATTERN);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Validates a `host.actions` render document (c2-notes §6.6, seed "host.actions"). Any problem
 * rejects the whole document, so a host renders nothing rather than a partial or unsafe list:
 * the document is exactly `{items}`, at most 8 items with fixed keys, unique safe ids, bounded
 * plain text (no markup, no control characters or line breaks), a known state, and
 * object-or-null input of at most 4 KiB of JSON.
 */
export function validateHostActions(
  doc: unknown,
): { ok: true; items: HostActionItem[] } | { ok: false; problem: string } {
  const fail = (problem: string) => ({ ok: false as const, problem });
  if (!isObject(doc)) return fail("the document is not a JSON object");
  const extra = Object.keys(doc).filter((k) => k !== "items");
  if (extra.length > 0) return fail(`the document has unknown fields: ${extra.join(", ")}`);
  if (!Array.isArray(doc.items)) return fail("the document has no `items` array");
  if (doc.items.length > MAX_HOST_ACTIONS)
    return fail(`the document has ${doc.items.length} items; at most ${MAX_HOST_ACTIONS} are allowed`);
  const seen = new Set<string>();
  const items: HostActionItem[] = [];
  for (const [i, raw] of doc.items.entries()) {
    const at = `items[${i}]`;
    if (!isObject(raw)) return fail(`${at} is not an object`);
    const unknown = Object.keys(raw).filter((k) => !ITEM_KEYS.has(k));
    if (unknown.length > 0) return fail(`${at} has unknown fields: ${unknown.join(", ")}`);
    if (typeof raw.id !== "string" || !SAFE_ID.test(raw.id))
      return fail(`${at} needs a safe id (letters, digits, _ and -, at most 128)`);
    if (seen.has(raw.id)) return fail(`${at} repeats the id ${raw.id}`);
    seen.add(raw.id);
    if (typeof raw.label !== "string" || raw.label.trim() === "" || codePoints(raw.label.trim()) > 80)
      return fail(`${at} needs a label of 1 to 80 characters`);
    if (raw.detail !== undefined && (typeof raw.detail !== "string" || codePoints(raw.detail) > 80))
      return fail(`${at} has a detail that is not a string of at most 80 characters`);
    if (raw.state !== undefined && (typeof raw.state !== "string" || !STATES.has(raw.state)))
      return fail(`${at} has an unknown state (default, running, attention or failure)`);
    if (raw.enabled !== undefined && typeof raw.enabled !== "boolean") return fail(`${at} has a non-boolean enabled`);
    if (
      raw.accessibilityLabel !== undefined &&
      (typeof raw.accessibilityLabel !== "string" || codePoints(raw.accessibilityLabel) > 160)
    ) {
      return fail(`${at} has an accessibilityLabel that is not a string of at most 160 characters`);
    }
    for (const field of ["label", "detail", "accessibilityLabel"] as const) {
      const problem = typeof raw[field] === "string" ? plainTextProblem(raw[field] as string) : undefined;
      if (problem) return fail(`${at}.${field} ${problem}; the host chooses the markup`);
    }
    const input = raw.input === undefined ? null : raw.input;
    if (input !== null && !isObject(input)) return fail(`${at} has an input that is neither an object nor null`);
    if (input !== null && Buffer.byteLength(JSON.stringify(input), "utf8") > MAX_ACTION_INPUT_BYTES)
      return fail(`${at} has an input larger than 4 KiB`);
    const label = raw.label.trim();
    items.push({
      id: raw.id,
      label,
      detail: (raw.detail as string | undefined) ?? "",
      state: (raw.state as HostActionItem["state"] | undefined) ?? "default",
      enabled: (raw.enabled as boolean | undefined) ?? true,
      input,
      accessibilityLabel: (raw.accessibilityLabel as string | undefined) ?? label,
    });
  }
  return { ok: true, items };
}
