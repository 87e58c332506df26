/**
 * RFC 6962 Merkle tree hashing (§2.1) with inclusion proofs (§2.1.1) and consistency proofs
 * (§2.1.2), verified with the algorithms of RFC 9162 §2.1.3.2 and §2.1.4.2.
 *
 * Leaves are given as their leaf hashes (SHA-256(0x00 ‖ data)); an inner node is
 * SHA-256(0x01 ‖ left ‖ right); a tree of n > 1 leaves splits at k, the largest power of two
 * smaller than n. Generation works from the whole list of leaf hashes (a release log holds
 * every leaf as a plain file), so it is written straight from the definitions.
 */
import { sha256Bytes } from "../bundle/hash.ts";

export type Hash = Uint8Array;

const LEAF_PREFIX = 0x00;
const NODE_PREFIX = 0x01;

export function leafHash(data: Uint8Array): Hash {
  const buf = new Uint8Array(data.length + 1);
  buf[0] = LEAF_PREFIX;
  buf.set(data, 1);
  return sha256Bytes(buf);
}

export function nodeHash(left: Hash, right: Hash): Hash {
  const buf = new Uint8Array(1 + left.length + right.length);
  buf[0] = NODE_PREFIX;
  buf.set(left, 1);
  buf.set(right, 1 + left.length);
  return sha256Bytes(buf);
}

export const EMPTY_ROOT: Hash = sha256Bytes(new Uint8Array(0));

/** The largest power of two strictly smaller than n (n ≥ 2). */
function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/** MTH of leaves[lo, hi). */
function subtreeRoot(leaves: readonly Hash[], lo: number, hi: number): Hash {
  const n = hi - lo;
  if (n === 0) return EMPTY_ROOT;
  if (n === 1) return leaves[lo];
  const k = splitPoint(n);
  return nodeHash(subtreeRoot(leaves, lo, lo + k), subtreeRoot(leaves, lo + k, hi));
}

/** The tree head of the first `size` leaves (all of them by default). */
export function treeRoot(leaves: readonly Hash[], size = leaves.length): Hash {
  return subtreeRoot(leaves, 0, size);
}

function checkSize(leaves: readonly Hash[], size: number): void {
  if (!Number.isSafeInteger(size) || size < 0 || size > leaves.length)
    throw new RangeError(`tree size ${size} is outside 0..${leaves.length}`);
}

/** PATH(index, D[0:size]): the audit path of one leaf, leaf side first. */
export function inclusionProof(leaves: readonly Hash[], index: number, size = leaves.length): Hash[] {
  checkSize(leaves, size);
  if (!Number.isSafeInteger(index) || index < 0 || index >= size)
    throw new RangeError(`leaf index ${index} is outside a tree of ${size}`);
  const path = (m: number, lo: number, hi: number): Hash[] => {
    const n = hi - lo;
    if (n === 1) return [];
    const k = splitPoint(n);
    return m < k
      ? [...path(m, lo, lo + k), subtreeRoot(leaves, lo + k, hi)]
      : [...path(m - k, lo + k, hi), subtreeRoot(leaves, lo, lo + k)];
  };
  return path(index, 0, size);
}

/** PROOF(oldSize, D[0:newSize]); empty when the sizes are equal or the old tree is empty. */
export function consistencyProof(leaves: readonly Hash[], oldSize: number, newSize = leaves.length): Hash[] {
  checkSize(leaves, newSize);
  if (!Number.isSafeInteger(oldSize) || oldSize < 0 || oldSize > newSize)
    throw new RangeError(`old tree size ${oldSize} is outside 0..${newSize}`);
  if (oldSize === 0 || oldSize === newSize) return [];
  const sub = (m: number, lo: number, hi: number, whole: boolean): Hash[] => {
    const n = hi - lo;
    if (m === n) return whole ? [] : [subtreeRoot(leaves, lo, hi)];
    const k = splitPoint(n);
    return m <= k
      ? [...sub(m, lo, lo + k, whole), subtreeRoot(leaves, lo + k, hi)]
      : [...sub(m - k, lo + k, hi, false), subtreeRoot(leaves, lo, lo + k)];
  };
  return sub(oldSize, 0, newSize, true);
}

export function sameHash(a: Hash, b: Hash): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i] ^ b[i];
  return diff === 0;
}

/** RFC 9162 §2.1.3.2: whether `proof` shows the leaf `leaf` at `index` in the tree (`size`, `root`). */
export function verifyInclusion(leaf: Hash, index: number, size: number, proof: readonly Hash[], root: Hash): boolean {
  if (!Number.isSafeInteger(index) || !Number.isSafeInteger(size) || index < 0 || index >= size) return false;
  // Indices beyond 2^53 cannot occur in a log gjc reads; plain numbers keep the shifts exact below that.
  let fn = index;
  let sn = size - 1;
  let r = leaf;
  for (const p of proof) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      r = nodeHash(p, r);
      if (fn % 2 === 0) {
        while (fn % 2 === 0 && fn !== 0) {
          fn = Math.floor(fn / 2);
          sn = Math.floor(sn / 2);
        }
      }
    } else {
      r = nodeHash(r, p);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 && sameHash(r, root);
}

/** RFC 9162 §2.1.4.2: whether `proof` shows the tree (`newSize`, `newRoot`) extends (`oldSize`, `oldRoot`). */
export function verifyConsistency(
  oldSize: number,
  newSize: number,
  oldRoot: Hash,
  newRoot: Hash,
  proof: readonly Hash[],
): boolean {
  if (!Number.isSafeInteger(oldSize) || !Number.isSafeInteger(newSize) || oldSize < 0 || oldSize > newSize)
    return false;
  if (oldSize === newSize) return proof.length === 0 && sameHash(oldRoot, newRoot);
  // Every tree extends the empty one; there is nothing to prove.
  if (oldSize === 0) return proof.length === 0 && sameHash(oldRoot, EMPTY_ROOT);
  if (proof.length === 0) return false;
  const path = isPowerOfTwo(oldSize) ? [oldRoot, ...proof] : [...proof];
  let fn = oldSize - 1;
  let sn = newSize - 1;
  while (fn % 2 === 1) {
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  let fr = path[0];
  let sr = path[0];
  for (const c of path.slice(1)) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      fr = nodeHash(c, fr);
      sr = nodeHash(c, sr);
      if (fn % 2 === 0) {
        while (fn % 2 === 0 && fn !== 0) {
          fn = Math.floor(fn / 2);
          sn = Math.floor(sn / 2);
        }
      }
    } else {
      sr = nodeHash(sr, c);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 && sameHash(fr, oldRoot) && sameHash(sr, newRoot);
}

function isPowerOfTwo(n: number): boolean {
  let k = 1;
  while (k < n) k *= 2;
  return k === n;
}
