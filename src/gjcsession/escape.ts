/**
 * Text that goes into a prompt between our delimiters. Plugin text is data, never markup:
 * control characters are removed and the characters that could open or close a tag are
 * escaped, so a body can never end its block early or forge another block.
 */

// C0 except tab and line feed, DEL and C1. CR goes too: CRLF bodies render as LF.
const BODY_CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
// Every C0, DEL and C1: attribute values and one-line items keep no line breaks.
const ALL_CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;

export function stripBodyControls(text: string): string {
  return text.replace(BODY_CONTROLS, "");
}

/** Body text: controls removed, `& < >` escaped (quotes need no escaping outside attributes). */
export function escapeBody(text: string): string {
  return stripBodyControls(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** Escapes `& " < >` for a double-quoted attribute or a one-line item. */
export function escapeAttr(text: string): string {
  return text
    .replace(ALL_CONTROLS, "")
    .replace(/&/g, "&amp;")
    .replace(/"/g, "&quot;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;");
}

/**
 * Cuts a value to `max` characters (code points, so a surrogate pair is never split), the
 * last one becoming `…`. Returns whether it was cut so callers can report it.
 */
export function truncate(text: string, max: number): { text: string; truncated: boolean } {
  // At most `max` UTF-16 units means at most `max` code points: nothing to cut.
  if (text.length <= max) return { text, truncated: false };
  const chars = Array.from(text);
  if (chars.length <= max) return { text, truncated: false };
  return { text: `${chars.slice(0, max - 1).join("")}…`, truncated: true };
}

/** Attribute value: truncated first (so an escape is never cut in half), then escaped. */
export function attr(text: string, max: number): string {
  return escapeAttr(truncate(text.replace(ALL_CONTROLS, ""), max).text);
}

const encoder = new TextEncoder();
export const utf8Bytes = (text: string): number => encoder.encode(text).length;
