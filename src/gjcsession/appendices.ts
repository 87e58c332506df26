import { sha256Hex } from "../bundle/hash.ts";
import type { Scope } from "../install/registry-types.ts";
import type { SessionDiagnostic } from "./diagnostics.ts";
import { attr, escapeBody, utf8Bytes } from "./escape.ts";
import {
  APPENDIX_ATTR_MAX_CHARS,
  APPENDIX_BLOCK_MAX_BYTES,
  APPENDIX_MAX_BLOCKS,
  APPENDIX_TOTAL_MAX_BYTES,
} from "./limits.ts";

/** One appendix of an active bundle, with its text already read from verified bytes. */
export interface AppendixInput {
  extensionId: string;
  scope: Scope;
  plugin: string;
  name: string;
  /** Absent for a system appendix. */
  agent?: string;
  contentHash: string;
  body: string;
}

export interface RenderedAppendices {
  /** System blocks joined by a blank line; "" when there are none. */
  system: string;
  /** Agent blocks per agent name. */
  byAgent: Record<string, string>;
  /** The extension ids that made it into the prompt, in order. */
  included: string[];
  /** SHA-256 over `<id>:<contentHash>` of the included appendices: changes when any text changes. */
  digest: string;
  totalBytes: number;
  diagnostics: SessionDiagnostic[];
}

/** The delimited block of one appendix (body already escaped); lower authority than the prompt it is appended to. */
export function appendixBlock(a: AppendixInput, body = escapeBody(a.body)): string {
  const plugin = attr(a.plugin, APPENDIX_ATTR_MAX_CHARS);
  const name = attr(a.name, APPENDIX_ATTR_MAX_CHARS);
  const sha = attr(a.contentHash, APPENDIX_ATTR_MAX_CHARS);
  if (a.agent === undefined) {
    return `<gjc-plugin-system-appendix plugin="${plugin}" name="${name}" sha256="${sha}" authority="appendix-lower-than-system">\n${body}\n</gjc-plugin-system-appendix>`;
  }
  const agent = attr(a.agent, APPENDIX_ATTR_MAX_CHARS);
  return `<gjc-plugin-agent-appendix plugin="${plugin}" agent="${agent}" name="${name}" sha256="${sha}" authority="appendix-lower-than-agent">\n${body}\n</gjc-plugin-agent-appendix>`;
}

/**
 * Admits appendices in the order given (registry order; per bundle system then agent), each
 * whole or not at all: a block over 8 KiB, the 33rd block, or one that would push the total
 * past 32 KiB is dropped (a later, smaller one may still fit). Bodies are never truncated,
 * and every drop becomes a diagnostic.
 */
export function renderAppendices(inputs: AppendixInput[]): RenderedAppendices {
  const system: string[] = [];
  const byAgent: Record<string, string[]> = {};
  const included: string[] = [];
  const digestParts: string[] = [];
  const diagnostics: SessionDiagnostic[] = [];
  let total = 0;
  for (const a of inputs) {
    const where = { scope: a.scope, bundle: a.plugin, surfaceId: a.extensionId };
    const body = escapeBody(a.body);
    if (body.trim() === "") {
      diagnostics.push({
        ...where,
        code: "appendix_empty",
        severity: "warning",
        message: `Appendix ${a.extensionId} is empty once control characters are removed; nothing was appended.`,
      });
      continue;
    }
    const block = appendixBlock(a, body);
    const bytes = utf8Bytes(block);
    if (bytes > APPENDIX_BLOCK_MAX_BYTES) {
      diagnostics.push({
        ...where,
        code: "appendix_too_large",
        severity: "warning",
        message: `Appendix ${a.extensionId} renders to ${bytes} bytes, over the ${APPENDIX_BLOCK_MAX_BYTES}-byte limit of one block; it was left out of the prompt.`,
        hint: "Shorten the appendix text (escaping of <, > and & counts towards the limit).",
      });
      continue;
    }
    if (included.length >= APPENDIX_MAX_BLOCKS) {
      diagnostics.push({
        ...where,
        code: "appendix_count_exceeded",
        severity: "warning",
        message: `Appendix ${a.extensionId} was left out: at most ${APPENDIX_MAX_BLOCKS} appendices fit in one session.`,
        hint: "Disable appendices you do not need with gjc plugin disable <name> --surface <id>.",
      });
      continue;
    }
    if (total + bytes > APPENDIX_TOTAL_MAX_BYTES) {
      diagnostics.push({
        ...where,
        code: "appendix_budget_exceeded",
        severity: "warning",
        message: `Appendix ${a.extensionId} (${bytes} bytes) was left out: it would bring all appendices to ${total + bytes} bytes, over the ${APPENDIX_TOTAL_MAX_BYTES}-byte session budget.`,
        hint: "Disable appendices you do not need with gjc plugin disable <name> --surface <id>.",
      });
      continue;
    }
    total += bytes;
    included.push(a.extensionId);
    digestParts.push(`${a.extensionId}:${a.contentHash}`);
    if (a.agent === undefined) system.push(block);
    else (byAgent[a.agent] ??= []).push(block);
  }
  const agentText: Record<string, string> = {};
  for (const [agent, blocks] of Object.entries(byAgent)) agentText[agent] = blocks.join("\n\n");
  return {
    system: system.join("\n\n"),
    byAgent: agentText,
    included,
    digest: sha256Hex(digestParts.join("\0")),
    totalBytes: total,
    diagnostics,
  };
}
