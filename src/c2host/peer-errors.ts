/**
 * What can go wrong on one protocol connection: the shared peer's errors (src/core/jsonrpc-peer.ts).
 * Core code above the peer maps these onto GjcError codes.
 */
export { isPeerError, PeerError, type PeerFailureKind } from "../core/jsonrpc-peer.ts";
