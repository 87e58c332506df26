/**
 * The management plane's side of `gjc host --stdio`: the shared JSON-RPC peer
 * (src/core/jsonrpc-peer.ts) in its strict JSON-RPC 2.0 mode, one JSON text per line on stdout.
 * The plane only answers: it sends no requests of its own, only notifications
 * (`plugins.changed`, `plugins.event`, `plugins.connector_event`), and it serves as many
 * requests at once as the client sends (each is a short-lived call into the host).
 */
import { JsonRpcPeer, type JsonRpcHandlers } from "../core/jsonrpc-peer.ts";

export class PlanePeer extends JsonRpcPeer {
  constructor(
    private readonly write: (line: string) => void,
    handlers: JsonRpcHandlers,
  ) {
    super(handlers, {
      strict: true,
      limits: { maxPendingRequests: 0, maxServedRequests: Number.POSITIVE_INFINITY },
      peerName: "the client",
    });
  }

  protected send(message: Record<string, unknown>): void {
    this.write(JSON.stringify(message));
  }
}
