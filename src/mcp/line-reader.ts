import { FrameTooLargeError, readLines as readNdjsonLines } from "../core/line-splitter.ts";
import { mcpError } from "./errors.ts";

/**
 * The lines of an MCP stream (stdio stdout, an SSE body) through the one line reader, with its
 * failures in MCP's words: a line over the cap is `mcp_frame_too_large`, bytes that are not
 * UTF-8 are `mcp_protocol`. The cap counts the message, not its line terminator.
 */
export async function* readLines(
  stream: ReadableStream<Uint8Array>,
  maxFrameBytes: number,
  what: string,
): AsyncGenerator<string> {
  try {
    yield* readNdjsonLines(stream, maxFrameBytes + 1, { fatal: true });
  } catch (e) {
    if (e instanceof FrameTooLargeError) {
      throw mcpError(
        "mcp_frame_too_large",
        `${what} sent a message longer than ${maxFrameBytes} bytes`,
        "MCP messages are limited to 1 MiB each; fix the server so it sends smaller messages",
        {
          limit: maxFrameBytes,
        },
      );
    }
    if (e instanceof TypeError) {
      throw mcpError(
        "mcp_protocol",
        `${what} sent bytes that are not UTF-8`,
        "an MCP server sends UTF-8 JSON-RPC only; log anything else to stderr",
      );
    }
    throw e;
  }
}
