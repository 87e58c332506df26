/**
 * Protocol hardening limits (DESIGN 2.3). The seed leaves them open; these are the newest
 * reference's numbers, which only tighten abuse cases and never change a well-behaved exchange.
 */
export const PROTOCOL_VERSION = "1.0.0";
/** One frame, including its newline, in either direction. */
export { MAX_LINE_FRAME_BYTES as MAX_FRAME_BYTES } from "../core/line-splitter.ts";
/** Host→plugin requests waiting for an answer; the excess is refused before it is sent. */
export const MAX_PENDING_REQUESTS = 64;
/** Plugin→host requests being served at once; one more closes the peer. */
export const MAX_HOST_CALLBACKS = 16;
/** The `initialize` answer must arrive within this (independent of any command timeout). */
export const HANDSHAKE_TIMEOUT_MS = 10_000;
/** SIGTERM grace before the whole process group gets SIGKILL on unload. */
export const TERM_GRACE_MS = 200;
/** Idle project realms are reaped after this long without a call or a lease. */
export const PROJECT_IDLE_MS = 5 * 60_000;
/** JSON-RPC error code of every host error response (the reference uses it throughout). */
export const HOST_ERROR_CODE = -32000;
