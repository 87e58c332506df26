/**
 * Signing through ssh-agent (draft-miller-ssh-agent): the key stays in the agent, gjc sends
 * SSH2_AGENTC_SIGN_REQUEST over the agent's UNIX socket and gets the signature blob back.
 * This is how an encrypted private key signs without gjc ever seeing a passphrase.
 */
import { createConnection } from "node:net";
import type { SshSigner } from "./private-key.ts";
import type { SshPublicKey } from "./ssh-keys.ts";
import { WireReader, WireWriter } from "./ssh-wire.ts";

const SSH_AGENT_FAILURE = 5;
const SSH2_AGENTC_REQUEST_IDENTITIES = 11;
const SSH2_AGENT_IDENTITIES_ANSWER = 12;
const SSH2_AGENTC_SIGN_REQUEST = 13;
const SSH2_AGENT_SIGN_RESPONSE = 14;
const SSH_AGENT_RSA_SHA2_512 = 4;
/** Replies are small; a peer that sends more is not an agent. */
const MAX_REPLY = 256 * 1024;

export class AgentError extends Error {}

/** One request, one reply, on a fresh connection. */
function request(socketPath: string, message: Uint8Array): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const sock = createConnection({ path: socketPath });
    let buf = Buffer.alloc(0);
    const fail = (e: Error) => {
      sock.destroy();
      reject(e instanceof AgentError ? e : new AgentError(`cannot talk to ssh-agent at ${socketPath}: ${e.message}`));
    };
    sock.on("error", fail);
    sock.on("connect", () => sock.write(new WireWriter().string(message).bytes()));
    sock.on("data", (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      if (buf.length < 4) return;
      const len = buf.readUInt32BE(0);
      if (len > MAX_REPLY) return fail(new AgentError("ssh-agent sent an oversized reply"));
      if (buf.length < 4 + len) return;
      sock.end();
      resolve(new Uint8Array(buf.subarray(4, 4 + len)));
    });
    sock.on("end", () => fail(new AgentError("ssh-agent closed the connection without a reply")));
  });
}

/** The key blobs the agent holds. */
export async function agentKeys(socketPath: string): Promise<Uint8Array[]> {
  const reply = new WireReader(await request(socketPath, Uint8Array.of(SSH2_AGENTC_REQUEST_IDENTITIES)));
  if (reply.byte() !== SSH2_AGENT_IDENTITIES_ANSWER) throw new AgentError("ssh-agent refused to list its keys");
  const n = reply.uint32();
  const out: Uint8Array[] = [];
  for (let i = 0; i < n && reply.remaining > 0; i++) {
    out.push(reply.string());
    reply.string(); // comment
  }
  return out;
}

export function agentSigner(socketPath: string, publicKey: SshPublicKey): SshSigner {
  return {
    publicKey,
    async sign(data) {
      const flags = publicKey.type === "ssh-rsa" ? SSH_AGENT_RSA_SHA2_512 : 0;
      const msg = new WireWriter()
        .byte(SSH2_AGENTC_SIGN_REQUEST)
        .string(publicKey.blob)
        .string(data)
        .uint32(flags)
        .bytes();
      const reply = new WireReader(await request(socketPath, msg));
      const type = reply.byte();
      if (type === SSH_AGENT_FAILURE)
        throw new AgentError("ssh-agent refused to sign (is the key still loaded, or does it need confirmation?)");
      if (type !== SSH2_AGENT_SIGN_RESPONSE) throw new AgentError(`ssh-agent answered with message type ${type}`);
      return reply.string();
    },
  };
}
