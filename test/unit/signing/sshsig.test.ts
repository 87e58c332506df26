import { describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { parsePrivateKey, EncryptedKeyError } from "../../../src/signing/private-key.ts";
import { fingerprint, KeyFormatError, parsePublicKeyLine, verifySshSignature } from "../../../src/signing/ssh-keys.ts";
import {
  armor,
  armorSignature,
  decodeSignature,
  dearmor,
  encodeSignature,
  parseArmoredSignature,
  SignatureFormatError,
  signatureMatches,
  signMessage,
} from "../../../src/signing/sshsig.ts";
import { WireReader, WireWriter } from "../../../src/signing/ssh-wire.ts";
import { makeKey, type TestKeyType } from "../../helpers/ssh-keys.ts";

const msg = new TextEncoder().encode("sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\n");

describe("SSHSIG", () => {
  for (const type of ["ed25519", "ecdsa", "rsa"] as TestKeyType[]) {
    test(`${type}: a signature made here verifies, round-trips through the armor, and fails on another message`, async () => {
      const key = makeKey(type);
      const signer = parsePrivateKey(key.privatePem);
      expect(signer.publicKey.blob).toEqual(parsePublicKeyLine(key.publicLine).key.blob);
      const sig = await signMessage(signer, msg);
      const text = armorSignature(sig);
      expect(text.startsWith("-----BEGIN SSH SIGNATURE-----\n")).toBe(true);
      expect(text.endsWith("\n-----END SSH SIGNATURE-----\n")).toBe(true);
      for (const line of text.split("\n").slice(1, -2)) expect(line.length).toBeLessThanOrEqual(70);
      const back = parseArmoredSignature(text);
      expect(back.namespace).toBe("gjc-plugin");
      expect(back.hashAlgorithm).toBe("sha512");
      expect(encodeSignature(back)).toEqual(encodeSignature(sig));
      expect(await signatureMatches(back, msg)).toBe(true);
      expect(await signatureMatches(back, new TextEncoder().encode("sha256:00\n"))).toBe(false);
    });
  }

  test("the blob has the layout of PROTOCOL.sshsig, and what is signed binds namespace and hash", async () => {
    const signer = parsePrivateKey(makeKey().privatePem);
    const sig = await signMessage(signer, msg);
    const blob = encodeSignature(sig);
    expect(Buffer.from(blob.subarray(0, 6)).toString()).toBe("SSHSIG");
    const r = new WireReader(blob.subarray(6));
    expect(r.uint32()).toBe(1);
    expect(r.string()).toEqual(signer.publicKey.blob);
    expect(r.text()).toBe("gjc-plugin");
    expect(r.string().length).toBe(0);
    expect(r.text()).toBe("sha512");
    const sigBlob = r.string();
    r.end();
    // The same signature under another namespace does not verify: the namespace is signed.
    expect(await signatureMatches({ ...sig, namespace: "file" }, msg)).toBe(false);
    expect(await signatureMatches({ ...sig, hashAlgorithm: "sha256" }, msg)).toBe(false);
    // A flipped bit in the Ed25519 signature fails.
    const bad = new Uint8Array(sigBlob);
    bad[bad.length - 1] ^= 1;
    expect(await signatureMatches({ ...sig, signature: bad }, msg)).toBe(false);
    // And the digest signed is H(message) behind the magic and the fields.
    const expected = new WireWriter()
      .raw("SSHSIG")
      .string("gjc-plugin")
      .string("")
      .string("sha512")
      .string(new Uint8Array(createHash("sha512").update(msg).digest()))
      .bytes();
    expect(await verifySshSignature(signer.publicKey, sigBlob, expected)).toBe(true);
  });

  test("a key of one type cannot pass off a signature of another", async () => {
    const ed = await signMessage(parsePrivateKey(makeKey("ed25519").privatePem), msg);
    const ec = parsePrivateKey(makeKey("ecdsa").privatePem);
    expect(await signatureMatches({ ...ed, publicKey: ec.publicKey }, msg)).toBe(false);
  });

  test("malformed signatures are refused with a reason, never thrown as something else", async () => {
    const sig = await signMessage(parsePrivateKey(makeKey().privatePem), msg);
    const blob = encodeSignature(sig);
    const cases: [string, () => unknown][] = [
      ["no armor", () => dearmor("hello")],
      ["not base64", () => dearmor("-----BEGIN SSH SIGNATURE-----\n!!!\n-----END SSH SIGNATURE-----\n")],
      ["no magic", () => decodeSignature(new Uint8Array([1, 2, 3]))],
      ["truncated", () => decodeSignature(blob.subarray(0, blob.length - 5))],
      ["trailing bytes", () => decodeSignature(new Uint8Array([...blob, 0]))],
      ["version 2", () => decodeSignature(new Uint8Array([...blob.subarray(0, 6), 0, 0, 0, 2, ...blob.subarray(10)]))],
    ];
    for (const [what, f] of cases) expect(f, what).toThrow(SignatureFormatError);
    const md5 = new WireWriter()
      .raw("SSHSIG")
      .uint32(1)
      .string(sig.publicKey.blob)
      .string("gjc-plugin")
      .string("")
      .string("md5")
      .string(sig.signature)
      .bytes();
    expect(() => decodeSignature(md5)).toThrow(/hash algorithm/);
    const noNs = new WireWriter()
      .raw("SSHSIG")
      .uint32(1)
      .string(sig.publicKey.blob)
      .string("")
      .string("")
      .string("sha512")
      .string(sig.signature)
      .bytes();
    expect(() => decodeSignature(noNs)).toThrow(/empty namespace/);
    expect(() =>
      parseArmoredSignature(
        armor(blob).replace("-----BEGIN SSH SIGNATURE-----\n", "junk\n-----BEGIN SSH SIGNATURE-----\n"),
      ),
    ).not.toThrow();
  });

  test("the fingerprint is ssh-keygen's SHA256:<unpadded base64> of the key blob", () => {
    const key = parsePublicKeyLine(makeKey().publicLine).key;
    const fp = fingerprint(key.blob);
    expect(fp).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
    expect(fp).toBe(`SHA256:${createHash("sha256").update(key.blob).digest("base64").replace(/=+$/, "")}`);
  });
});

describe("OpenSSH keys", () => {
  test("public key lines: wrong type label, short RSA, certificates and junk are refused", () => {
    const line = makeKey().publicLine;
    expect(parsePublicKeyLine(line).comment).toBe("test@example");
    expect(() => parsePublicKeyLine(line.replace("ssh-ed25519", "ssh-rsa"))).toThrow(KeyFormatError);
    expect(() => parsePublicKeyLine("ssh-ed25519 AAAA")).toThrow(KeyFormatError);
    expect(() => parsePublicKeyLine("hello")).toThrow(KeyFormatError);
    const cert = `ssh-ed25519-cert-v01@openssh.com ${Buffer.from(new WireWriter().string("ssh-ed25519-cert-v01@openssh.com").bytes()).toString("base64")}`;
    expect(() => parsePublicKeyLine(cert)).toThrow(/is a certificate/);
    const shortRsa = new WireWriter()
      .string("ssh-rsa")
      .mpint(Uint8Array.of(1, 0, 1))
      .mpint(new Uint8Array(128).fill(0xff))
      .bytes();
    expect(() => parsePublicKeyLine(`ssh-rsa ${Buffer.from(shortRsa).toString("base64")}`)).toThrow(/2048/);
  });

  test("an encrypted private key is reported as encrypted (so the agent can be asked), a broken one as malformed", () => {
    const pem = makeKey().privatePem;
    const body = Buffer.from(pem.split("\n").slice(1, -2).join(""), "base64");
    const r = new WireReader(new Uint8Array(body.subarray(15)));
    r.string();
    r.string();
    r.string();
    r.uint32();
    const pub = r.string();
    const enc = new WireWriter()
      .raw("openssh-key-v1\0")
      .string("aes256-ctr")
      .string("bcrypt")
      .string(new WireWriter().string(new Uint8Array(16)).uint32(16).bytes())
      .uint32(1)
      .string(pub)
      .string(new Uint8Array(64))
      .bytes();
    const encPem = `-----BEGIN OPENSSH PRIVATE KEY-----\n${Buffer.from(enc).toString("base64")}\n-----END OPENSSH PRIVATE KEY-----\n`;
    expect(() => parsePrivateKey(encPem)).toThrow(EncryptedKeyError);
    expect(() => parsePrivateKey(pem.replace(/\n[A-Za-z0-9+/]{10}/, "\nAAAAAAAAAA"))).toThrow();
    expect(() => parsePrivateKey("-----BEGIN RSA PRIVATE KEY-----\n")).toThrow(KeyFormatError);
  });
});
