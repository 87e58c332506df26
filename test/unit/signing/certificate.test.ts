import { describe, expect, test } from "bun:test";
import { judgeSigner, parseAllowedSigners } from "../../../src/signing/allowed-signers.ts";
import { parseCertificateBlob } from "../../../src/signing/certificate.ts";
import { parsePrivateKey } from "../../../src/signing/private-key.ts";
import { parsePublicKeyLine, verifySshSignature } from "../../../src/signing/ssh-keys.ts";
import { decodeSignature, encodeSignature, signatureMatches, signMessage } from "../../../src/signing/sshsig.ts";
import { makeCertificate, makeKey } from "../../helpers/ssh-keys.ts";

const ca = makeKey("ed25519", "ca");
const user = makeKey("ecdsa", "user");
const keyText = (k: { publicLine: string }) => k.publicLine.split(" ").slice(0, 2).join(" ");
const now = new Date(Date.UTC(2026, 5, 1));
const at = (d: Date) => BigInt(Math.floor(d.getTime() / 1000));
const blobOf = (line: string) => new Uint8Array(Buffer.from(line.split(" ")[1], "base64"));
const msg = new TextEncoder().encode("sha256:00\n");

/** A signature by `user` that carries `certLine` as its key. */
async function certSignature(certLine: string) {
  const plain = await signMessage(parsePrivateKey(user.privatePem), msg);
  const blob = encodeSignature(plain);
  const withCert = decodeSignature(
    new Uint8Array(
      Buffer.concat([
        blob.subarray(0, 10),
        lenPrefixed(blobOf(certLine)),
        blob.subarray(10 + 4 + plain.publicKey.blob.length),
      ]),
    ),
  );
  return withCert;
}
const lenPrefixed = (b: Uint8Array) => {
  const out = Buffer.alloc(4 + b.length);
  out.writeUInt32BE(b.length);
  out.set(b, 4);
  return out;
};

describe("OpenSSH certificates", () => {
  test("a user certificate parses: certified key, CA, principals, validity; the CA's signature verifies", async () => {
    const cert = parseCertificateBlob(
      blobOf(await makeCertificate(ca, user, { principals: ["pub@example", "ops@example"] })),
    );
    expect(cert.key.blob).toEqual(parsePublicKeyLine(user.publicLine).key.blob);
    expect(cert.ca.blob).toEqual(parsePublicKeyLine(ca.publicLine).key.blob);
    expect(cert.principals).toEqual(["pub@example", "ops@example"]);
    expect(await verifySshSignature(cert.ca, cert.signature, cert.signedPart)).toBe(true);
    const forged = new Uint8Array(cert.signedPart);
    forged[forged.length - 40] ^= 1;
    expect(await verifySshSignature(cert.ca, cert.signature, forged)).toBe(false);
  });

  test("a signature carrying a certificate is verified with the certified key and keeps the certificate bytes", async () => {
    const line = await makeCertificate(ca, user, { principals: ["pub@example"] });
    const sig = await certSignature(line);
    expect(sig.certificate?.principals).toEqual(["pub@example"]);
    expect(await signatureMatches(sig, msg)).toBe(true);
    expect(Buffer.from(encodeSignature(sig)).includes(Buffer.from(blobOf(line)))).toBe(true);
  });

  test("a cert-authority line trusts the CA for the principals it names, within the certificate's validity", async () => {
    const lines = parseAllowedSigners(`*@example cert-authority ${keyText(ca)}\nuser@x ${keyText(user)}`).signers;
    const judge = async (o: Parameters<typeof makeCertificate>[2]) => {
      const cert = parseCertificateBlob(blobOf(await makeCertificate(ca, user, o)));
      return judgeSigner(lines, cert.key, "gjc-plugin", "demo", now, cert);
    };
    expect(await judge({ principals: ["nobody@other", "pub@example"] })).toMatchObject({
      kind: "allowed",
      identity: "pub@example",
    });
    expect(await judge({ principals: ["pub@elsewhere"] })).toMatchObject({
      kind: "restricted",
      reason: expect.stringContaining("no principal"),
    });
    expect(await judge({ principals: ["pub@example"], validBefore: at(new Date(Date.UTC(2026, 0, 1))) })).toMatchObject(
      { kind: "restricted", reason: expect.stringContaining("expired") },
    );
    expect(await judge({ principals: ["pub@example"], validAfter: at(new Date(Date.UTC(2027, 0, 1))) })).toMatchObject({
      kind: "restricted",
      reason: expect.stringContaining("valid only from"),
    });
    expect(await judge({ principals: ["pub@example"], certType: 2 })).toMatchObject({
      kind: "restricted",
      reason: expect.stringContaining("not a user certificate"),
    });
    expect(await judge({ principals: ["pub@example"], criticalOptions: ["force-command"] })).toMatchObject({
      kind: "restricted",
      reason: expect.stringContaining("critical options"),
    });
    // The plain key's own line does not vouch for a certificate signature, nor the CA line for a plain one.
    const userKey = parsePublicKeyLine(user.publicLine).key;
    expect(judgeSigner(lines, userKey, "gjc-plugin", "demo", now)).toMatchObject({
      kind: "allowed",
      identity: "user@x",
    });
    expect(
      judgeSigner(
        parseAllowedSigners(`*@example cert-authority ${keyText(ca)}`).signers,
        userKey,
        "gjc-plugin",
        "demo",
        now,
      ).kind,
    ).toBe("unknown");
  });
});
