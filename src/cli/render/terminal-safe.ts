/**
 * The one terminal-safe text function (issue #12, class 9). Names, descriptions, diagnostics,
 * runtime results, server tool descriptions and registry fields come from bundles, catalogs,
 * runtimes and servers: printed raw, an ESC or CSI could move the cursor, rewrite earlier
 * lines, set the window title, forge a hyperlink (OSC 8) or hide text. Every C0 control except
 * line feed and tab, DEL, every C1 control and the bidirectional overrides/isolates (which let
 * text display in an order other than the bytes, "Trojan Source") become visible escapes:
 * `\x1b`, `\x9b`, `\u202e`.
 *
 * It is applied at the choke points where human text leaves the process (src/cli/main.ts for
 * stdout and error lines, the stderr logger), so no renderer can forget it. Our own colours are
 * the only escape sequences that may pass, and only when the stream is styled: `keepStyle`
 * keeps exactly the SGR sequences src/core/style.ts emits. Untrusted text could therefore at
 * most switch between those few colours on a colour terminal, never move the cursor or write
 * a title; renderers that want even that excluded pass such a part through `terminalSafe`
 * without `keepStyle` before styling it.
 *
 * JSON output is never passed through this function: its values stay exact (see `jsonText`).
 */

// C0 without \t (09) and \n (0a), DEL, C1, and the bidi embedding/override/isolate controls.
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const UNSAFE_TEST = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
// The SGR sequences makeStyle() writes (bold, dim, normal intensity, red, green, yellow, cyan, default).
const OUR_SGR = /\x1b\[(?:1|2|22|31|32|33|36|39)m/y;

function visibleEscape(c: string): string {
  const code = c.charCodeAt(0);
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;
}

export interface TerminalSafeOptions {
  /** Keep the SGR colour sequences of src/core/style.ts (only for text our renderers styled). */
  keepStyle?: boolean;
}

export function terminalSafe(text: string, options: TerminalSafeOptions = {}): string {
  // The common case (plain text, no colour) costs one regex test.
  if (!UNSAFE_TEST.test(text)) return text;
  if (!options.keepStyle) return text.replace(UNSAFE, visibleEscape);
  return text.replace(UNSAFE, (c, offset: number) => {
    if (c === "\x1b") {
      OUR_SGR.lastIndex = offset;
      if (OUR_SGR.test(text)) return c;
    }
    return visibleEscape(c);
  });
}

/**
 * A JSON document as text. JSON.stringify already escapes C0 controls; DEL, C1 and the bidi
 * controls it leaves raw are written as `\u` escapes, which parse back to the same values, so
 * a document printed on a terminal cannot drive it either and stays exact.
 */
export function jsonText(value: unknown, indent = 2): string {
  const text = JSON.stringify(value, null, indent);
  return UNSAFE_TEST.test(text)
    ? text.replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)
    : text;
}
