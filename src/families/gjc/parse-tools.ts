import type { DiagnosticSink } from "../../core/diagnostics.ts";
import { TOOL_KEYS } from "./constants.ts";
import {
  checkEntryKeys,
  checkProse,
  checkSafeName,
  describeValue,
  isPlainObject,
  optionalSha256,
  optionalString,
  requiredString,
} from "./fields.ts";
import type { GjcToolEntry, Located } from "./manifest-types.ts";

/**
 * `tools`: an object is an always-on tool whose manifest name is authoritative; a string is
 * the legacy shorthand for a sub-skill-scoped tool module path (no surface of its own).
 */
export function parseTools(sink: DiagnosticSink, value: unknown[], at: string): Located<GjcToolEntry | string>[] {
  const out: Located<GjcToolEntry | string>[] = [];
  for (const [i, raw] of value.entries()) {
    const here = `${at}/${i}`;
    if (typeof raw === "string") {
      if (raw.trim() === "")
        sink.error(
          "invalid_manifest",
          here,
          `tools[${i}] is an empty path.`,
          "Write the bundle-relative path of the tool module, or remove the entry.",
        );
      else out.push({ at: here, entry: raw });
      continue;
    }
    const entry = parseToolEntry(sink, raw, `tools[${i}]`, here);
    if (entry) out.push({ at: here, entry });
  }
  return out;
}

/** One object entry of `tools`, every rule checked and reported; undefined when it is refused. */
export function parseToolEntry(
  sink: DiagnosticSink,
  raw: unknown,
  label: string,
  here: string,
): GjcToolEntry | undefined {
  if (!isPlainObject(raw)) {
    sink.error(
      "invalid_manifest",
      here,
      `${label} must be an object { name, path, description?, sha256? } or a tool path string, not ${describeValue(raw)}.`,
    );
    return undefined;
  }
  const before = sink.items.length;
  checkEntryKeys(sink, raw, TOOL_KEYS, label, here);
  const name = checkSafeName(sink, requiredString(sink, raw, "name", label, here), `${label}.name`, `${here}/name`);
  const path = requiredString(sink, raw, "path", label, here);
  const description = checkProse(
    sink,
    optionalString(sink, raw, "description", label, here),
    `${label}.description`,
    `${here}/description`,
  );
  const sha256 = optionalSha256(sink, raw, label, here);
  if (sink.items.length !== before || name === undefined || path === undefined) return undefined;
  return { name, path, ...(description !== undefined && { description }), ...(sha256 !== undefined && { sha256 }) };
}

/** The name of a string tool: its file name without the last extension (`tools/a.ts` → `a`). */
export function scopedToolName(path: string): string {
  const base = path.slice(path.lastIndexOf("/") + 1);
  const dot = base.lastIndexOf(".");
  return dot > 0 ? base.slice(0, dot) : base;
}
