/**
 * The signer `--key <file>` names: an unencrypted OpenSSH private key signs directly; an
 * encrypted one, or a public key, signs through ssh-agent when the agent holds that key.
 */
import { existsSync } from "node:fs";
import type { Context } from "../core/context.ts";
import { expandHome } from "../core/context.ts";
import { GjcError } from "../core/errors.ts";
import { ExitCode } from "../core/exit-codes.ts";
import { readRegularFile } from "../bundle/read-file.ts";
import { EncryptedKeyError, looksLikePrivateKey, parsePrivateKey, type SshSigner } from "./private-key.ts";
import { agentKeys, agentSigner, AgentError } from "./ssh-agent.ts";
import { KeyFormatError, parsePublicKeyLine, sameKey, type SshPublicKey } from "./ssh-keys.ts";

const MAX_KEY_BYTES = 256 * 1024;

const unusable = (message: string, hint: string) =>
  new GjcError({ code: "signing_key_unusable", message, hint, exit: ExitCode.failed });

function readKeyFile(path: string): string {
  try {
    return new TextDecoder().decode(readRegularFile(path, MAX_KEY_BYTES, path).bytes);
  } catch (error) {
    throw unusable(
      `The key ${path} cannot be read: ${(error as Error).message}`,
      "Pass --key with the path of an OpenSSH private key (e.g. ~/.ssh/id_ed25519) or of its .pub when the key is in ssh-agent.",
    );
  }
}

export async function loadSigner(ctx: Context, keyArg: string): Promise<SshSigner> {
  const path = expandHome(ctx, keyArg);
  if (!existsSync(path))
    throw unusable(
      `There is no key file ${path}.`,
      "Make one with ssh-keygen -t ed25519, or pass the path of an existing key.",
    );
  const text = readKeyFile(path);
  if (looksLikePrivateKey(text)) {
    try {
      return parsePrivateKey(text);
    } catch (error) {
      if (error instanceof KeyFormatError)
        throw unusable(
          `The key ${path} is not usable: ${error.message}.`,
          "Use an Ed25519, ECDSA P-256 or RSA key written by ssh-keygen.",
        );
      if (!(error instanceof EncryptedKeyError)) throw error;
      const pub = `${path}.pub`;
      if (!existsSync(pub))
        throw unusable(
          `The key ${path} is encrypted and gjc never asks for passphrases; there is no ${pub} to find it in ssh-agent.`,
          `Load it with ssh-add ${keyArg} and pass --key ${keyArg}.pub.`,
        );
      return viaAgent(ctx, parsePublic(readKeyFile(pub), pub), `${path} is encrypted`);
    }
  }
  return viaAgent(ctx, parsePublic(text, path), `${path} is a public key`);
}

function parsePublic(text: string, path: string): SshPublicKey {
  try {
    return parsePublicKeyLine(text.split("\n")[0]).key;
  } catch (error) {
    if (!(error instanceof KeyFormatError)) throw error;
    throw unusable(
      `${path} is neither an OpenSSH private key nor a public key: ${error.message}.`,
      "Pass --key with an OpenSSH private key, or the .pub of a key held by ssh-agent.",
    );
  }
}

async function viaAgent(ctx: Context, key: SshPublicKey, why: string): Promise<SshSigner> {
  const sock = ctx.env.SSH_AUTH_SOCK;
  const hint = "Start ssh-agent and ssh-add the key, or pass --key with an unencrypted private key.";
  if (!sock) throw unusable(`${why}, so it must be signed with through ssh-agent, but SSH_AUTH_SOCK is not set.`, hint);
  let held: Uint8Array[];
  try {
    held = await agentKeys(sock);
  } catch (error) {
    if (!(error instanceof AgentError)) throw error;
    throw unusable(`${why}, and ssh-agent cannot be reached: ${error.message}.`, hint);
  }
  if (!held.some((b) => sameKey(b, key.blob))) throw unusable(`${why}, and ssh-agent does not hold that key.`, hint);
  const signer = agentSigner(sock, key);
  return {
    publicKey: key,
    async sign(data) {
      try {
        return await signer.sign(data);
      } catch (error) {
        if (!(error instanceof AgentError)) throw error;
        throw unusable(`ssh-agent did not sign: ${error.message}.`, hint);
      }
    },
  };
}
