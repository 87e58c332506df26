import { describe, expect, test } from "bun:test";
import type { GjcError } from "../../../src/core/errors.ts";
import { BoundedLog } from "../../../src/mcp/bounded-log.ts";
import { readLines } from "../../../src/mcp/line-reader.ts";
import { type Channel, RpcClient } from "../../../src/mcp/rpc-client.ts";
import { readSseEvents } from "../../../src/mcp/sse-parser.ts";
import { waitFor } from "../../helpers/wait.ts";

const enc = new TextEncoder();
const streamOf = (...chunks: (string | Uint8Array)[]) =>
  new ReadableStream<Uint8Array>({
    start(c) {
      for (const ch of chunks) c.enqueue(typeof ch === "string" ? enc.encode(ch) : ch);
      c.close();
    },
  });
async function lines(stream: ReadableStream<Uint8Array>, max: number): Promise<string[]> {
  const out: string[] = [];
  for await (const l of readLines(stream, max, "test server")) out.push(l);
  return out;
}
async function failure(p: Promise<unknown>): Promise<GjcError> {
  try {
    await p;
  } catch (e) {
    return e as GjcError;
  }
  throw new Error("expected a failure");
}

describe("readLines", () => {
  test("splits across chunks, drops CR of CRLF, keeps a last unterminated line", async () => {
    expect(await lines(streamOf("a", "b\nc\r", "\n", "\nlast"), 100)).toEqual(["ab", "c", "", "last"]);
  });
  test("a line of exactly the cap passes; one byte more fails", async () => {
    expect(await lines(streamOf(`${"x".repeat(10)}\n`), 10)).toEqual(["x".repeat(10)]);
    expect(await lines(streamOf(`${"x".repeat(10)}\r\n`), 10)).toEqual(["x".repeat(10)]);
    expect((await failure(lines(streamOf(`${"x".repeat(11)}\n`), 10))).code).toBe("mcp_frame_too_large");
    expect((await failure(lines(streamOf("x".repeat(11)), 10))).code).toBe("mcp_frame_too_large");
  });
  test("an endless line fails as soon as it passes the cap, without reading the rest", async () => {
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(c) {
        pulled++;
        c.enqueue(new Uint8Array(1000).fill(120));
      },
    });
    expect((await failure(lines(endless, 10_000))).code).toBe("mcp_frame_too_large");
    expect(pulled).toBeLessThan(20);
  });
});

describe("BoundedLog", () => {
  test("keeps the tail and says how much was dropped", () => {
    const log = new BoundedLog(10);
    log.write(enc.encode("0123456789"));
    log.write(enc.encode("abc"));
    expect(log.text()).toBe("[… 3 earlier bytes dropped]\n3456789abc");
    log.write(enc.encode("z".repeat(25)));
    expect(log.dropped).toBe(28);
    expect(log.text()).toEndWith("z".repeat(10));
  });
  test("tail returns the last lines", () => {
    const log = new BoundedLog(100);
    log.write(enc.encode("one\ntwo\nthree\n"));
    expect(log.tail(2)).toBe("two\nthree");
  });
});

describe("readSseEvents", () => {
  test("events, multi-line data, comments, CRLF and the default type", async () => {
    const events: unknown[] = [];
    const s = streamOf(
      ": keep-alive\n\nevent: endpoint\r\ndata: /messages?x=1\r\n\r\n",
      'data: {"a":\ndata: 1}\nid: 7\n\n',
      "data:nospace\n\n",
    );
    for await (const e of readSseEvents(s, 1000, "t")) events.push(e);
    expect(events).toEqual([
      { event: "endpoint", data: "/messages?x=1" },
      { event: "message", data: '{"a":\n1}', id: "7" },
      // The last event id persists until the stream sets another (the SSE rules).
      { event: "message", data: "nospace", id: "7" },
    ]);
  });
  test("an event whose data passes the cap fails", async () => {
    const s = streamOf(`data: ${"x".repeat(600)}\ndata: ${"y".repeat(600)}\n\n`);
    const run = async () => {
      for await (const _ of readSseEvents(s, 1000, "t")) {
      }
    };
    expect((await failure(run())).code).toBe("mcp_frame_too_large");
  });
});

/** A channel that records what the client sends; the test plays the server through the sink. */
function recordingChannel(): Channel & { sent: Record<string, unknown>[] } {
  const sent: Record<string, unknown>[] = [];
  return { sent, send: async (m) => void sent.push(m), close: async () => {} };
}

describe("RpcClient", () => {
  test("answers ping, refuses other server requests, matches responses by id", async () => {
    const client = new RpcClient("srv");
    const ch = recordingChannel();
    client.attach(ch);
    const pending = client.request("tools/list", {}, 5000);
    client.message({ jsonrpc: "2.0", id: "p1", method: "ping" });
    client.message({ jsonrpc: "2.0", id: 9, method: "sampling/createMessage", params: {} });
    client.message({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info" } });
    client.message({ jsonrpc: "2.0", id: 1, result: { tools: [] } });
    expect(await pending).toEqual({ tools: [] });
    await waitFor(() => ch.sent.length === 3, "the answers to ping and sampling");
    expect(ch.sent).toEqual([
      { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} },
      { jsonrpc: "2.0", id: "p1", result: {} },
      { jsonrpc: "2.0", id: 9, error: { code: -32601, message: "gjc does not offer sampling/createMessage" } },
    ]);
  });

  test("a batch is handled element by element", async () => {
    const client = new RpcClient("srv");
    client.attach(recordingChannel());
    const a = client.request("a", undefined, 5000);
    const b = client.request("b", undefined, 5000);
    client.message([
      { jsonrpc: "2.0", id: 2, result: "B" },
      { jsonrpc: "2.0", id: 1, result: "A" },
    ]);
    expect(await Promise.all([a, b])).toEqual(["A", "B"]);
  });

  for (const [what, msg, text] of [
    ["a response to an unknown id", { jsonrpc: "2.0", id: 42, result: {} }, "never sent"],
    ["a message without jsonrpc 2.0", { id: 1, result: {} }, "not JSON-RPC 2.0"],
    ["a response with neither result nor error", { jsonrpc: "2.0", id: 1 }, "neither result nor error"],
    ["an empty batch", [], "empty JSON-RPC batch"],
    ["a bare string", "hello", "not JSON-RPC 2.0"],
  ] as const) {
    test(`${what} fails the session`, async () => {
      const client = new RpcClient("srv");
      client.attach(recordingChannel());
      const pending = client.request("initialize", {}, 5000);
      client.message(msg);
      const err = await failure(pending);
      expect(err.code).toBe("mcp_protocol");
      expect(err.message).toContain(text);
      expect((await failure(client.request("again", {}, 5000))).code).toBe("mcp_protocol");
    });
  }

  test("a server error carries its code and a sanitized message", async () => {
    const client = new RpcClient("srv");
    client.attach(recordingChannel());
    const pending = client.request("tools/list", {}, 5000);
    client.message({ jsonrpc: "2.0", id: 1, error: { code: -32602, message: "bad\u001b[31m params\nnext" } });
    const err = await failure(pending);
    expect(err.code).toBe("mcp_error");
    expect(err.message).toBe("srv answered tools/list with an error -32602: bad [31m params next");
  });
});
