import { describe, expect, jest, test } from "bun:test";
import { PeerError } from "../../../src/c2host/peer-errors.ts";
import { ProtocolPeer, type PeerHandlers } from "../../../src/c2host/protocol-peer.ts";
import { waitFor } from "../../helpers/wait.ts";

const enc = (m: unknown) => new TextEncoder().encode(`${JSON.stringify(m)}\n`);

function harness(handlers: Partial<PeerHandlers> = {}, limits = {}) {
  const written: any[] = [];
  const warnings: string[] = [];
  const notes: [string, unknown][] = [];
  const peer = new ProtocolPeer(
    { write: (f) => written.push(JSON.parse(f)) },
    {
      onRequest: handlers.onRequest ?? (async () => null),
      onNotification: handlers.onNotification ?? ((m, p) => notes.push([m, p])),
      onWarning: (w) => warnings.push(w),
    },
    limits,
  );
  return { peer, written, warnings, notes };
}

describe("protocol peer", () => {
  test("host ids are integers from 1 and answers are matched only by them", async () => {
    const { peer, written, warnings } = harness();
    const a = peer.request("initialize", {});
    const b = peer.request("command/invoke", { name: "x.y" });
    expect(written.map((w) => w.id)).toEqual([1, 2]);
    expect(written[0]).toEqual({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} });
    peer.feed(enc({ jsonrpc: "2.0", id: "2", result: "string id" }));
    expect(warnings[0]).toMatch(/non-integer id/);
    peer.feed(enc({ jsonrpc: "2.0", id: 2, result: "two" }));
    peer.feed(enc({ jsonrpc: "2.0", id: 1 }));
    expect(await b).toBe("two");
    expect(await a).toBeNull();
  });

  test("error answers carry the plugin's message, or a default", async () => {
    const { peer } = harness();
    const a = peer.request("command/invoke", {});
    const b = peer.request("command/invoke", {});
    peer.feed(enc({ id: 1, error: { code: 7, message: "bad input" } }));
    peer.feed(enc({ id: 2, error: {} }));
    await expect(a).rejects.toMatchObject({ kind: "remote", message: "bad input", remote: { code: 7 } });
    await expect(b).rejects.toMatchObject({ kind: "remote", message: "the plugin refused without a reason" });
  });

  test("plugin requests are served with -32000 errors for unknown methods, ids echoed", async () => {
    const { peer, written } = harness({
      onRequest: async (method) => {
        if (method === "command/call") return { ok: true };
        throw new Error(`the host has no method \`${method}\``);
      },
    });
    peer.feed(enc({ jsonrpc: "2.0", id: "abc", method: "command/call", params: {} }));
    peer.feed(enc({ jsonrpc: "2.0", id: 9, method: "nope", params: {} }));
    await waitFor(() => written.length === 2, "both answers");
    expect(written).toContainEqual({ jsonrpc: "2.0", id: "abc", result: { ok: true } });
    expect(written).toContainEqual({
      jsonrpc: "2.0",
      id: 9,
      error: { code: -32000, message: "the host has no method `nope`" },
    });
  });

  test("notifications are passed on; blank lines and CRLF are tolerated", () => {
    const { peer, notes, warnings } = harness();
    peer.feed(new TextEncoder().encode('\n\r\n{"jsonrpc":"2.0","method":"log","params":{"message":"hi"}}\r\n'));
    expect(notes).toEqual([["log", { message: "hi" }]]);
    expect(warnings).toEqual([]);
  });

  test("closing fails every waiter with the reason and aborts running callbacks", async () => {
    let aborted: unknown;
    const { peer } = harness({
      onRequest: (_m, _p, signal) =>
        new Promise((_, reject) => {
          signal.addEventListener("abort", () => {
            aborted = signal.reason;
            reject(new Error("aborted"));
          });
        }),
    });
    const a = peer.request("command/invoke", {});
    peer.feed(enc({ id: 1, method: "command/call", params: {} }));
    peer.close(new PeerError("closed", "the runtime process exited with code 1"));
    await expect(a).rejects.toMatchObject({
      kind: "closed",
      message: "the runtime process exited with code 1 (while waiting for `command/invoke`)",
    });
    expect(aborted).toBeInstanceOf(PeerError);
    await expect(peer.request("x", {})).rejects.toMatchObject({ kind: "closed" });
  });

  test("a timeout closes the peer", async () => {
    const { peer } = harness();
    await expect(peer.request("command/invoke", {}, { timeoutMs: 10 })).rejects.toMatchObject({ kind: "timeout" });
    expect(peer.closed).toBe(true);
  });

  test("an oversized answer from the host is replaced by an error answer", async () => {
    const { peer, written } = harness({ onRequest: async () => "q".repeat(300) }, { maxFrameBytes: 200 });
    peer.feed(enc({ id: 1, method: "command/call", params: {} }));
    await waitFor(() => written.length === 1, "the answer");
    expect(written[0].error.message).toMatch(/exceeds the 1 MiB protocol frame limit/);
    expect(peer.closed).toBe(false);
  });

  test("frames of one turn share one flush, which runs before the turn ends; nothing is flushed after close", async () => {
    const events: string[] = [];
    const peer = new ProtocolPeer(
      { write: (f) => events.push(`write ${JSON.parse(f).id}`), flush: () => events.push("flush") },
      { onRequest: async () => null, onNotification() {}, onWarning() {} },
    );
    peer.request("a", {}).catch(() => {});
    peer.request("b", {}).catch(() => {});
    expect(events).toEqual(["write 1", "write 2"]);
    await Promise.resolve();
    expect(events).toEqual(["write 1", "write 2", "flush"]);
    // A lone call is flushed within its own turn as well.
    peer.request("c", {}).catch(() => {});
    await Promise.resolve();
    expect(events).toEqual(["write 1", "write 2", "flush", "write 3", "flush"]);
    // A frame written just before the peer closes is not flushed any more.
    const last = peer.request("d", {});
    peer.close(new PeerError("closed", "gone"));
    await expect(last).rejects.toMatchObject({ kind: "closed" });
    expect(events.at(-1)).toBe("write 4");
  });

  test("a cancelled request is forgotten: its late answer is dropped and it no longer counts as pending", async () => {
    const { peer, warnings } = harness();
    const controller = new AbortController();
    const a = peer.request("command/invoke", {}, { signal: controller.signal });
    expect(peer.pendingCount).toBe(1);
    controller.abort();
    await expect(a).rejects.toMatchObject({ kind: "cancelled" });
    expect(peer.pendingCount).toBe(0);
    peer.feed(enc({ jsonrpc: "2.0", id: 1, result: "late" }));
    expect(warnings).toEqual(["dropped a response to request id 1, which was never sent or is no longer awaited"]);
    const aborted = new AbortController();
    aborted.abort();
    await expect(peer.request("x", {}, { signal: aborted.signal })).rejects.toMatchObject({ kind: "cancelled" });
    expect(peer.closed).toBe(false);
  });

  test("an answered request releases its timer and its abort listener", async () => {
    // A fake clock makes the absence provable: the timer is counted while the request waits,
    // gone once it is answered, and running the clock well past the timeout closes nothing.
    jest.useFakeTimers();
    try {
      const { peer } = harness();
      const controller = new AbortController();
      const before = jest.getTimerCount();
      const a = peer.request("command/invoke", {}, { timeoutMs: 5, signal: controller.signal });
      expect(jest.getTimerCount()).toBe(before + 1);
      peer.feed(enc({ jsonrpc: "2.0", id: 1, result: 7 }));
      expect(await a).toBe(7);
      expect(jest.getTimerCount()).toBe(before);
      controller.abort();
      jest.advanceTimersByTime(25);
      expect(peer.closed).toBe(false);
    } finally {
      jest.useRealTimers();
    }
  });
});
