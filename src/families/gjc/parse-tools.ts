import type { DiagnosticSink } from "../../core/diagnostics.ts";
import { TOOL_KEYS } from "./constants.ts";
import { checkEntryKeys, checkProse, checkSafeName, describeValue, isPlainObject, optionalSha256, optionalString, requiredString } from "./fields.ts";
import type { GjcToolEntry, Located } from "./manifest-types.ts";

/**
 * `tools`: an object is an always-on tool whose manifest name is authoritative; a string is
 * the legacy shorthand for a sub-skill-scoped tool module path (no surface of its own).
 */
export function parseTools(sink: DiagnosticSink, value: unknown[], at: string): Located<GjcToolEntry | string>[] {
  const out: Located<GjcToolEntry | string>[] = [];
  for (let i = 0; i < value.length; i++) {
    const raw = value[i];
    const label = `tools[${i}]`;
    const here = `${at}/${i}`;
    if (typeof raw === "string") {
      if (raw.trim() === "") sink.error("invalid_manifest", here, `${label} is an empty path.`, "Write the bundle-relative path of the tool module, or remove the entry.");
      else out.push({ at: here, entry: raw });
      continue;
    }
    if (!isPlainObject(raw)) {
      sink.error("invalid_manifest", here, `${label} must be an object { name, path, description?, sha256? } or a tool path string, not ${describeValue(raw)}.`);
      continue;
    }
    const before = sink.items.length;
    checkEntryKeys(sink, raw, TOOL_KEYS, label, here);
    const name = checkSafeName(sink, requiredString(sink, raw, "name", label, here), `${label}.name`, `${here}/name`);
    const path = requiredString(sink, raw, "path", label, here);
    const description = checkProse(sink, optionalString(sink, raw, "description", label, here), `${label}.description`, `${here}/description`);
    const sha256 = optionalSha256(sink, raw, label, here);
    if (sink.items.length !== before || name === undefined || path === undefined) continue;
    const entry: GjcToolEntry = { name, path };
    if (description !== undefined) entry.description = description;
    if (sha256 !== undefined) entry.sha256 = sha256;
    out.push({ at: here, entry });
  }
  return out;
}

/** The name of a string tool: its file name without the last extension (`tools/a.ts` → `a`). */
export function scopedToolName(path: string): string {
  const base = path.slice(path.lastIndexOf("/") + 1);
  const dot = base.lastIndexOf(".");
  return dot > 0 ? base.slice(0, dot) : base;
}
