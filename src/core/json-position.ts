import { findNodeAtLocation, parseTree, type Node, type ParseError } from "jsonc-parser";

/** A 1-based line and column (UTF-16 code units, as editors and GitHub count them). */
export interface TextPosition {
  line: number;
  column: number;
}

/**
 * Where a JSON pointer (`/extensions/dev.codetwo/commands/3/id`) points in a JSON document's
 * text, so a diagnostic can be shown at its line and column. jsonc-parser (Microsoft's parser
 * behind VS Code's JSON support) gives every node's offset even in a document with syntax
 * errors. A member is located at its key (an unknown field is the key itself); a pointer to
 * something that is not there (a missing required field) falls back to the deepest part of the
 * path that exists, so the position is always inside the document. Line 1, column 1 when the
 * text is not JSON at all.
 */
export function positionOfPointer(text: string, pointer: string): TextPosition {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { disallowComments: true, allowTrailingComma: false });
  if (!root) return { line: 1, column: 1 };
  const segments = pointerSegments(pointer);
  for (let n = segments.length; n >= 0; n--) {
    const path = segments.slice(0, n).map((s, i) => (isArrayAt(root, segments.slice(0, i)) ? Number(s) : s));
    const node = n === 0 ? root : findNodeAtLocation(root, path);
    if (node) return offsetToPosition(text, memberStart(node));
  }
  return { line: 1, column: 1 };
}

/** RFC 6901: `/a~1b/~0c` → ["a/b", "~c"]; "" is the whole document. */
export function pointerSegments(pointer: string): string[] {
  if (pointer === "" || pointer === "/") return pointer === "/" ? [""] : [];
  return pointer
    .replace(/^\//, "")
    .split("/")
    .map((s) => s.replaceAll("~1", "/").replaceAll("~0", "~"));
}

function isArrayAt(root: Node, path: string[]): boolean {
  const node = path.length === 0 ? root : findNodeAtLocation(root, path.map((s, i) => (isArrayAt(root, path.slice(0, i)) ? Number(s) : s)));
  return node?.type === "array";
}

/** A property's value is located at the property (its key); anything else at itself. */
function memberStart(node: Node): number {
  return node.parent?.type === "property" ? node.parent.offset : node.offset;
}

export function offsetToPosition(text: string, offset: number): TextPosition {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}
