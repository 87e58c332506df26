import { mcpError } from "./errors.ts";
import { readLines } from "./line-reader.ts";

export interface SseEvent {
  event: string;
  data: string;
  id?: string;
}

/**
 * Server-sent events (the WHATWG event-stream format) from a byte stream, with every line and
 * every event's data bounded by `maxBytes`, so a stream cannot make us buffer without end.
 */
export async function* readSseEvents(
  stream: ReadableStream<Uint8Array>,
  maxBytes: number,
  what: string,
): AsyncGenerator<SseEvent> {
  let event = "";
  let data: string[] = [];
  let dataBytes = 0;
  let id: string | undefined;
  for await (const line of readLines(stream, maxBytes, what)) {
    if (line === "") {
      if (data.length > 0) {
        const out: SseEvent = { event: event || "message", data: data.join("\n") };
        if (id !== undefined) out.id = id;
        yield out;
      }
      event = "";
      data = [];
      dataBytes = 0;
      continue;
    }
    if (line.startsWith(":")) continue; // comment / keep-alive
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") {
      dataBytes += Buffer.byteLength(line);
      if (dataBytes > maxBytes)
        throw mcpError(
          "mcp_frame_too_large",
          `${what} sent an event longer than ${maxBytes} bytes`,
          "MCP messages are limited to 1 MiB each; fix the server so it sends smaller messages",
          { limit: maxBytes },
        );
      data.push(value);
    } else if (field === "event") event = value;
    else if (field === "id") id = value;
  }
}
