/** A 1-based line and column (UTF-16 code units, as editors and GitHub count them). */
export interface TextPosition {
  line: number;
  column: number;
}

/**
 * Where a JSON pointer (`/extensions/dev.codetwo/commands/3/id`) points in a JSON document's
 * text, so a diagnostic can be shown at its line and column. A member is located at its key (an
 * unknown field is the key itself); a pointer to something that is not there (a missing
 * required field) falls back to the deepest part of the path that exists, so the position is
 * always inside the document. A document with a syntax error is located up to the error; line 1,
 * column 1 when the text is not JSON at all.
 *
 * Hand-written rather than a parser library: it only has to walk the document once and note
 * where each pointer starts (about sixty lines), and the one JSON parser that must be right,
 * JSON.parse, has already judged the document.
 */
export function positionOfPointer(text: string, pointer: string): TextPosition {
  const starts = memberStarts(text);
  const segments = pointerSegments(pointer);
  for (let n = segments.length; n >= 0; n--) {
    const offset = starts.get(encodePointer(segments.slice(0, n)));
    if (offset !== undefined) return offsetToPosition(text, offset);
  }
  return { line: 1, column: 1 };
}

/** RFC 6901: `/a~1b/~0c` → ["a/b", "~c"]; "" is the whole document. */
export function pointerSegments(pointer: string): string[] {
  if (pointer === "") return [];
  return pointer
    .replace(/^\//, "")
    .split("/")
    .map((s) => s.replaceAll("~1", "/").replaceAll("~0", "~"));
}

function encodePointer(segments: string[]): string {
  return segments.map((s) => `/${s.replaceAll("~", "~0").replaceAll("/", "~1")}`).join("");
}

/**
 * The first member whose key repeats a key of the same object (`{"name":"a","name":"b"}`):
 * its pointer and the offset of the repeated key, or undefined. The same walk as positions.
 */
export function firstDuplicateKey(text: string): { pointer: string; offset: number } | undefined {
  let found: { pointer: string; offset: number } | undefined;
  memberStarts(text, (pointer, offset) => (found ??= { pointer, offset }));
  return found;
}

/**
 * Every pointer in the document → the offset where it starts (a member's key, an element's
 * value). A key already placed in the same object is reported to `onDuplicate`; the later one
 * wins the position, as it wins in JSON.parse.
 */
function memberStarts(text: string, onDuplicate?: (pointer: string, offset: number) => void): Map<string, number> {
  const starts = new Map<string, number>();
  let i = 0;
  const ws = () => {
    while (i < text.length && " \t\r\n".includes(text[i])) i++;
  };
  const string = (): string => {
    const end = endOfString(text, i);
    const s = JSON.parse(text.slice(i, end)) as string;
    i = end;
    return s;
  };
  const value = (path: string): void => {
    ws();
    if (!starts.has(path)) starts.set(path, i);
    const c = text[i];
    if (c === "{") {
      i++;
      ws();
      if (text[i] === "}") return void i++;
      for (;;) {
        ws();
        const keyAt = i;
        const key = string();
        const member = `${path}/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`;
        if (onDuplicate && starts.has(member)) onDuplicate(member, keyAt);
        starts.set(member, keyAt); // a member is placed at its key (value() keeps the first start)
        ws();
        if (text[i++] !== ":") throw new SyntaxError("expected ':'");
        value(member);
        ws();
        if (text[i] === ",") i++;
        else if (text[i++] === "}") return;
        else throw new SyntaxError("expected ',' or '}'");
      }
    }
    if (c === "[") {
      i++;
      ws();
      if (text[i] === "]") return void i++;
      for (let n = 0; ; n++) {
        value(`${path}/${n}`);
        ws();
        if (text[i] === ",") i++;
        else if (text[i++] === "]") return;
        else throw new SyntaxError("expected ',' or ']'");
      }
    }
    if (c === '"') return void string();
    // Matched in place (sticky), so a number of any length is stepped over whole.
    SCALAR.lastIndex = i;
    const m = SCALAR.exec(text);
    if (!m) throw new SyntaxError("expected a value");
    i += m[0].length;
  };
  try {
    value("");
  } catch {
    // a syntax error: what was walked before it is still placed
  }
  return starts;
}

const SCALAR = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null/y;

function endOfString(text: string, start: number): number {
  if (text[start] !== '"') throw new SyntaxError("expected a string");
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === '"') return i + 1;
  }
  throw new SyntaxError("unterminated string");
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
