/**
 * What can go wrong on one protocol connection. Core code above the peer maps these onto
 * GjcError codes; the peer itself stays free of CLI concerns so tests can drive it directly.
 */
export type PeerFailureKind = "closed" | "too_large" | "capacity" | "remote" | "timeout" | "cancelled";

export class PeerError extends Error {
  constructor(
    readonly kind: PeerFailureKind,
    message: string,
    readonly remote?: { code: number; data?: unknown },
  ) {
    super(message);
    this.name = "PeerError";
  }
}

export const isPeerError = (e: unknown): e is PeerError => e instanceof PeerError;
