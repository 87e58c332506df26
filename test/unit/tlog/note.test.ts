import { describe, expect, test } from "bun:test";
import { isGjcError } from "../../../src/core/errors.ts";
import { checkpointText, openCheckpoint, parseCheckpointText, signCheckpoint } from "../../../src/tlog/checkpoint.ts";
import { treeRoot, leafHash } from "../../../src/tlog/merkle.ts";
import {
  generateSigner,
  openNote,
  parseSigner,
  parseVerifier,
  signerKeyText,
  signNote,
} from "../../../src/tlog/note.ts";

const code = (f: () => unknown): string => {
  try {
    f();
  } catch (error) {
    if (isGjcError(error)) return `${error.code}/${error.exit}`;
    throw error;
  }
  return "no error";
};

// golang.org/x/mod/sumdb/note's documented example key and note: the key formats and the
// signature encoding are the same, so a note either tool signed opens in the other.
const GO_SIGNER = "PRIVATE+KEY+PeterNeumann+c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz";
const GO_VERIFIER = "PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW";
const GO_TEXT = "If you think cryptography is the answer to your problem,\nthen you don't know what your problem is.\n";
const GO_NOTE = `${GO_TEXT}\n— PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n`;

describe("signed notes", () => {
  test("Go's example key, verifier and note: same key id, same signature bytes, opens", () => {
    const signer = parseSigner(GO_SIGNER);
    expect(signer.text).toBe(GO_VERIFIER);
    expect(signNote(GO_TEXT, [signer])).toBe(GO_NOTE);
    expect(openNote(GO_NOTE, [parseVerifier(GO_VERIFIER)]).text).toBe(GO_TEXT);
  });

  test("a generated key round-trips through its key files and signs notes that open", () => {
    const s = generateSigner("example.com/log");
    expect(s.text).toMatch(/^example\.com\/log\+[0-9a-f]{8}\+A[Q-Za-f]/);
    const again = parseSigner(signerKeyText(s));
    expect(again.text).toBe(s.text);
    const note = signNote("hello\nworld\n", [again]);
    expect(openNote(note, [parseVerifier(s.text)]).text).toBe("hello\nworld\n");
  });

  test("refusals: wrong key, altered text, extra whitespace, no signature line", () => {
    const s = generateSigner("example.com/log");
    const v = parseVerifier(s.text);
    const note = signNote("a\nb\n", [s]);
    const other = generateSigner("example.com/log");
    // The same name under another key: its id differs, so the note has no known signature.
    expect(code(() => openNote(note, [parseVerifier(other.text)]))).toBe("log_signature_invalid/3");
    expect(code(() => openNote(note.replace("a\nb", "a\nc"), [v]))).toBe("log_signature_invalid/3");
    expect(code(() => openNote(note.replace("a\nb\n", "a \nb\n"), [v]))).toBe("log_signature_invalid/3");
    // An empty line more is note text (the text may hold empty lines), so the signature no longer covers it.
    expect(code(() => openNote(note.replace("\n\n", "\n\n\n"), [v]))).toBe("log_signature_invalid/3");
    expect(code(() => openNote(`${note}\n`, [v]))).toBe("invalid_log/1");
    expect(code(() => openNote(note.replace("— ", "—  "), [v]))).toBe("invalid_log/1");
    expect(code(() => openNote(note.replace(/\n$/, " \n"), [v]))).toBe("invalid_log/1");
    expect(code(() => openNote(note.replace(/\n$/, ""), [v]))).toBe("invalid_log/1");
    expect(code(() => openNote(note.replace("— ", "- "), [v]))).toBe("invalid_log/1");
    expect(code(() => openNote("a\nb\n", [v]))).toBe("invalid_log/1");
    expect(code(() => openNote(note.replace("a\n", "a\t\n"), [v]))).toBe("invalid_log/1");
    // A signature byte changed: the id still names the key, so the bad signature rejects the note.
    const line = note.split("\n")[3];
    const raw = Buffer.from(line.split(" ")[2], "base64");
    raw[10] ^= 1;
    expect(code(() => openNote(note.replace(line, `— example.com/log ${raw.toString("base64")}`), [v]))).toBe(
      "log_signature_invalid/3",
    );
  });

  test("signatures by unknown keys are ignored; a known one must be there", () => {
    const s = generateSigner("example.com/log");
    const witness = generateSigner("witness.example/w1");
    const note = signNote("a\n", [witness, s]);
    expect(openNote(note, [parseVerifier(s.text)]).verifiedBy.map((k) => k.name)).toEqual(["example.com/log"]);
    expect(code(() => openNote(signNote("a\n", [witness]), [parseVerifier(s.text)]))).toBe("log_signature_invalid/3");
  });

  test("key texts are refused when not exactly in the format", () => {
    const s = generateSigner("example.com/log");
    expect(code(() => parseVerifier(s.text.replace(/\+([0-9a-f]{8})\+/, "+00000000+")))).toBe("invalid_log/1");
    expect(code(() => parseVerifier(`${s.text} `))).toBe("invalid_log/1");
    const [name, id, b64] = [
      s.text.split("+")[0],
      s.text.split("+")[1],
      s.text.slice(s.text.indexOf("+", s.text.indexOf("+") + 1) + 1),
    ];
    const ecdsaType = Buffer.from(b64, "base64");
    ecdsaType[0] = 0x02;
    expect(code(() => parseVerifier(`${name}+${id}+${ecdsaType.toString("base64")}`))).toBe("invalid_log/1");
    expect(code(() => parseVerifier("a b+01234567+AQ=="))).toBe("invalid_log/1");
    expect(code(() => parseSigner(s.text))).toBe("invalid_log/1");
    expect(code(() => generateSigner("has space"))).toBe("invalid_log/1");
  });
});

