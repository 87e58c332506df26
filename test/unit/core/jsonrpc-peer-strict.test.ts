import { describe, expect, test } from "bun:test";
import { JsonRpcPeer, RpcMethodError } from "../../../src/core/jsonrpc-peer.ts";

/** A strict peer whose sent messages are kept; `echo` answers its params, `fail` throws with data. */
class Recorder extends JsonRpcPeer {
  readonly sent: unknown[] = [];
  readonly notified: string[] = [];
  constructor() {
    super(
      {
        onRequest: (method, params) => {
          if (method === "fail") throw new RpcMethodError(-32001, "no", { why: "asked to" });
          return { method, params: params ?? null };
        },
        onNotification: (method) => void this.notified.push(method),
        onProtocolProblem: () => {},
      },
      { strict: true, limits: { maxPendingRequests: 0, maxServedRequests: 100 } },
    );
  }
  protected send(message: Record<string, unknown>): void {
    this.sent.push(message);
  }
}

describe("the shared peer's strict JSON-RPC 2.0 mode", () => {
  test("jsonrpc must be 2.0; a bad id is answered with null; id null is a request; notifications are not answered", async () => {
    const p = new Recorder();
    p.receive({ jsonrpc: "1.0", id: 1, method: "echo" });
    p.receive({ id: "x", method: "echo" });
    p.receive({ jsonrpc: "2.0", id: [1], method: "echo" });
    p.receive({ jsonrpc: "2.0", id: 2, method: 7 });
    p.receive("text");
    p.receive({ jsonrpc: "2.0", id: null, method: "echo" });
    p.receive({ jsonrpc: "2.0", method: "note" });
    p.receive({ jsonrpc: "2.0", id: 3, method: "fail" });
    await p.answered();
    const codes = p.sent.map((m: any) => [m.id, m.error?.code ?? "ok"]);
    expect(codes).toEqual([
      [1, -32600],
      ["x", -32600],
      [null, -32600],
      [2, -32600],
      [null, -32600],
      [null, "ok"],
      [3, -32001],
    ]);
    expect(p.sent.at(-1)).toEqual({
      jsonrpc: "2.0",
      id: 3,
      error: { code: -32001, message: "no", data: { why: "asked to" } },
    });
    expect(p.notified).toEqual(["note"]);
  });

  test("a batch is answered in one array, without its notifications and responses; all-notification and empty batches", async () => {
    const p = new Recorder();
    p.receiveBatch([
      { jsonrpc: "2.0", id: 1, method: "echo", params: { a: 1 } },
      { jsonrpc: "2.0", method: "note" },
      5,
      { jsonrpc: "2.0", id: 9, result: 1 },
      { jsonrpc: "2.0", id: 2, method: "fail" },
    ]);
    p.receiveBatch([{ jsonrpc: "2.0", method: "note" }]);
    p.receiveBatch([]);
    await p.answered();
    expect(p.sent).toHaveLength(2);
    const batch = p.sent.find(Array.isArray) as any[];
    const empty = p.sent.find((m) => !Array.isArray(m));
    expect(batch.map((m: any) => [m.id, m.error?.code ?? m.result])).toEqual([
      [1, { method: "echo", params: { a: 1 } }],
      [null, -32600],
      [2, -32001],
    ]);
    expect(empty).toMatchObject({ id: null, error: { code: -32600 } });
    expect(p.notified).toEqual(["note", "note"]);
  });
});
