import { mcpError } from "./errors.ts";

/** Reads a response body up to `max` bytes; more is an error (the rest is not read). */
export async function readBoundedText(response: Response, max: number, what: string): Promise<string> {
  if (!response.body) return "";
  const reader = response.body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => {});
      throw mcpError(
        "mcp_frame_too_large",
        `${what} sent a response body longer than ${max} bytes`,
        "MCP messages are limited to 1 MiB each; fix the server so it sends smaller messages",
        { limit: max },
      );
    }
    parts.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(parts));
}

/** Discards a body we do not need, without waiting for a server that never ends it. */
export function discardBody(response: Response): void {
  response.body?.cancel().catch(() => {});
}