describe("checkpoints", () => {
  const root = treeRoot([leafHash(new Uint8Array([1])), leafHash(new Uint8Array([2]))]);

  test("round trip, with an extension line", () => {
    const s = generateSigner("example.com/log");
    const c = { origin: "example.com/log", size: 2, root, extensions: ["ext one"] };
    const note = signCheckpoint(c, s);
    expect(
      note.startsWith(`example.com/log\n2\n${Buffer.from(root).toString("base64")}\next one\n\n— example.com/log `),
    ).toBe(true);
    const back = openCheckpoint(note, parseVerifier(s.text), "example.com/log");
    expect(back.size).toBe(2);
    expect(Buffer.from(back.root).equals(Buffer.from(root))).toBe(true);
    expect(back.extensions).toEqual(["ext one"]);
  });

  test("refusals: leading zeros, a short root, too few lines, empty lines, another origin", () => {
    const r = Buffer.from(root).toString("base64");
    expect(code(() => parseCheckpointText(`o\n02\n${r}\n`))).toBe("invalid_log/1");
    expect(code(() => parseCheckpointText(`o\n-1\n${r}\n`))).toBe("invalid_log/1");
    expect(code(() => parseCheckpointText(`o\n2\n${Buffer.from(root.slice(1)).toString("base64")}\n`))).toBe(
      "invalid_log/1",
    );
    expect(code(() => parseCheckpointText("o\n2\n"))).toBe("invalid_log/1");
    expect(code(() => parseCheckpointText(`o\n2\n${r}\n\nx\n`))).toBe("invalid_log/1");
    expect(code(() => parseCheckpointText(`o\n 2\n${r}\n`))).toBe("invalid_log/1");
    expect(parseCheckpointText(`o\n0\n${r}\n`).size).toBe(0);
    const s = generateSigner("a.example/log");
    expect(
      code(() =>
        openCheckpoint(
          signCheckpoint({ origin: "a.example/log", size: 2, root, extensions: [] }, s),
          parseVerifier(s.text),
          "b.example/log",
        ),
      ),
    ).toBe("invalid_log/1");
    expect(checkpointText({ origin: "o", size: 0, root, extensions: [] })).toBe(`o\n0\n${r}\n`);
  });
});
