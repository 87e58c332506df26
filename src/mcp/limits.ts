/** One JSON-RPC message (a stdout line, an SSE event, an HTTP body) may not exceed this. */
export { MAX_LINE_FRAME_BYTES as MAX_FRAME_BYTES } from "../core/line-splitter.ts";
/** How much of a server's stderr we keep (the tail), so a chatty server cannot grow our memory. */
export const MAX_STDERR_BYTES = 64 * 1024;
/** Server messages that answer nothing of ours, in a row, before we call it a flood. */
export const MAX_UNSOLICITED_MESSAGES = 1000;
/** tools/list pages we follow before giving up on a server that never stops paginating. */
export const MAX_TOOL_PAGES = 100;
/** Tools we accept from one server. */
export const MAX_TOOLS = 10_000;
/** Same-origin redirects followed for one HTTP request. */
export const MAX_REDIRECTS = 10;
/** Default budget for a whole probe (spawn or connect, initialize, tools/list). */
export const DEFAULT_PROBE_TIMEOUT_MS = 10_000;
/** Our requests waiting for an answer from one server. */
export const MAX_PENDING_REQUESTS = 64;
/** Server requests (ping) answered at once. */
export const MAX_SERVED_REQUESTS = 16;
