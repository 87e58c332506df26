import type { DiagnosticSink } from "../../core/diagnostics.ts";
import { AGENT_APPENDIX_KEYS, APPENDIX_MAX_BYTES, ROLE_AGENTS, SYSTEM_APPENDIX_KEYS } from "./constants.ts";
import {
  checkEntryKeys,
  checkSafeName,
  describeValue,
  isPlainObject,
  optionalSha256,
  quote,
  requiredString,
} from "./fields.ts";
import type { GjcAgentAppendixEntry, GjcAppendixEntry, Located } from "./manifest-types.ts";

/**
 * `system_appendix` and `agent-appendix`: lower-authority text from exactly one of a file
 * (`path`) or inline `content`. The per-appendix cap is checked here for inline text and by
 * the compiler for files, so an oversize appendix fails validation instead of silently
 * vanishing from the prompt later.
 */
export function parseAppendices(
  sink: DiagnosticSink,
  value: unknown[],
  at: string,
  key: "system_appendix",
): Located<GjcAppendixEntry>[];
export function parseAppendices(
  sink: DiagnosticSink,
  value: unknown[],
  at: string,
  key: "agent-appendix",
): Located<GjcAgentAppendixEntry>[];
export function parseAppendices(
  sink: DiagnosticSink,
  value: unknown[],
  at: string,
  key: "system_appendix" | "agent-appendix",
): Located<GjcAppendixEntry>[] {
  const out: Located<GjcAppendixEntry>[] = [];
  const isAgent = key === "agent-appendix";
  for (let i = 0; i < value.length; i++) {
    const raw = value[i];
    const label = `${key}[${i}]`;
    const here = `${at}/${i}`;
    if (!isPlainObject(raw)) {
      sink.error(
        "invalid_manifest",
        here,
        `${label} must be an object { ${isAgent ? "agent, " : ""}name, path | content, sha256? }, not ${describeValue(raw)}.`,
      );
      continue;
    }
    const before = sink.items.length;
    checkEntryKeys(sink, raw, isAgent ? AGENT_APPENDIX_KEYS : SYSTEM_APPENDIX_KEYS, label, here);
    let agent: string | undefined;
    if (isAgent) {
      agent = requiredString(sink, raw, "agent", label, here);
      if (agent !== undefined && !(ROLE_AGENTS as readonly string[]).includes(agent)) {
        sink.error(
          "invalid_parent",
          `${here}/agent`,
          `${label}.agent is ${quote(agent)}; an agent appendix extends one of ${ROLE_AGENTS.join(", ")}.`,
          "Bundles may only extend the four role agents.",
        );
        agent = undefined;
      }
    }
    const name = checkSafeName(sink, requiredString(sink, raw, "name", label, here), `${label}.name`, `${here}/name`);
    const sha256 = optionalSha256(sink, raw, label, here);
    const hasPath = raw.path !== undefined;
    const hasContent = raw.content !== undefined;
    // The entry's name for messages, built only when something is reported.
    const who = () => `${key} ${quote(isAgent ? `${String(raw.agent)}/${String(raw.name)}` : String(raw.name))}`;
    let path: string | undefined;
    let content: string | undefined;
    if (hasPath === hasContent) {
      sink.error(
        "invalid_appendix",
        here,
        `${who()} must have exactly one of "path" or "content"${hasPath ? ", not both" : ""}.`,
        'Point "path" at a Markdown file in the bundle, or put the text in "content".',
      );
    } else if (hasPath) {
      path = requiredString(sink, raw, "path", label, here);
    } else if (typeof raw.content !== "string") {
      sink.error(
        "invalid_manifest",
        `${here}/content`,
        `${label}.content must be a string, not ${describeValue(raw.content)}.`,
      );
    } else if (raw.content.trim() === "") {
      sink.error(
        "invalid_appendix",
        `${here}/content`,
        `${who()} has empty content.`,
        "Write the appendix text, or remove the entry.",
      );
    } else if (Buffer.byteLength(raw.content) > APPENDIX_MAX_BYTES) {
      sink.error(
        "invalid_appendix",
        `${here}/content`,
        `${who()} is ${Buffer.byteLength(raw.content)} bytes; one appendix may hold at most ${APPENDIX_MAX_BYTES} bytes (8 KiB).`,
        "Shorten the text; an oversize appendix would be dropped from the prompt.",
      );
    } else {
      content = raw.content;
    }
    if (sink.items.length !== before || name === undefined || (path === undefined && content === undefined)) continue;
    const entry = {
      ...(agent !== undefined && { agent }),
      name,
      ...(path !== undefined && { path }),
      ...(content !== undefined && { content }),
      ...(sha256 !== undefined && { sha256 }),
    } as GjcAgentAppendixEntry;
    out.push({ at: here, entry });
  }
  return out;
}
