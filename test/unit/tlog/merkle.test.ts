import { describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import {
  consistencyProof,
  EMPTY_ROOT,
  inclusionProof,
  leafHash,
  treeRoot,
  verifyConsistency,
  verifyInclusion,
} from "../../../src/tlog/merkle.ts";

// An independent RFC 6962 §2.1 implementation over the leaf DATA, written from the RFC's
// recursive definitions of MTH, PATH and PROOF/SUBPROOF with node:crypto (not the module's hasher).
const sha = (...parts: Uint8Array[]) => {
  const h = createHash("sha256");
  for (const p of parts) h.update(p);
  return new Uint8Array(h.digest());
};
const k = (n: number) => {
  let p = 1;
  while (p << 1 < n) p <<= 1;
  return p;
};
function MTH(d: Uint8Array[]): Uint8Array {
  if (d.length === 0) return sha();
  if (d.length === 1) return sha(Uint8Array.of(0), d[0]);
  const s = k(d.length);
  return sha(Uint8Array.of(1), MTH(d.slice(0, s)), MTH(d.slice(s)));
}
function PATH(m: number, d: Uint8Array[]): Uint8Array[] {
  if (d.length === 1) return [];
  const s = k(d.length);
  return m < s ? [...PATH(m, d.slice(0, s)), MTH(d.slice(s))] : [...PATH(m - s, d.slice(s)), MTH(d.slice(0, s))];
}
function SUBPROOF(m: number, d: Uint8Array[], b: boolean): Uint8Array[] {
  if (m === d.length) return b ? [] : [MTH(d)];
  const s = k(d.length);
  return m <= s
    ? [...SUBPROOF(m, d.slice(0, s), b), MTH(d.slice(s))]
    : [...SUBPROOF(m - s, d.slice(s), false), MTH(d.slice(0, s))];
}
const PROOF = (m: number, d: Uint8Array[]) => SUBPROOF(m, d, true);

const hex = (h: Uint8Array) => Buffer.from(h).toString("hex");
const hexes = (hs: Uint8Array[]) => hs.map(hex);
const data = (n: number) =>
  Array.from({ length: n }, (_, i) => new TextEncoder().encode(`release ${i} ${"x".repeat(i % 7)}`));

describe("RFC 6962 Merkle tree", () => {
  test("the Certificate Transparency test vector: 8 leaves give the known root", () => {
    const leaves = [
      "",
      "00",
      "10",
      "2021",
      "3031",
      "40414243",
      "5051525354555657",
      "606162636465666768696a6b6c6d6e6f",
    ].map((h) => new Uint8Array(Buffer.from(h, "hex")));
    expect(hex(treeRoot(leaves.map(leafHash)))).toBe(
      "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
    );
    expect(hex(MTH(leaves))).toBe("5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328");
  });

  test("the empty tree is SHA-256 of nothing", () => {
    expect(hex(treeRoot([]))).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect(hex(EMPTY_ROOT)).toBe(hex(MTH([])));
  });

  const all = data(40);
  const hashes = all.map(leafHash);

  test("roots agree with the independent MTH for every size 0..40", () => {
    for (let n = 0; n <= 40; n++) expect(hex(treeRoot(hashes, n))).toBe(hex(MTH(all.slice(0, n))));
  });

  test("inclusion proofs equal PATH(m, D[n]) and verify, for every index of every size 1..40", () => {
    for (let n = 1; n <= 40; n++) {
      const root = MTH(all.slice(0, n));
      for (let m = 0; m < n; m++) {
        const proof = inclusionProof(hashes, m, n);
        expect(hexes(proof)).toEqual(hexes(PATH(m, all.slice(0, n))));
        expect(verifyInclusion(hashes[m], m, n, proof, root)).toBe(true);
      }
    }
  });

  test("consistency proofs equal PROOF(m, D[n]) and verify, for every pair 1 ≤ m ≤ n ≤ 40", () => {
    for (let n = 1; n <= 40; n++) {
      const newRoot = MTH(all.slice(0, n));
      for (let m = 1; m <= n; m++) {
        const proof = consistencyProof(hashes, m, n);
        expect(hexes(proof)).toEqual(m === n ? [] : hexes(PROOF(m, all.slice(0, n))));
        expect(verifyConsistency(m, n, MTH(all.slice(0, m)), newRoot, proof)).toBe(true);
      }
    }
  });

  test("an inclusion proof fails for another leaf, index, size, root or a changed path element", () => {
    const n = 13;
    const root = treeRoot(hashes, n);
    for (let m = 0; m < n; m++) {
      const proof = inclusionProof(hashes, m, n);
      expect(verifyInclusion(hashes[(m + 1) % n], m, n, proof, root)).toBe(false);
      expect(verifyInclusion(hashes[m], (m + 1) % n, n, proof, root)).toBe(false);
      expect(verifyInclusion(hashes[m], m, 2 * n, proof, root)).toBe(false);
      expect(verifyInclusion(hashes[m], m, n, proof, treeRoot(hashes, n - 1))).toBe(false);
      expect(verifyInclusion(hashes[m], m, n, [...proof, hashes[0]], root)).toBe(false);
      expect(verifyInclusion(hashes[m], m, n, proof.slice(1), root)).toBe(false);
      for (let i = 0; i < proof.length; i++) {
        const bad = proof.map((p) => new Uint8Array(p));
        bad[i][5] ^= 1;
        expect(verifyInclusion(hashes[m], m, n, bad, root)).toBe(false);
      }
    }
    expect(verifyInclusion(hashes[0], n, n, [], root)).toBe(false);
    expect(verifyInclusion(hashes[0], -1, n, [], root)).toBe(false);
  });

  test("a consistency proof fails against a forked tree, other sizes or a changed element", () => {
    const forked = [...hashes];
    forked[3] = leafHash(new TextEncoder().encode("a different release 3"));
    for (const [m, n] of [
      [1, 2],
      [3, 7],
      [4, 8],
      [5, 13],
      [6, 40],
      [16, 17],
      [17, 33],
    ]) {
      const proof = consistencyProof(hashes, m, n);
      const oldRoot = treeRoot(hashes, m);
      const newRoot = treeRoot(hashes, n);
      if (m > 3) expect(verifyConsistency(m, n, treeRoot(forked, m), newRoot, proof)).toBe(false);
      if (n > 3) expect(verifyConsistency(m, n, oldRoot, treeRoot(forked, n), proof)).toBe(false);
      expect(verifyConsistency(m, 2 * n, oldRoot, newRoot, proof)).toBe(false);
      expect(verifyConsistency(m - 1 || 2, n, oldRoot, newRoot, proof)).toBe(false);
      expect(verifyConsistency(m, n, oldRoot, newRoot, [])).toBe(false);
      for (let i = 0; i < proof.length; i++) {
        const bad = proof.map((p) => new Uint8Array(p));
        bad[i][0] ^= 0x80;
        expect(verifyConsistency(m, n, oldRoot, newRoot, bad)).toBe(false);
      }
    }
    // The same size proves nothing but equality; a shrinking tree is never consistent.
    expect(verifyConsistency(5, 5, treeRoot(hashes, 5), treeRoot(hashes, 5), [])).toBe(true);
    expect(verifyConsistency(5, 5, treeRoot(hashes, 5), treeRoot(forked, 5), [])).toBe(false);
    expect(verifyConsistency(6, 5, treeRoot(hashes, 6), treeRoot(hashes, 5), [])).toBe(false);
    expect(verifyConsistency(0, 5, EMPTY_ROOT, treeRoot(hashes, 5), [])).toBe(true);
  });

  test("proof generation refuses indices and sizes outside the tree", () => {
    expect(() => inclusionProof(hashes, 5, 5)).toThrow(RangeError);
    expect(() => inclusionProof(hashes, 0, 41)).toThrow(RangeError);
    expect(() => consistencyProof(hashes, 6, 5)).toThrow(RangeError);
  });
});
