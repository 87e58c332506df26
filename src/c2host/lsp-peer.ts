/**
 * The JSON-RPC side of a language server connection: the shared peer (src/core/jsonrpc-peer.ts)
 * with LSP's Content-Length framing. A request the server sends the host is answered with
 * "method not found" (gjc offers no workspace services to plugin servers), so a server that asks
 * never waits for an answer that does not come; its notifications are ignored.
 */
import { JsonRpcPeer, PeerError, RpcMethodError } from "../core/jsonrpc-peer.ts";
import { lspFrame } from "./lsp-framing.ts";

const METHOD_NOT_FOUND = -32601;

export class LspPeer extends JsonRpcPeer {
  constructor(private readonly write: (frame: Uint8Array | string) => void) {
    super(
      {
        onRequest: (method) => {
          throw new RpcMethodError(
            METHOD_NOT_FOUND,
            `the gjc host does not offer \`${method}\` to plugin language servers`,
          );
        },
        onNotification: () => {},
        onProtocolProblem: () => {},
      },
      { limits: { maxPendingRequests: 64, maxServedRequests: 16 }, peerName: "the language server" },
    );
  }

  protected send(message: Record<string, unknown>): void {
    this.write(lspFrame(message));
  }

  /** The server's output ended (it exited, or its stdout could not be read). */
  end(reason: string): void {
    this.close(new PeerError("closed", reason));
  }
}
