import { flattenControlChars } from "../bundle/names.ts";
import type { Scope } from "../install/registry-types.ts";
import type { SessionDiagnostic } from "./diagnostics.ts";
import { attr, escapeAttr, truncate, utf8Bytes } from "./escape.ts";
import {
  ADVERT_ATTR_MAX_CHARS,
  ADVERT_BLOCK_MAX_BYTES,
  ADVERT_DESCRIPTION_MAX_CHARS,
  ADVERT_MAX_ITEMS,
} from "./limits.ts";

/** Metadata of one active sub-skill: all a Tier-1 advertisement may show (never its body). */
export interface SubskillInfo {
  extensionId: string;
  scope: Scope;
  plugin: string;
  name: string;
  parent: string;
  phase: string;
  activationArg: string;
  description: string;
  /** Sub-skill-scoped tool modules, handed to the host for this sub-skill's phase (never advertised). */
  tools: { path: string; module: string; sha256: string }[];
}

export interface Advertisement {
  parent: string;
  kind: "skill" | "agent";
  /** The block for the parent's prompt; "" when nothing is bound to it. */
  text: string;
  advertised: string[];
  omitted: string[];
  diagnostics: SessionDiagnostic[];
}

const CLOSE = "</gjc-plugin-subskill-advertisement>";

function itemLine(s: SubskillInfo): { line: string; descriptionCut: boolean } {
  const description = truncate(flattenControlChars(s.description), ADVERT_DESCRIPTION_MAX_CHARS);
  const line = `  - plugin="${attr(s.plugin, ADVERT_ATTR_MAX_CHARS)}" name="${attr(s.name, ADVERT_ATTR_MAX_CHARS)}" activation_arg="${attr(s.activationArg, ADVERT_ATTR_MAX_CHARS)}" phase="${attr(s.phase, ADVERT_ATTR_MAX_CHARS)}": ${escapeAttr(description.text)}`;
  return { line, descriptionCut: description.truncated };
}

const overflowLine = (k: number) =>
  `  - ${k} additional plugin sub-skill(s) omitted; invoke explicitly with a known activation arg.`;
const availableLine = (n: number) =>
  `  - ${n} plugin sub-skill(s) available; invoke explicitly with a known activation arg.`;

/**
 * The Tier-1 list of sub-skills bound to one parent (and phase, when given): at most 12
 * items, descriptions cut to 200 characters, the whole block within 4 KiB including the
 * overflow line. Items that do not fit are named in diagnostics.
 */
export function buildAdvertisement(
  all: SubskillInfo[],
  parent: string,
  kind: "skill" | "agent",
  phase?: string,
): Advertisement {
  const items = all.filter((s) => s.parent === parent && (phase === undefined || s.phase === phase));
  const result: Advertisement = { parent, kind, text: "", advertised: [], omitted: [], diagnostics: [] };
  if (items.length === 0) return result;
  const open = `<gjc-plugin-subskill-advertisement parent="${attr(parent, ADVERT_ATTR_MAX_CHARS)}" kind="${kind}">`;
  const blockOf = (lines: string[]) => `${open}\n${lines.join("\n")}\n${CLOSE}`;
  const lines: string[] = [];
  for (let i = 0; i < items.length && i < ADVERT_MAX_ITEMS; i++) {
    const { line, descriptionCut } = itemLine(items[i]);
    const remaining = items.length - (i + 1);
    const probe = blockOf(remaining > 0 ? [...lines, line, overflowLine(remaining)] : [...lines, line]);
    if (utf8Bytes(probe) > ADVERT_BLOCK_MAX_BYTES) break;
    lines.push(line);
    result.advertised.push(items[i].extensionId);
    if (descriptionCut) {
      result.diagnostics.push({
        scope: items[i].scope,
        bundle: items[i].plugin,
        surfaceId: items[i].extensionId,
        code: "advertisement_description_truncated",
        severity: "warning",
        message: `The description of ${items[i].extensionId} was cut to ${ADVERT_DESCRIPTION_MAX_CHARS} characters in the ${parent} advertisement.`,
      });
    }
  }
  const omittedItems = items.slice(result.advertised.length);
  result.omitted = omittedItems.map((s) => s.extensionId);
  if (lines.length === 0) lines.push(availableLine(items.length));
  else if (omittedItems.length > 0) lines.push(overflowLine(omittedItems.length));
  for (const s of omittedItems) {
    const why =
      result.advertised.length >= ADVERT_MAX_ITEMS
        ? `at most ${ADVERT_MAX_ITEMS} sub-skills are advertised`
        : `the block would exceed ${ADVERT_BLOCK_MAX_BYTES} bytes`;
    result.diagnostics.push({
      scope: s.scope,
      bundle: s.plugin,
      surfaceId: s.extensionId,
      code: "advertisement_overflow",
      severity: "warning",
      message: `${s.extensionId} is not listed in the ${parent} advertisement (${why}); it can still be activated with --${s.activationArg}.`,
    });
  }
  result.text = blockOf(lines);
  return result;
}
