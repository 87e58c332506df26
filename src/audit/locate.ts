/**
 * JSON pointer → line and column in the manifest as written, for SARIF regions. A small
 * recursive-descent walk over the text that notes where each value starts; the text has
 * already been parsed by the validator, so on anything unexpected it simply stops and the
 * caller falls back to the start of the file.
 */
export interface TextPosition {
  /** 1-based. */
  line: number;
  /** 1-based, in UTF-16 code units (SARIF's default columnKind). */
  column: number;
}

const escape = (key: string) => key.replace(/~/g, "~0").replace(/\//g, "~1");

/** The start offset of every value in the document, by JSON pointer ("" is the root). */
function valueOffsets(text: string): Map<string, number> {
  const offsets = new Map<string, number>();
  let i = 0;
  const ws = () => {
    while (i < text.length && (text[i] === " " || text[i] === "\t" || text[i] === "\n" || text[i] === "\r" || text[i] === "\uFEFF")) i++;
  };
  const string = (): string => {
    const start = i;
    i++;
    while (i < text.length && text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const value = (ptr: string): void => {
    ws();
    offsets.set(ptr, i);
    const c = text[i];
    if (c === "{") {
      i++;
      ws();
      if (text[i] === "}") return void i++;
      for (;;) {
        ws();
        const key = string();
        ws();
        i++; // ':'
        value(`${ptr}/${escape(key)}`);
        ws();
        if (text[i++] !== ",") return;
      }
    } else if (c === "[") {
      i++;
      ws();
      if (text[i] === "]") return void i++;
      for (let n = 0; ; n++) {
        value(`${ptr}/${n}`);
        ws();
        if (text[i++] !== ",") return;
      }
    } else if (c === '"') {
      string();
    } else {
      while (i < text.length && !",}] \t\r\n".includes(text[i])) i++;
    }
  };
  try {
    value("");
  } catch {
    // Malformed text: keep what was found.
  }
  return offsets;
}

function position(text: string, offset: number): TextPosition {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/**
 * Where the value at `pointer` starts. A pointer that names nothing falls back to its nearest
 * existing parent, then to line 1 column 1.
 */
export function locatePointer(text: string, pointer: string, cache?: Map<string, number>): TextPosition {
  const offsets = cache ?? valueOffsets(text);
  let p = pointer;
  for (;;) {
    const at = offsets.get(p);
    if (at !== undefined) return position(text, at);
    if (p === "") return { line: 1, column: 1 };
    p = p.slice(0, p.lastIndexOf("/"));
  }
}

/** A locator for one document that parses it once. */
export function pointerLocator(text: string): (pointer: string) => TextPosition {
  const offsets = valueOffsets(text);
  return (pointer) => locatePointer(text, pointer, offsets);
}
